import Foundation
import XCTest

/// A real SDL window on a private Xvfb display, checked by reading the screen's pixels.
final class WindowTests: XCTestCase {
    private func assertColor(_ pixels: [UInt8], width: Int, x: Int, y: Int, is expected: (Int, Int, Int),
                             _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let i = (y * width + x) * 3
        let actual = (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
        let close = abs(actual.0 - expected.0) < 40 && abs(actual.1 - expected.1) < 40 && abs(actual.2 - expected.2) < 40
        XCTAssertTrue(close, "\(message): \(actual) at (\(x), \(y)), expected \(expected)", file: file, line: line)
    }

    /// Plays to the end in a 320x320 window and reads the held last frame off the screen.
    private func showLastFrame(output: String, gravity: String) throws -> [UInt8] {
        let display = try VirtualDisplay()
        let title = "lptest-\(output)-\(gravity)"
        let player = try LoopplayTool.start(["--source", TestMedia.redThenBlue(), "--keep-open", "--window-size", "320x320",
                                             "--gravity", gravity, "--video-output", output, "--title", title],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        XCTAssertEqual(window.width, 320)
        XCTAssertEqual(window.height, 320)
        usleep(2_800_000)  // two seconds of media, then the held last frame
        XCTAssertTrue(player.process.isRunning, "--keep-open holds the last frame")
        return try display.capture(x: window.x, y: window.y, width: 320, height: 320)
    }

    func testSurfaceOutputLetterboxesTheHeldLastFrame() throws {
        let pixels = try showLastFrame(output: "surface", gravity: "aspect")
        assertColor(pixels, width: 320, x: 160, y: 160, is: (0, 0, 255), "picture")
        assertColor(pixels, width: 320, x: 160, y: 30, is: (0, 0, 0), "top bar")
        assertColor(pixels, width: 320, x: 160, y: 300, is: (0, 0, 0), "bottom bar")
    }

    func testTextureOutputLetterboxesTheHeldLastFrame() throws {
        let pixels = try showLastFrame(output: "texture", gravity: "aspect")
        assertColor(pixels, width: 320, x: 160, y: 160, is: (0, 0, 255), "picture")
        assertColor(pixels, width: 320, x: 160, y: 30, is: (0, 0, 0), "top bar")
    }

    func testFillGravityCoversTheWholeWindow() throws {
        let pixels = try showLastFrame(output: "surface", gravity: "fill")
        assertColor(pixels, width: 320, x: 160, y: 10, is: (0, 0, 255), "top edge")
        assertColor(pixels, width: 320, x: 5, y: 310, is: (0, 0, 255), "bottom-left corner")
    }

    func testScreenShowsTheFirstSecondInRed() throws {
        // Real time: 0.3 s after the window appears the first second (red) is on screen, not blue.
        let display = try VirtualDisplay()
        let player = try LoopplayTool.start(["--source", TestMedia.redThenBlue(), "--title", "lptest-red", "--window-size", "320x180"],
                                            environment: ["DISPLAY": display.name])
        defer { stop(player.process) }
        let window = try display.window(titled: "lptest-red", shownBy: player.process, stderr: player.stderr)
        usleep(300_000)
        let pixels = try display.capture(x: window.x, y: window.y, width: 320, height: 180)
        assertColor(pixels, width: 320, x: 100, y: 90, is: (255, 0, 0), "first second is red")
    }

    func testKeysPauseSnapshotUnloopAndQuit() throws {
        let display = try VirtualDisplay()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stats = directory.appendingPathComponent("stats.json").path
        let title = "lptest-keys"
        let player = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--loop", "--title", title,
                                             "--stats-json", stats],
                                            environment: ["DISPLAY": display.name], directory: directory.path)
        defer { if player.process.isRunning { player.process.terminate() }; player.process.waitUntilExit() }
        let window = try XCTUnwrap(try display.window(titled: title))
        usleep(500_000)

        try display.press(["space"], window: title)  // pause
        let first = try display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
        usleep(400_000)
        let second = try display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
        XCTAssertEqual(first, second, "paused: the picture does not change")

        try display.press(["s"], window: title)  // snapshot into the working directory
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(snapshots.count, 1, "\(snapshots)")

        try display.press(["space"], window: title)  // play on
        usleep(400_000)
        let moving = try display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
        XCTAssertNotEqual(moving, second, "playing again")

        try display.press(["shift+l"], window: title)  // loop off: the pass ends and loopplay exits
        let deadline = Date().addingTimeInterval(8)
        while player.process.isRunning && Date() < deadline { usleep(50_000) }
        XCTAssertFalse(player.process.isRunning, "without looping, loopplay exits at the end of the pass")
        XCTAssertEqual(player.process.terminationStatus, 0)
        let report = try XCTUnwrap(LoopplayTool.json(String(contentsOfFile: stats, encoding: .utf8)))
        XCTAssertEqual(report["loopsCompleted"] as? Int, 0)
        XCTAssertEqual(report["outcome"] as? String, "finished")
    }

