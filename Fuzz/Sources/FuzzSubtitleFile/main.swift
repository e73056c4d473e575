import Foundation
import FuzzDriver
@testable import LoopPlayer
@testable import LoopPlayerMedia
import Logging


/// Loading an external subtitle file from its bytes: the text subtitle demuxers FFmpeg is allowed
/// (probed, then by the name's extension), the decoders, the legacy-encoding retry and the sort.
/// The first byte picks the name, so each extension's forced demuxer is reached too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 0 else { return 0 }
    let names = ["fuzz.srt", "fuzz.vtt", "fuzz.ass", "fuzz.ssa", "fuzz.smi", "fuzz.txt"]
    let name = names[Int(data[0]) % names.count]
    let contents = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits = ExternalSubtitleFile.Limits(maximumEvents: 5_000, maximumBytes: 1 << 20, timeout: 5)
    if let file = try? ExternalSubtitleFile(source: name, contents: contents, limits: limits) {
        _ = file.cues.map { ($0.start, $0.end, $0.plainText) }
    }
    return 0
}

// FFmpeg's complaints about broken input, forwarded to the library's log, would be most of the run.
LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) })
