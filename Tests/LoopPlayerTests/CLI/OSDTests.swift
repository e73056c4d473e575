import Foundation
@testable import LoopPlayer
@testable import LoopPlayerCore
import XCTest

/// Messages over the picture (mpv's OSD) in a real window on Xvfb, read back from the screen: after a
/// key, after `show-text` over the IPC, gone after their time, never in snapshots, none at level 0.
final class OSDTests: XCTestCase {
    private struct Session {
        let display: VirtualDisplay
        let process: Process
        let title: String
        let window: (x: Int, y: Int, width: Int, height: Int)
        let socket: String
        let output: PipeText

        /// White pixels in the window's top-left quarter, where messages are drawn (the clip is blue).
        func whitePixels() throws -> Int {
            let pixels = try display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
            var count = 0
            for y in 0..<window.height / 2 {
                for x in 0..<window.width / 2 {
                    let i = (y * window.width + x) * 3
                    if pixels[i] > 200, pixels[i + 1] > 200, pixels[i + 2] > 200 { count += 1 }
                }
            }
            return count
        }

        /// Whether the picture (blue) is on screen in the window's middle.
        func showsThePicture() throws -> Bool {
            let pixels = try display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
            let i = (window.height / 2 * window.width + window.width / 2) * 3
            return pixels[i] < 60 && pixels[i + 1] < 60 && pixels[i + 2] > 180
        }
    }