    func testQuitKeyEndsPlayback() throws {
        let display = try VirtualDisplay()
        let player = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--loop", "--title", "lptest-quit"],
                                            environment: ["DISPLAY": display.name])
        defer { if player.process.isRunning { player.process.terminate() }; player.process.waitUntilExit() }
        XCTAssertNotNil(try display.window(titled: "lptest-quit"))
        try display.press(["q"], window: "lptest-quit")
        let deadline = Date().addingTimeInterval(5)
        while player.process.isRunning && Date() < deadline { usleep(50_000) }
        XCTAssertFalse(player.process.isRunning)
        XCTAssertEqual(player.process.terminationStatus, 0)
    }

    /// mpv's sound keys in a real window, heard through SDL's `disk` driver: `9` lowers the volume,
    /// `m` mutes and unmutes, `#` switches to the next track (English 440 Hz → German 1 kHz).
    func testSoundKeysVolumeMuteAndNextTrack() throws {
        let display = try VirtualDisplay()
        let sound = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: sound) }
        let title = "lptest-sound"
        let player = try LoopplayTool.start(["--source", AudioTestMedia.twoLanguages(), "--loop", "--title", title,
                                             "--audio-driver", "disk", "--audio-device", sound],
                                            environment: ["DISPLAY": display.name])
        defer { if player.process.isRunning { player.process.terminate() }; player.process.waitUntilExit() }
        XCTAssertNotNil(try display.window(titled: title))
        /// Frames written so far (stereo f32: a mono source opens a stereo device), after letting a key take effect.
        func mark() -> Int {
            usleep(500_000)
            return ((try? FileManager.default.attributesOfItem(atPath: sound)[.size] as? Int) ?? 0) / 8
        }
        let start = mark()
        let loud = mark()
        try display.press(Array(repeating: "9", count: 10), window: title)  // 10 × −2 %
        let quieter = mark()
        let quieterEnd = mark()
        try display.press(["m"], window: title)
        let muted = mark()
        let mutedEnd = mark()
        try display.press(["m", "numbersign"], window: title)
        _ = mark()  // the new track's sound restarts at the picture on screen: give it time on a loaded machine
        let german = mark()
        let germanEnd = mark()
        try display.press(["q"], window: title)
        player.process.waitUntilExit()
        let data = try Data(contentsOf: URL(fileURLWithPath: sound))
        let samples = data.withUnsafeBytes { raw in
            let floats = raw.bindMemory(to: Float.self)
            return stride(from: 0, to: floats.count - 1, by: 2).map { floats[$0] }  // channel 0
        }
        XCTAssertGreaterThan(samples.count, germanEnd)
        XCTAssertEqual(Signal.frequency(samples[start..<loud]), 440, accuracy: 5, "English first")
        XCTAssertEqual(Signal.rms(samples[quieter..<quieterEnd]) / Signal.rms(samples[start..<loud]), 0.8, accuracy: 0.03,
                       "volume 80 %")
        XCTAssertEqual(Signal.peak(samples[muted..<mutedEnd]), 0, "muted")
        XCTAssertEqual(Signal.frequency(samples[german..<germanEnd]), 1000, accuracy: 10, "the next track")
    }

    /// `--pip --pip-size 240x135` opens the mini window beside the main one (with a window manager);
    /// without one, or headless, `--pip` is refused on stderr and playback goes on; a silly size is a
    /// usage error.
    func testPipFlagOpensTheMiniWindow() throws {
        let display = try VirtualDisplay()
        let title = "lptest-cli-pip"
        // A bare display: nothing keeps a window on top; it says so and plays on in the main window.
        let bare = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--title", title, "--window-size", "320x180",
                                         "--duration", "1", "--pip"],
                                        environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        XCTAssertEqual(bare.status, 0, bare.stderr)
        XCTAssertTrue(bare.stderr.contains("picture-in-picture is not available: no window manager"), bare.stderr)
        let windowManager = try WindowManager(display: display.name)
        defer { withExtendedLifetime(windowManager) {} }
        let player = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--loop", "--title", title, "--window-size", "480x270",
                                             "--pip", "--pip-size", "240x135"],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { if player.process.isRunning { player.process.terminate() }; player.process.waitUntilExit() }
        XCTAssertNotNil(try display.window(titled: title))
        let mini = try XCTUnwrap(try display.window(titled: "\(title) (picture in picture)"), "the mini window")
        XCTAssertEqual(mini.width, 240)
        XCTAssertEqual(mini.height, 135)

        let headless = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--duration", "1", "--pip"])
        XCTAssertEqual(headless.status, 0, headless.stderr)
        XCTAssertTrue(headless.stderr.contains("picture-in-picture is not available: the player has no window"), headless.stderr)
        let silly = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--pip-size", "8x8"])
        XCTAssertEqual(silly.status, 64, silly.stderr)
    }
}
