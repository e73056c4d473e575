import FuzzDriver
import Foundation
@testable import Filters
import LoopPlayer
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// The small parsers of settings and flags: colours, `WxH` sizes, filter specs (`--filter`), and
/// a source policy judging the text as a source and as a URL a remote playlist names.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? Color(parsing: text)
    _ = PixelSize(parsing: text)
    _ = try? VideoFilter(parsing: text)
    let policy = SourcePolicy(allowed: AllowedSources(hosts: ["*.example.com", "127.0.0.1"]))
    _ = policy.check(source: text)
    if let url = URL(string: text) {
        _ = policy.check(url, from: .remote)
        _ = policy.check(url, from: .localPlaylist(folder: "/srv/show"))
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) })
