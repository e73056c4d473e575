import Foundation
import LoopPlayer
import XCTest

/// HTTP and HLS sources from a real HTTP server on loopback (Python's http.server).
final class NetworkSourceTests: XCTestCase {
    private var server: Process?
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var text = ""
        while !text.contains("\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "port "), let number = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            throw XCTSkip("http.server did not start: \(text)")
        }
        port = number
    }

    override func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
    }

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
        XCTAssertEqual(error.kind, "unreadableMedia")
        XCTAssertTrue(error.description.contains("404") || error.description.contains("Not Found"), error.description)
    }
}
