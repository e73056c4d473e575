import Foundation
import XCTest

/// `loopplay --video-rotate`: in a real SDL window and a wall's panels on a private Xvfb display
/// (the screen's pixels read back), in a snapshot file, and refused when it is no quarter turn.
final class VideoRotateWindowTests: XCTestCase {
    private typealias Window = (x: Int, y: Int, width: Int, height: Int)

    /// Which quadrant colour shows at each corner of the screen's `window`.
    private func corners(of window: Window, on display: VirtualDisplay) throws -> [Int?] {
        let pixels = try display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
        guard pixels.count == window.width * window.height * 3 else { return [] }
        return VideoRotationTests.corners(width: window.width, height: window.height) { x, y in
            let i = (y * window.width + x) * 3
            return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
        }
    }

    /// The window takes the turned picture's shape, and shows the picture turned, through each way of
    /// drawing: the window surface's (swscale: the renderer takes over to turn it) and the renderer's.
    func testTheWindowShowsThePictureTurned() throws {
        let display = try VirtualDisplay()
        // The last: a stream turned 270° by its display matrix, turned 180° more by the screen.
        for (degrees, output, streamTurn) in [(90, "surface", 0), (90, "texture", 0), (180, "automatic", 0), (270, "automatic", 0),
                                              (180, "surface", 270)] {
            let title = "lptest-rotate-\(degrees)-\(output)-\(streamTurn)"
            let clip = streamTurn == 0 ? try VideoRotationTests.quadrants() : try VideoRotationTests.quadrantsTurnedByTheStream()
            let player = try LoopplayTool.start(["--source", clip, "--loop", "--video-rotate", "\(degrees)",
                                                 "--video-output", output, "--title", title],
                                                environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
            defer { stop(player.process) }
            var window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
            let total = (degrees + streamTurn) % 360
            let size = total % 180 == 0 ? (320, 180) : (180, 320)
            let expected = VideoRotationTests.expectedCorners(turnedBy: total)
            var seen: [Int?] = []
            let shown = try waitFor(timeout: 10) {
                window = try display.window(titled: title) ?? window
                guard window.width == size.0, window.height == size.1 else { return false }
                seen = try corners(of: window, on: display)
                return seen == expected
            }
            XCTAssertTrue(shown, "\(degrees)° \(output): window \(window), corners \(seen), expected \(expected)")
        }
    }

    /// A panel's part is of the turned picture: the top-left quarter of a picture turned 90° is its
    /// bottom-left corner's colour (blue); the bottom-right quarter its top-right one's (lime).
    func testAPanelShowsItsPartOfTheTurnedPicture() throws {
        let display = try VirtualDisplay()
        let player = try LoopplayTool.start(["--source", try VideoRotationTests.quadrants(), "--loop", "--video-rotate", "90",
                                             "--title", "lptest-rotate-wall",
                                             "--panel", "90x160+0+0@+0+0", "--panel", "90x160+90+160@+200+0"],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let first = try display.window(titled: "lptest-rotate-wall (panel 1)", shownBy: player.process, stderr: player.stderr)
        let second = try display.window(titled: "lptest-rotate-wall (panel 2)", shownBy: player.process, stderr: player.stderr)
        var seen: ([Int?], [Int?]) = ([], [])
        let shown = try waitFor(timeout: 10) {
            seen = (try corners(of: first, on: display), try corners(of: second, on: display))
            return seen.0 == [3, 3, 3, 3] && seen.1 == [1, 1, 1, 1]
        }
        XCTAssertTrue(shown, "panel 1 all blue, panel 2 all lime: \(seen)")
    }

    /// `--snapshot` writes what the screen shows: the picture turned, at the turned shape.
    func testASnapshotFileIsTurned() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rotate-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try LoopplayTool.run(["--headless", "--frames", "1", "--video-rotate", "270", "--snapshot", output,
                                           try VideoRotationTests.quadrants()])
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try TestMedia.rgbPixels(of: output)
        XCTAssertEqual(image.width, 180)
        XCTAssertEqual(image.height, 320)
        let corners = VideoRotationTests.corners(width: image.width, height: image.height) { x, y in
            let p = image.pixel(x, y)
            return (p[0], p[1], p[2])
        }
        XCTAssertEqual(corners, VideoRotationTests.expectedCorners(turnedBy: 270))
    }

    /// Anything but 0, 90, 180 or 270 is a usage error: one line naming the flag, exit 64, as every
    /// bad flag; the config file's `video-rotate=45` is refused the same way (it is the flag).
    func testOnlyQuarterTurnsAreAccepted() throws {
        for value in ["45", "-90", "360", "ninety"] {
            let result = try LoopplayTool.run(["--headless", "--frames", "1", "--video-rotate", value, "swipe"])
            XCTAssertEqual(result.status, 64, "\(value): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("loopplay: "), "\(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--video-rotate"), "\(value): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", value)
        }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("rotate-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "video-rotate=45\n".write(toFile: config, atomically: true, encoding: .utf8)
        let refused = try LoopplayTool.run(["--headless", "--frames", "1", "--config", config, "swipe"])
        XCTAssertNotEqual(refused.status, 0, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("video-rotate"), refused.stderr)
        try "video-rotate=90\n".write(toFile: config, atomically: true, encoding: .utf8)
        let taken = try LoopplayTool.run(["--headless", "--frames", "1", "--config", config, "swipe"])
        XCTAssertEqual(taken.status, 0, taken.stderr)
    }
}
