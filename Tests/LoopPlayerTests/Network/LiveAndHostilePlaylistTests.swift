import Foundation
@testable import LoopPlayer
import XCTest

/// Live playlists (reloaded while they grow; a playlist that stops growing is a stall) and hostile
/// playlists (self-referencing, mutual, 20 000 entries, a 2 MB line): a typed error or normal play,
/// with memory bounded — measured in a fresh `loopplay` process each.
final class LiveAndHostilePlaylistTests: XCTestCase {
    private var fixture: NetworkFixture!

    override func setUpWithError() throws { fixture = try NetworkFixture() }
    override func tearDown() { fixture = nil }

    /// Eight one-second segments with continuous timestamps, for publishing one by one.
    private func liveSegments() throws -> URL {
        let folder = TestMedia.directory.appendingPathComponent("hls-live-source")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("seg007.ts").path) { return folder }
        let partial = TestMedia.directory.appendingPathComponent("hls-live-source.part-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        let made = try TestMedia.run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                                                "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=8"] + TestMedia.h264
                                     + ["-pix_fmt", "yuv420p", "-sc_threshold", "0", "-f", "hls", "-hls_time", "1",
                                        "-hls_list_size", "0", "-hls_segment_filename", partial.appendingPathComponent("seg%03d.ts").path,
                                        partial.appendingPathComponent("all.m3u8").path])
        XCTAssertEqual(made.status, 0, made.output)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.moveItem(at: partial, to: folder)
        return folder
    }

    private static func livePlaylist(segments count: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for index in 0..<count { text += "#EXTINF:1.000000,\n/live-source/" + String(format: "seg%03d.ts", index) + "\n" }
        return text
    }

    /// Plays live while the playlist grows (reloaded every target duration), says that looping does
    /// not apply, and fails with a typed error once the playlist stops growing for the give-up time.
    func testLivePlaylistPlaysLiveAndAStoppedOneIsAStall() throws {
        try FileManager.default.createSymbolicLink(at: fixture.root.appendingPathComponent("live-source"),
                                                   withDestinationURL: try liveSegments())
        let playlist = try fixture.write(Self.livePlaylist(segments: 3), to: "live/index.m3u8")
        let server = fixture.server
        let publisher = Thread {
            for count in 4...8 {
                // A segment more each time the player has loaded the playlist once more (it reloads
                // every target duration): the first load sees 3 segments, the next 4, and so on.
                _ = waitFor(timeout: 20) {
                    ((try? server.requestLog())?.filter { $0.path == "/live/index.m3u8" }.count ?? 0) >= count - 3
                }
                // Written aside and renamed, so the server never serves half a playlist.
                let partial = playlist.appendingPathExtension("part")
                try? Self.livePlaylist(segments: count).write(to: partial, atomically: false, encoding: .utf8)
                _ = rename(partial.path, playlist.path)
            }
        }
        publisher.start()
        let probe = NetworkProbe { $0.network.timeout = 2 }
        probe.run(fixture.url("/live/index.m3u8"), timeout: 20) { $0.failure != nil }
        let reloads = try fixture.server.requestLog().filter { $0.path == "/live/index.m3u8" }.count
        print("live: \(probe.frames.count) frames, \(reloads) playlist loads, then \(String(describing: probe.failure))")
        XCTAssertGreaterThanOrEqual(probe.frames.count, 180, "the segments published later played too")
        assertNoFrameLostOrRepeated(probe)
        XCTAssertGreaterThanOrEqual(reloads, 5)
        XCTAssertTrue(probe.errors.contains(.liveStreamNotLooped(source: fixture.url("/live/index.m3u8"))), "\(probe.errors)")
        guard case let .networkError(url, reason)? = probe.failure else { return XCTFail("\(String(describing: probe.failure))") }
        XCTAssertEqual(url, fixture.url("/live/index.m3u8"))
        XCTAssertTrue(reason.contains("no new segment"), reason)
        XCTAssertFalse(probe.ended)
    }

    /// Each hostile playlist ends in a typed error or plays normally, and the process's peak memory
    /// stays within 100 MB of plain playback of the same presentation.
    func testHostilePlaylistsKeepMemoryBounded() throws {
        try fixture.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nself.m3u8\n", to: "hostile/self.m3u8")
        try fixture.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nb.m3u8\n", to: "hostile/a.m3u8")
        try fixture.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\na.m3u8\n", to: "hostile/b.m3u8")
        var many = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<49_990 { many += "#EXTINF:1.0,\n/hls/v240/seg00\(index % 4).ts?n=\(index)\n" }
        try fixture.write(many + "#EXT-X-ENDLIST\n", to: "hostile/many.m3u8")
        func variants(_ count: Int) -> String {
            "#EXTM3U\n" + (0..<count).map { "#EXT-X-STREAM-INF:BANDWIDTH=\(100_000 + $0),RESOLUTION=426x240\n/hls/v240/index.m3u8\n" }.joined()
        }
        try fixture.write(variants(1_000), to: "hostile/variants.m3u8")
        try fixture.write(variants(4_000), to: "hostile/too-many-variants.m3u8")
        try fixture.write("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n/hls/v240/seg000.ts?" + String(repeating: "a", count: 2 << 20) + "\n",
                          to: "hostile/long.m3u8")

        func run(_ path: String) throws -> (status: Int32, peak: Int, frames: Int, stderr: String) {
            let result = try LoopplayTool.run(["--source", fixture.url(path), "--headless", "--untimed", "--loop",
                                               "--frames", "150", "--stats-json", "-"], timeout: 60)
            let stats = LoopplayTool.json(result.stdout) ?? [:]
            return (result.status, stats["peakRSSBytes"] as? Int ?? 0, stats["framesPresented"] as? Int ?? 0, result.stderr)
        }
        let baseline = try run("/hls/v240/index.m3u8")
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        XCTAssertEqual(baseline.frames, 150)
        let cases: [(path: String, plays: Bool, says: String)] = [
            ("/hostile/self.m3u8", false, "the playlist refers to itself"),
            ("/hostile/a.m3u8", false, "a master playlist where a media playlist was expected"),
            ("/hostile/many.m3u8", true, ""),
            ("/hostile/variants.m3u8", true, ""),
            ("/hostile/too-many-variants.m3u8", false, "lists more than 1000 variants and renditions"),
            ("/hostile/long.m3u8", false, "longer than 65536 bytes"),
        ]
        for item in cases {
            let result = try run(item.path)
            print("hostile \(item.path): exit \(result.status), peak RSS \(result.peak >> 20) MiB (plain playback \(baseline.peak >> 20) MiB)")
            if item.plays {
                XCTAssertEqual(result.status, 0, "\(item.path): \(result.stderr)")
                XCTAssertEqual(result.frames, 150, item.path)
            } else {
                XCTAssertEqual(result.status, 65, "\(item.path): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(item.says), "\(item.path): \(result.stderr)")
            }
            XCTAssertGreaterThan(result.peak, 0, item.path)
            XCTAssertLessThan(result.peak, baseline.peak + 100 << 20, item.path)
        }
    }
}
