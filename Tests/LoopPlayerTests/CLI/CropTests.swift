import Foundation
import XCTest

/// `--crop WxH+X+Y` (a wall's panel, one process per panel): the crop is refused, never moved,
/// shrunk or stretched, for a picture it does not fit — the picture black, a `cropOutsidePicture`
/// error event, its text on screen and its line on stderr — and stays wanted, so it applies again
/// to the next picture it fits (a file replaced by a smaller picture, and back).
final class CropTests: XCTestCase {
    /// A bound against a hang only, never a speed bound: every wait below ends on what it waits for.
    private let hangGuard = 120.0

    private var folder: URL!

    override func setUpWithError() throws {
        try require(TestMedia.hasEncoder("libx264"), "ffmpeg with libx264")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("crop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// 640x360 in four quarters: red, green (top), blue, white (bottom); 2 s.
    private func quarters() throws -> String {
        try TestMedia.clip("crop-quarters-640x360.mp4", [
            "-f", "lavfi", "-i", "color=red:s=320x180:r=30:d=2", "-f", "lavfi", "-i", "color=lime:s=320x180:r=30:d=2",
            "-f", "lavfi", "-i", "color=blue:s=320x180:r=30:d=2", "-f", "lavfi", "-i", "color=white:s=320x180:r=30:d=2",
            "-filter_complex", "[0][1]hstack[top];[2][3]hstack[bottom];[top][bottom]vstack",
        ] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
    }

    /// A smaller picture, 160x120 yellow; 2 s.
    private func smallYellow() throws -> String {
        try TestMedia.clip("crop-yellow-160x120.mp4", ["-f", "lavfi", "-i", "color=yellow:s=160x120:r=30:d=2"]
            + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
    }

    /// How many pixels of each kind: the quarters' colours, yellow, dark, and the error text's red.
    private struct Colours: CustomStringConvertible {
        var white = 0, red = 0, green = 0, blue = 0, yellow = 0, dark = 0, total = 0

        init(_ pixels: [UInt8]) {
            for i in stride(from: 0, to: pixels.count - 2, by: 3) {
                let (r, g, b) = (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
                total += 1
                if r > 200 && g > 200 && b > 200 { white += 1 }
                else if r > 200 && g > 200 && b < 80 { yellow += 1 }
                else if r > 150 && g < 80 && b < 80 { red += 1 }
                else if r < 80 && g > 150 && b < 80 { green += 1 }
                else if r < 80 && g < 80 && b > 150 { blue += 1 }
                else if r < 40 && g < 40 && b < 40 { dark += 1 }
            }
        }

        func share(_ count: Int) -> Double { total > 0 ? Double(count) / Double(total) : 0 }

        var description: String {
            "white \(white), red \(red), green \(green), blue \(blue), yellow \(yellow), dark \(dark) of \(total)"
        }
    }

    /// Item 8 of issue 35: the playing file replaced by a smaller picture used to lose the crop for
    /// good (the whole picture and "invalid filter 'crop=…'", and the whole picture again once the
    /// original came back). Now the smaller picture is refused — black with the error's text, a
    /// `cropOutsidePicture` event — and the original back is cropped again, in the same process.
    func testCropComesBackAfterTheFileWasReplacedBySmallerPicture() throws {
        let live = folder.appendingPathComponent("a.mp4")
        try FileManager.default.copyItem(atPath: try quarters(), toPath: live.path)
        let display = try VirtualDisplay()
        let title = "lptest-crop-replaced"
        let player = try LoopplayTool.start(["--source", live.path, "--loop", "--crop", "320x180+320+180", "--events",
                                             "--title", title],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let events = PipeText(player.stdout)
        _ = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        var seen = Colours([])
        /// What the window shows now, at its size now (it takes each picture's shape).
        func look() throws -> Colours {
            guard let now = try display.window(titled: title, timeout: hangGuard) else { return Colours([]) }
            return Colours(try display.capture(x: now.x, y: now.y, width: now.width, height: now.height))
        }

        // The bottom-right quarter alone: white.
        XCTAssertTrue(try waitFor(timeout: hangGuard) { seen = try look(); return seen.share(seen.white) > 0.95 }, "the crop: \(seen)")

        // Renamed onto by a 160x120 picture the crop does not fit.
        let staged = folder.appendingPathComponent(".a.mp4.new")
        try FileManager.default.copyItem(atPath: try smallYellow(), toPath: staged.path)
        XCTAssertEqual(rename(staged.path, live.path), 0)
        XCTAssertTrue(events.waitUntil(timeout: hangGuard) { $0.contains("cropOutsidePicture") || $0.contains("invalidFilter") },
                      events.text)
        XCTAssertTrue(events.text.contains("\"kind\":\"cropOutsidePicture\""), events.text)
        XCTAssertFalse(events.text.contains("invalidFilter"), events.text)
        XCTAssertTrue(events.text.contains("the crop 320x180+320+180 is outside the 160x120 picture"), events.text)
        // Refused: black with the error's text (red, outlined in white) over it, never the whole
        // small picture.
        XCTAssertTrue(try waitFor(timeout: hangGuard) { seen = try look(); return seen.red > 0 }, "the refusal on screen: \(seen)")
        XCTAssertEqual(seen.yellow, 0, "nothing of the whole picture: \(seen)")
        XCTAssertGreaterThan(seen.share(seen.dark), 0.3, "black: \(seen)")
        XCTAssertLessThan(seen.share(seen.white), 0.5, "not the crop of the old content: \(seen)")

        // The original back: cropped again, the text gone (not only after a restart).
        let original = folder.appendingPathComponent(".a.mp4.old")
        try FileManager.default.copyItem(atPath: try quarters(), toPath: original.path)
        XCTAssertEqual(rename(original.path, live.path), 0)
        XCTAssertTrue(try waitFor(timeout: hangGuard) { seen = try look(); return seen.share(seen.dark) < 0.1 },
                      "the original plays again: \(seen)")
        XCTAssertGreaterThan(seen.share(seen.white), 0.95, "the crop again, not the whole picture: \(seen)")
        XCTAssertEqual(seen.red + seen.green + seen.blue, 0, "nothing else, and the text gone: \(seen)")
        XCTAssertTrue(player.process.isRunning, "it played on")
    }

    /// Item 9 of issue 35: a crop outside the picture — larger than it (`400x400+0+0` on 320x180,
    /// once a run-time error and exit 0 with the whole picture in the snapshot) or running over its
    /// edge (`320x180+400+0` on 640x360, once cut to 240 px and stretched) — is refused: with
    /// `--snapshot`, exit 65, one line on stderr, and no snapshot written. A crop inside it is in
    /// the snapshot exactly.
    func testCropOutsideThePictureIsRefusedWithASnapshot() throws {
        let small = try TestMedia.loopClip()  // 320x180
        for (source, crop, picture) in [(small, "400x400+0+0", "320x180"), (try quarters(), "320x180+400+0", "640x360")] {
            let output = folder.appendingPathComponent("refused-\(crop).png").path
            let result = try LoopplayTool.run(["--source", source, "--headless", "--crop", crop, "--snapshot", output],
                                              timeout: hangGuard)
            XCTAssertEqual(result.status, 65, "\(crop): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, result.stderr)
            XCTAssertTrue(lines.first?.contains("the crop \(crop) is outside the \(picture) picture: refused") ?? false, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no snapshot of a refused crop (\(crop))")
        }

        // Inside the picture: the bottom-right quarter, all white, fitted into the picture's shape.
        let output = folder.appendingPathComponent("cropped.png").path
        let result = try LoopplayTool.run(["--source", try quarters(), "--headless", "--crop", "320x180+320+180", "--snapshot", output],
                                          timeout: hangGuard)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let image = try TestMedia.rgbPixels(of: output)
        for (x, y) in [(2, 2), (image.width - 3, 2), (image.width / 2, image.height / 2), (2, image.height - 3),
                       (image.width - 3, image.height - 3)] {
            XCTAssertTrue(image.pixel(x, y).allSatisfy { $0 > 200 }, "white at (\(x), \(y)): \(image.pixel(x, y))")
        }
    }
}
