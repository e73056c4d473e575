import FuzzDriver
import Foundation
@testable import LoopPlayer
@testable import LoopPlayerMedia

/// The HLS playlist parser (master and media playlists, attribute lists, byte ranges, URIs), then
/// what the player computes from a parsed playlist: its timeline and the schedule's first segments.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let url = URL(string: "https://cdn.example.com/show/index.m3u8")!
    _ = HLSAttributeList.parse(Substring(String(decoding: bytes.prefix(4096), as: UTF8.self)))
    guard let playlist = try? HLSPlaylist.parse(bytes, url: url) else { return 0 }
    switch playlist {
    case let .master(master):
        _ = master.variants.map { ($0.bandwidth, $0.resolution, $0.url) }
    case let .media(media):
        let timeline = HLSMediaTimeline(media, at: 0)
        var schedule = HLSSegmentSchedule()
        for live in [false, true] {
            schedule.restart(live: live, at: 0, pass: 0)
            for index in 0..<8 {
                if live {
                    _ = schedule.nextLive(in: timeline, variant: 0)
                } else {
                    _ = schedule.nextVOD(in: timeline, variant: 0, streamIndex: index, looping: true)
                }
            }
        }
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) })
