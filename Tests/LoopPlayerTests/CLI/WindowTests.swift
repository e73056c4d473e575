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
                                             "--gravity", gravity, "--video-output", output, "--title", title, "--events"],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let events = PipeText(player.stdout)
        let window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        XCTAssertEqual(window.width, 320)
        XCTAssertEqual(window.height, 320)
        // Two seconds of media, then the held last frame: the `ended` event says it is there.
        XCTAssertTrue(events.waitUntil(timeout: 30) { $0.contains("\"type\":\"ended\"") }, "the media ends: \(events.text)")
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

    /// `--geometry WxH+X+Y` (mpv's) puts the window there at that size; `--no-border` takes its frame
    /// away (a wall's panels); `+X+Y` alone places a window that takes the picture's size. A
    /// `--screen` that is not there (Xvfb has one) is said, and the first display is used.
    func testGeometryPlacesAndSizesTheWindow() throws {
        let display = try VirtualDisplay()
        for (geometry, screen, expected) in [("320x180+100+60", "0", (x: 100, y: 60, width: 320, height: 180)),
                                             ("+40+30", "3", (x: 40, y: 30, width: 320, height: 180))] {  // the picture's size
            let title = "lptest-geometry-\(expected.x)"
            let player = try LoopplayTool.start(["--source", TestMedia.redThenBlue(), "--loop", "--geometry", geometry,
                                                 "--screen", screen, "--no-border", "--title", title],
                                                environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
            defer { stop(player.process) }
            var window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
            // Without a size, the window takes the picture's once the source opened.
            _ = try waitFor(timeout: 10) {
                window = try display.window(titled: title) ?? window
                return window.width == expected.width && window.height == expected.height
            }
            XCTAssertEqual(window.x, expected.x, geometry)
            XCTAssertEqual(window.y, expected.y, geometry)
            XCTAssertEqual(window.width, expected.width, geometry)
            XCTAssertEqual(window.height, expected.height, geometry)
            let warned = PipeText(player.stderr).waitUntil(timeout: screen == "0" ? 0 : 10) {
                $0.contains("screen 3 was asked for, but there is 1 display (0…0): the window opens on screen 0")
            }
            XCTAssertEqual(warned, screen != "0", "screen \(screen)")
        }
    }

    /// `--crop WxH+X+Y` shows that part of the picture alone: of a clip red on the left and blue on
    /// the right, the right half is all blue, in a window of its size.
    func testCropShowsThePartOfThePicture() throws {
        let halves = try TestMedia.clip("red-blue-halves-320x180.mp4", [
            "-f", "lavfi", "-i", "color=red:s=160x180:r=30:d=2", "-f", "lavfi", "-i", "color=blue:s=160x180:r=30:d=2",
            "-filter_complex", "[0][1]hstack",
        ] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
        let display = try VirtualDisplay()
        let player = try LoopplayTool.start(["--source", halves, "--loop", "--crop", "160x180+160+0", "--title", "lptest-crop"],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let window = try display.window(titled: "lptest-crop", shownBy: player.process, stderr: player.stderr)
        // The window keeps the video's shape (320x180); the 160x180 crop is fitted into it.
        var pixels: [UInt8] = []
        let shown = try waitFor(timeout: 10) {
            guard let now = try display.window(titled: "lptest-crop"), now.width == 320, now.height == 180 else { return false }
            pixels = try display.capture(x: now.x, y: now.y, width: 320, height: 180)
            let center = (90 * 320 + 160) * 3
            return pixels.count == 320 * 180 * 3 && pixels[center] < 60 && pixels[center + 2] > 200
        }
        XCTAssertTrue(shown, "the blue half in the middle (window \(window))")
        guard shown else { return }
        assertColor(pixels, width: 320, x: 160, y: 90, is: (0, 0, 255), "the crop")
        let red = stride(from: 0, to: pixels.count, by: 3).filter { pixels[$0] > 150 && pixels[$0 + 2] < 100 }.count
        XCTAssertEqual(red, 0, "nothing of the red half")
    }

    /// `--panel PART@PLACE`: one decoder feeds a wall's panels, each a borderless window showing its
    /// part of the picture; of the red/blue clip, the left panel is all red at its place, the right
    /// one all blue at twice the size, and the player's own window is not shown.
    func testPanelsShowTheirPartsOfOnePicture() throws {
        let halves = try TestMedia.clip("red-blue-halves-320x180.mp4", [
            "-f", "lavfi", "-i", "color=red:s=160x180:r=30:d=2", "-f", "lavfi", "-i", "color=blue:s=160x180:r=30:d=2",
            "-filter_complex", "[0][1]hstack",
        ] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
        let display = try VirtualDisplay()
        let player = try LoopplayTool.start(["--source", halves, "--loop", "--title", "lptest-wall",
                                             "--panel", "160x180+0+0@+0+0", "--panel", "160x180+160+0@320x360+200+0"],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let left = try display.window(titled: "lptest-wall (panel 1)", shownBy: player.process, stderr: player.stderr)
        let right = try display.window(titled: "lptest-wall (panel 2)", shownBy: player.process, stderr: player.stderr)
        XCTAssertTrue(left.x == 0 && left.y == 0 && left.width == 160 && left.height == 180, "\(left)")
        XCTAssertTrue(right.x == 200 && right.y == 0 && right.width == 320 && right.height == 360, "\(right)")
        func colours(_ window: (x: Int, y: Int, width: Int, height: Int)) throws -> (red: Int, blue: Int, total: Int) {
            let pixels = try display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
            let red = stride(from: 0, to: pixels.count, by: 3).filter { pixels[$0] > 200 && pixels[$0 + 2] < 60 }.count
            let blue = stride(from: 0, to: pixels.count, by: 3).filter { pixels[$0] < 60 && pixels[$0 + 2] > 200 }.count
            return (red, blue, pixels.count / 3)
        }
        var seen = (left: (red: 0, blue: 0, total: 1), right: (red: 0, blue: 0, total: 1))
        let shown = try waitFor(timeout: 10) {
            seen = (try colours(left), try colours(right))
            // Scaled up, the column at the parts' border blends the two (the picture is one texture).
            return seen.left.red == seen.left.total && seen.right.blue >= seen.right.total - right.height
        }
        XCTAssertTrue(shown, "left all red, right all blue: \(seen)")
        XCTAssertEqual(seen.left.blue, 0)
        XCTAssertEqual(seen.right.red, 0)
        XCTAssertNil(try display.window(titled: "lptest-wall", timeout: 0), "the player's own window stays hidden")
    }

    /// A panel converts only its piece of the picture (a wall of four costs one picture's
    /// conversion): a part at an odd place across the four grey quadrants of a picture shows each
    /// quadrant exactly where it belongs, 1:1, to the pixel at the edges — through swscale into the
    /// panel's surface and through the renderer's texture alike.
    func testAPanelsPieceIsThePictureAtItsPlace() throws {
        let quadrants = try TestMedia.clip("grey-quadrants-320x180.mp4", [
            "-f", "lavfi", "-i", "color=black:s=160x90:r=30:d=2", "-f", "lavfi", "-i", "color=white:s=160x90:r=30:d=2",
            "-f", "lavfi", "-i", "color=0x404040:s=160x90:r=30:d=2", "-f", "lavfi", "-i", "color=0xC0C0C0:s=160x90:r=30:d=2",
            "-filter_complex", "[0][1]hstack[top];[2][3]hstack[bottom];[top][bottom]vstack",
        ] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
        let display = try VirtualDisplay()
        // Panel pixel (x, y) is the picture's (111 + x, 61 + y): the quadrants meet between columns
        // 48 and 49 and rows 28 and 29 (a piece off by one pixel shows the neighbour's grey there).
        let expected: [(x: Int, y: Int, grey: Int)] = [
            (5, 5, 0), (48, 28, 0), (49, 5, 255), (95, 28, 255), (5, 29, 64), (48, 55, 64), (49, 29, 192), (95, 55, 192),
        ]
        for output in ["automatic", "texture"] {
            let title = "lptest-piece-\(output)"
            let player = try LoopplayTool.start(["--source", quadrants, "--loop", "--title", title, "--video-output", output,
                                                 "--panel", "100x60+111+61@+0+0"],
                                                environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
            defer { stop(player.process) }
            let panel = try display.window(titled: "\(title) (panel 1)", shownBy: player.process, stderr: player.stderr)
            XCTAssertTrue(panel.width == 100 && panel.height == 60, "\(panel)")
            var pixels: [UInt8] = []
            let greys = { expected.map { point -> Int in Int(pixels[(point.y * panel.width + point.x) * 3]) } }
            let shown = try waitFor(timeout: 20) {
                pixels = try display.capture(x: panel.x, y: panel.y, width: panel.width, height: panel.height)
                return zip(greys(), expected).allSatisfy { abs($0 - $1.grey) < 24 }
            }
            XCTAssertTrue(shown, "\(output): each quadrant at its place, to the pixel: \(greys()) for \(expected.map(\.grey))")
            stop(player.process)
        }
    }

    /// `--snapshot` in a window: the window's last picture at its size (it was written after the
    /// window had closed, as a 1x1 picture).
    func testASnapshotInAWindowHasTheWindowsSize() throws {
        let display = try VirtualDisplay()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("window-snapshot-\(UUID().uuidString.prefix(8)).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try LoopplayTool.run(["--source", TestMedia.redThenBlue(), "--snapshot", path, "--snapshot-at", "0.5"],
                                          environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let size = try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path])
        XCTAssertEqual(size.output.trimmingCharacters(in: .whitespacesAndNewlines), "320,180")
    }

    /// A limit far beyond what SDL's event wait can count (`--duration 1e19`, 24.8 days and more)
    /// waits on for events instead of trapping on the conversion (it did, in a window only).
    func testAHugeDurationPlaysInAWindow() throws {
        let display = try VirtualDisplay()
        let player = try LoopplayTool.start(["--source", TestMedia.redThenBlue(), "--duration", "1e19", "--keep-open",
                                             "--title", "lptest-long", "--events"],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let events = PipeText(player.stdout)
        _ = try display.window(titled: "lptest-long", shownBy: player.process, stderr: player.stderr)
        // Two seconds of media, then the last frame held with nothing due but the limit.
        XCTAssertTrue(events.waitUntil(timeout: 30) { $0.contains("\"type\":\"ended\"") }, "the media ends: \(events.text)")
        // With the ended batch out, nothing is due but the limit: the loop waits on it (it trapped here).
        stop(player.process)
        XCTAssertEqual(player.process.terminationReason, .exit, "ended by itself on SIGTERM, not by a trap")
        XCTAssertEqual(player.process.terminationStatus, 0)
    }

    func testScreenShowsTheFirstSecondInRed() throws {
        // Real time: the picture on screen in the first second is the first second's (red), not
        // blue. It is judged only when known to be in the first second: the player is paused as soon
        // as it plays (its first published position), and the position it paused at (published
        // while paused) is the picture's at most. A machine so slow that the pause came after the
        // first second tries again with a new player.
        let display = try VirtualDisplay()
        var judged = false
        for attempt in 0..<3 where !judged {
            let title = "lptest-red-\(attempt)"
            let player = try LoopplayTool.start(["--source", TestMedia.redThenBlue(), "--title", title, "--window-size", "320x180",
                                                 "--events", "--time-publishing", "0.05", "--osd-level", "0"],
                                                environment: ["DISPLAY": display.name])
            defer { stop(player.process) }
            let output = PipeText(player.stdout)
            let window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
            XCTAssertTrue(output.waitUntil(timeout: 30) { _ in !output.publishedTimes.isEmpty }, "it plays: \(output.text)")
            // However slow the machine, playback starts at the start: a player that began in the
            // second second (blue) fails here instead of being left unjudged.
            XCTAssertLessThan(output.publishedTimes.first ?? .infinity, 0.95, "the first position is in the first second")
            try display.press(["space"], window: title)
            // A position written after the paused event is the paused one.
            func pausedAt() -> Double? {
                let text = output.text
                guard let paused = text.range(of: "\"type\":\"paused\"") else { return nil }
                return PipeText.times(in: text[paused.upperBound...]).first
            }
            guard let position = pollFor(timeout: 30, pausedAt) else {
                XCTFail("no position published after the pause: \(output.text)")
                break
            }
            guard position < 0.95 else {
                print("WindowTests: paused at \(position) s, past the first second: not judged")
                continue
            }
            // Until one of the clip's pictures (red or blue) is drawn: the window is there before them.
            var pixels: [UInt8] = []
            let drawn = try waitFor(timeout: 30) {
                pixels = try display.capture(x: window.x, y: window.y, width: 320, height: 180)
                let i = (90 * 320 + 100) * 3
                let (r, g, b) = (pixels[i], pixels[i + 1], pixels[i + 2])
                return g < 60 && ((r > 200 && b < 60) || (b > 200 && r < 60))
            }
            XCTAssertTrue(drawn, "a picture of the clip is drawn")
            judged = true
            assertColor(pixels, width: 320, x: 100, y: 90, is: (255, 0, 0), "first second is red (paused at \(position) s)")
        }
        if !judged { throw XCTSkip("the player was never paused within the first second on this machine: not judged") }
    }

    func testKeysPauseSnapshotUnloopAndQuit() throws {
        let display = try VirtualDisplay()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stats = directory.appendingPathComponent("stats.json").path
        let title = "lptest-keys"
        // --events says when a key paused it; the position published every 0.1 s, paused too, is the
        // player's own clock going on. No messages: the paused picture is compared (OSDTests has them).
        let player = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--loop", "--title", title, "--osd-level", "0",
                                             "--stats-json", stats, "--events", "--time-publishing", "0.1"],
                                            environment: ["DISPLAY": display.name], directory: directory.path)
        defer { if player.process.isRunning { player.process.terminate() }; player.process.waitUntilExit() }
        let output = PipeText(player.stdout)
        let window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        func capture() throws -> [UInt8] { try display.capture(x: window.x, y: window.y, width: window.width, height: window.height) }
        _ = output.waitUntil { $0.contains("\"type\":\"playing\"") }

        try display.press(["space"], window: title)  // pause
        _ = output.waitUntil { $0.contains("\"type\":\"paused\"") }
        let first = try capture()
        // Four tenths of a second of the player's time go by, paused.
        let ticks = output.publishedTimes.count
        _ = output.waitUntil { _ in output.publishedTimes.count >= ticks + 4 }
        let second = try capture()
        XCTAssertEqual(first, second, "paused: the picture does not change")

        try display.press(["s"], window: title)  // snapshot into the working directory
        func snapshots() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }
        }
        _ = try waitFor { try !snapshots().isEmpty }
        let written = try snapshots()
        XCTAssertEqual(written.count, 1, "\(written)")

        try display.press(["space"], window: title)  // play on
        var moving = second
        _ = try waitFor {
            moving = try capture()
            return moving != second
        }
        XCTAssertNotEqual(moving, second, "playing again")

        try display.press(["shift+l"], window: title)  // loop off: the pass ends and loopplay exits
        _ = waitFor(timeout: 8) { !player.process.isRunning }
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
        _ = try display.window(titled: "lptest-quit", shownBy: player.process, stderr: player.stderr)
        try display.press(["q"], window: "lptest-quit")
        _ = waitFor(timeout: 5) { !player.process.isRunning }
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
        _ = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        /// Frames written so far (stereo f32: a mono source opens a stereo device).
        func written() -> Int { ((try? FileManager.default.attributesOfItem(atPath: sound)[.size] as? Int) ?? 0) / 8 }
        /// Frames written once half a second more of sound was (which lets a key take effect).
        func mark() -> Int {
            let from = written()
            _ = waitFor(timeout: 10) { written() >= from + 24_000 }
            return written()
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
        _ = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
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