    /// loopplay looping a blue clip in a 320x180 window, with an IPC socket and the position
    /// published every 0.1 s (the player's clock, to wait on).
    private func start(_ extra: [String] = []) throws -> Session {
        let display = try VirtualDisplay()
        let clip = try TestMedia.clip("blue-1s.mp4", ["-f", "lavfi", "-i", "color=c=blue:s=320x180:r=30:d=1",
                                                      "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let title = "lptest-osd-\(UUID().uuidString.prefix(6))"
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("osd-\(UUID().uuidString.prefix(8)).sock").path
        let player = try LoopplayTool.start(["--source", clip, "--loop", "--title", title, "--window-size", "320x180",
                                             "--input-ipc-server", socket, "--time-publishing", "0.1"] + extra,
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        let window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        let session = Session(display: display, process: player.process, title: title, window: window, socket: socket,
                              output: PipeText(player.stdout))
        XCTAssertTrue(try waitFor(timeout: 20) { try session.showsThePicture() }, "the blue picture is shown")
        return session
    }

    func testAKeyAndShowTextAppearThenFadeAndStayOutOfSnapshots() throws {
        // Messages stay 4 s: long enough to be caught by screen captures on a loaded machine.
        let session = try start(["--osd-duration", "4000"])
        defer { stop(session.process) }
        XCTAssertEqual(try session.whitePixels(), 0, "no message before a key")

        try session.display.press(["9"], window: session.title)  // volume down: "Volume: 98 %"
        XCTAssertTrue(try waitFor(timeout: 10) { try session.whitePixels() > 30 }, "the key's message appears")
        XCTAssertTrue(try waitFor(timeout: 20) { try session.whitePixels() == 0 }, "and goes after its time")

        let client = try IPCClient(path: session.socket)
        try client.send(#"{"command": ["show-text", "HELLO WORLD", 600000], "request_id": 1}"# + "\n")
        XCTAssertEqual(client.reply()?["error"] as? String, "success")
        XCTAssertTrue(try waitFor(timeout: 10) { try session.whitePixels() > 30 }, "show-text appears")
        // A snapshot taken while it shows has the picture alone, as mpv's screenshots.
        let snapshot = FileManager.default.temporaryDirectory.appendingPathComponent("osd-\(UUID().uuidString.prefix(6)).png").path
        defer { try? FileManager.default.removeItem(atPath: snapshot) }
        try client.send(#"{"command": ["screenshot-to-file", "\#(snapshot)"], "request_id": 2}"# + "\n")
        XCTAssertEqual(client.reply()?["error"] as? String, "success")
        XCTAssertTrue(waitFor(timeout: 10) { FileManager.default.fileExists(atPath: snapshot)
            && ((try? TestMedia.rgbPixels(of: snapshot)) != nil) })
        let image = try TestMedia.rgbPixels(of: snapshot)
        var white = 0
        for y in 0..<image.height / 2 {
            for x in 0..<image.width / 2 where image.pixel(x, y).allSatisfy({ $0 > 200 }) { white += 1 }
        }
        XCTAssertEqual(white, 0, "no message in the snapshot")
        XCTAssertTrue(try session.whitePixels() > 30, "still shown (10 minutes)")
        // An empty show-text takes it away.
        try client.send(#"{"command": ["show-text", ""], "request_id": 3}"# + "\n")
        XCTAssertEqual(client.reply()?["error"] as? String, "success")
        XCTAssertTrue(try waitFor(timeout: 10) { try session.whitePixels() == 0 }, "an empty show-text removes the message")
    }

    func testLevelZeroShowsNoMessage() throws {
        let session = try start(["--osd-level", "0"])
        defer { stop(session.process) }
        try session.display.press(["9"], window: session.title)
        let client = try IPCClient(path: session.socket)
        // Answered once the player has carried it out (and drawn the scene it would be in).
        try client.send(#"{"command": ["show-text", "HELLO WORLD", 3000], "request_id": 1}"# + "\n")
        XCTAssertEqual(client.reply()?["error"] as? String, "success")
        // Half a second of the player's time later, nothing was drawn.
        let ticks = session.output.publishedTimes.count
        XCTAssertTrue(session.output.waitUntil { _ in session.output.publishedTimes.count >= ticks + 5 })
        XCTAssertEqual(try session.whitePixels(), 0)
        XCTAssertTrue(try session.showsThePicture())
    }

    func testBadOSDFlagsAreUsageErrors() throws {
        for arguments in [["--osd-level", "4"], ["--osd-level", "-1"], ["--osd-duration", "-5"], ["--osd-duration", "99999999"],
                          ["--osd-level", "x"]] {
            let result = try LoopplayTool.run(["--headless", "--frames", "1", "swipe"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    /// Opacity 1 for its duration, then eight fading steps, then gone; redrawn only at those changes.
    func testAMessageHoldsThenFadesInSteps() {
        let message = OnScreenMessage("x", shownAt: 10, duration: 1)
        XCTAssertEqual(message.opacity(at: 10), 1)
        XCTAssertEqual(message.opacity(at: 10.99), 1)
        XCTAssertEqual(message.nextChange(after: 10.5), 11)
        let fading = stride(from: 11.0, to: 11.25, by: 0.25 / 8).compactMap { message.opacity(at: $0 + 0.001) }
        XCTAssertEqual(fading.count, 8)
        XCTAssertEqual(fading, fading.sorted(by: >), "fades out")
        XCTAssertLessThan(fading.last ?? 1, 0.2)
        XCTAssertNil(message.opacity(at: 11.25))
        XCTAssertNil(message.nextChange(after: 11.25))
        XCTAssertEqual(message.nextChange(after: 11.001) ?? 0, 11 + 0.25 / 8, accuracy: 1e-9)
        XCTAssertEqual(OnScreenMessage("x", shownAt: 0, duration: .infinity).duration, 1, "not finite: the default")
        XCTAssertEqual(OnScreenMessage("x", shownAt: 0, duration: 1e12).duration, OnScreenMessage.longestDuration)
        // The next change is always later than now, and a message is gone exactly when nothing is due:
        // at any time, on the fade's step edges too (where two formulas once disagreed).
        for shownAt in stride(from: 0.0, to: 3, by: 0.1) {
            let message = OnScreenMessage("x", shownAt: shownAt, duration: 1)
            for now in stride(from: shownAt, to: message.endsAt + 0.1, by: 0.25 / 8 / 4) {
                let next = message.nextChange(after: now)
                if let next { XCTAssertGreaterThan(next, now, "\(shownAt) \(now)") }
                XCTAssertEqual(next == nil, message.opacity(at: now) == nil, "\(shownAt) \(now)")
            }
        }
        XCTAssertGreaterThan(OnScreenMessage("x", shownAt: 0.8, duration: 1).nextChange(after: 2.01875) ?? 0, 2.01875)
        let faint = OnScreenMessage("x", shownAt: 1.3, duration: 1)
        XCTAssertEqual(faint.opacity(at: 2.55) == nil, faint.nextChange(after: 2.55) == nil)
    }

    func testSeekMessagesSayWhereAsMpvDoes() {
        XCTAssertEqual(OnScreenMessages.describePosition(65, duration: 240), "00:01:05 / 00:04:00 (27 %)")
        XCTAssertEqual(OnScreenMessages.describePosition(3725, duration: nil), "01:02:05")
        XCTAssertEqual(OnScreenMessages.describePosition(.nan, duration: 10), "00:00:00 / 00:00:10 (0 %)")
        // A length a damaged file announces does not overflow the conversion.
        XCTAssertEqual(OnScreenMessages.describePosition(5, duration: 1e300), "00:00:05 / 99999:59:59 (0 %)")
    }
}
