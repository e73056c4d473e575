import Foundation
import LoopPlayer
import Synchronization
import XCTest

/// HTTP and HLS sources from a real HTTP server on loopback (Python's http.server).
final class NetworkSourceTests: XCTestCase {
    private var server: LoopbackHTTPServer?
    private var port = 0

    override func setUpWithError() throws {
        let clip = try TestMedia.loopClip()
        let root = TestMedia.directory.appendingPathComponent("http-root")
        let hls = root.appendingPathComponent("hls")
        if !FileManager.default.fileExists(atPath: hls.appendingPathComponent("index.m3u8").path) {
            try FileManager.default.createDirectory(at: hls, withIntermediateDirectories: true)
            let made = try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", clip, "-c", "copy",
                                                    "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                                                    "-hls_segment_filename", hls.appendingPathComponent("seg%03d.ts").path,
                                                    hls.appendingPathComponent("index.m3u8").path])
            XCTAssertEqual(made.status, 0, made.output)
            // Web delivery puts the index first (faststart); http.server has no range requests, so
            // looping must reopen the URL rather than seek.
            let copied = try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", clip, "-c", "copy",
                                                      "-movflags", "+faststart", root.appendingPathComponent("clip.mp4").path])
            XCTAssertEqual(copied.status, 0, copied.output)
        }
        server = try LoopbackHTTPServer(root: root)
        port = server?.port ?? 0
    }

    override func tearDown() { server = nil }

    func testHLSPlaylistLoopsSeamlessly() throws {
        let record = try playUntimed("http://127.0.0.1:\(port)/hls/index.m3u8", looping: true, stop: StopCondition(loops: 3, exitAtEnd: true))
        XCTAssertEqual(record.outcome, .finished)
        XCTAssertEqual(record.statistics.framesPresented, 360)
        XCTAssertEqual(record.statistics.loopsCompleted, 3)
        XCTAssertEqual(record.statistics.loopDurationMs ?? 0, 4000, accuracy: 0.1)
        let worst = zip(record.times, record.times.dropFirst()).map { abs($1 - $0 - 1.0 / 30) }.max() ?? 1
        XCTAssertLessThan(worst, 1e-4, "every step, wraps included, is one frame interval")
    }

    func testProgressiveMP4OverHTTPLoops() throws {
        let record = try playUntimed("http://127.0.0.1:\(port)/clip.mp4", looping: true, stop: StopCondition(loops: 2, exitAtEnd: true))
        XCTAssertEqual(record.statistics.framesPresented, 240)
        XCTAssertEqual(record.statistics.loopsCompleted, 2)
        XCTAssertEqual(record.statistics.seamMaxDeviationMs, 0, accuracy: 0.01)
    }

    func testMissingURLIsAClearError() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, untimed: true,
                                                                           stop: StopCondition(frames: 1)))
        try engine.load("http://127.0.0.1:\(port)/nothing-here.m3u8")
        guard case let .failed(error) = engine.run() else { return XCTFail("played a missing URL") }
        XCTAssertEqual(error, .networkError(url: "http://127.0.0.1:\(port)/nothing-here.m3u8", reason: "HTTP 404 Not Found"))
    }

    /// A server slower than the video's bitrate: the player reports buffering, then plays on.
    func testSlowServerReportsBuffering() throws {
        let root = TestMedia.directory.appendingPathComponent("http-root")
        // The fault server sending every response at 20 KiB/s (while the clip needs about 35 KiB/s),
        // without range requests, as http.server.
        let slow = try FaultServer(root: root)
        defer { slow.stop() }  // serving until the end of the test
        try slow.setFaults([FaultRule(throttle: 20 << 10)], acceptRanges: false)
        let slowURL = slow.url("/clip.mp4")

        let player = ExtVideoPlayer { VideoSettings { SourceName(slowURL); Events([.waitingToPlayAtSpecifiedRate, .playing]) } }
        let states = Mutex<[PlayerState]>([])
        let events = Mutex<[PlayerEvent]>([])
        player.onStateChange { state in states.withLock { $0.append(state) } }
            .onPlayerEventChange { batch in events.withLock { $0 += batch } }
        player.runHeadless(until: StopCondition(duration: 4))
        XCTAssertTrue(states.withLock { $0 }.contains(.buffering), "\(states.withLock { $0 })")
        XCTAssertTrue(events.withLock { $0 }.contains(.waitingToPlayAtSpecifiedRate), "\(events.withLock { $0 })")
        let sequence = states.withLock { $0 }
        if let firstBuffering = sequence.firstIndex(of: .buffering) {
            XCTAssertTrue(sequence[firstBuffering...].contains(.playing), "it plays on when data arrives: \(sequence)")
        }
    }
}
