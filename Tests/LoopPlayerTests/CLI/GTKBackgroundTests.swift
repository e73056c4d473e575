import Foundation
import XCTest

/// Examples/GTKBackground, a looping video behind a GTK 4 window's widgets, run as a user runs it
/// under Xvfb with GTK's Cairo renderer (no GPU), its pixels read back from the X server.
final class GTKBackgroundTests: XCTestCase {
    /// The widgets are drawn over the video, the video moves behind them, and the GTK button pauses
    /// it (the picture holds) and plays it again (it moves again).
    func testTheVideoMovesBehindTheWidgetsAndTheButtonPausesIt() throws {
        let example = URL(fileURLWithPath: LoopplayTool.path).deletingLastPathComponent().appendingPathComponent("GTKBackground").path
        try require(FileManager.default.isExecutableFile(atPath: example), "the GTKBackground example is not built at \(example)")
        try require(FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "xdotool is not installed")
        let display = try VirtualDisplay()
        let clip = try TestMedia.testPattern("gtk-moving-640x360.mp4", frames: 300, size: "640x360", codec: TestMedia.h264)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: example)
        process.arguments = [clip]
        var environment = ProcessInfo.processInfo.environment
        environment.merge(["DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "GTK_A11Y": "none"]) { $1 }
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        (process.standardOutput, process.standardError) = (stdout, stderr)
        try process.run()
        defer { stop(process) }
        let said = PipeText(stdout)
        let pictures = { said.lines.filter { $0.hasPrefix("picture ") }.count }
        let ticks = { said.lines.filter { $0.hasPrefix("tick ") }.count }
        // Bounds on failure only: each wait ends as soon as what it waits for is seen.
        XCTAssertTrue(said.waitUntil(timeout: 60) { _ in pictures() >= 3 }, "no picture reached GTK: \(said.text.suffix(500))")
        let window = try XCTUnwrap(try display.window(titled: "LoopPlayer in GTK"))
        XCTAssertEqual(window.width, 640)
        XCTAssertEqual(window.height, 360)

        // The video area: right of the panel (16…256 x 16…76) and above the button (the last 136x56).
        let video = (x: 300, y: 100, width: 300, height: 150)
        func grab() throws -> [UInt8] { try display.capture(x: window.x, y: window.y, width: window.width, height: window.height) }
        func pixel(_ image: [UInt8], _ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * window.width + x) * 3
            return (Int(image[i]), Int(image[i + 1]), Int(image[i + 2]))
        }
        func videoArea(_ image: [UInt8]) -> [UInt8] {
            var area: [UInt8] = []
            for y in video.y..<video.y + video.height {
                let start: Int = (y * window.width + video.x) * 3
                area += image[start..<start + video.width * 3]
            }
            return area
        }
        func colours(_ area: [UInt8]) -> Int {
            var seen = Set<Int>()
            for i in stride(from: 0, to: area.count, by: 3) { seen.insert(Int(area[i]) << 16 | Int(area[i + 1]) << 8 | Int(area[i + 2])) }
            return seen.count
        }
        func difference(_ a: [UInt8], _ b: [UInt8]) -> Int { zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } }
        func waitForPictures(beyond count: Int, _ what: String) {
            XCTAssertTrue(said.waitUntil(timeout: 60) { _ in pictures() >= count + 10 }, "\(what): no new pictures: \(said.text.suffix(300))")
        }

        let first = try grab()
        // The panel's own colour (#ff00ff) at its top-left corner, and the button's light face.
        let panel = pixel(first, 20, 20)
        XCTAssertTrue(panel.0 > 200 && panel.1 < 60 && panel.2 > 200, "the panel is not over the video: \(panel)")
        let button = pixel(first, window.width - 16 - 110, window.height - 16 - 6)
        XCTAssertTrue(button.0 > 180 && button.1 > 180 && button.2 > 180, "the button is not over the video: \(button)")
        XCTAssertGreaterThan(colours(videoArea(first)), 50, "the video area holds no picture (too few colours)")
        waitForPictures(beyond: pictures(), "playing")
        let later = try grab()
        XCTAssertGreaterThan(difference(videoArea(first), videoArea(later)), 100_000, "the video did not move behind the widgets")
        XCTAssertEqual(pixel(later, 20, 20).0, panel.0, "the panel stays over the moving video")

        // The GTK button pauses: once paused, 60 frame-clock ticks later the picture is the same.
        try TestMedia.run("xdotool", ["mousemove", "--sync", "\(window.x + window.width - 16 - 60)", "\(window.y + window.height - 16 - 20)",
                                      "click", "1"], environment: ["DISPLAY": display.name])
        XCTAssertTrue(said.waitUntil(timeout: 30) { $0.contains("state paused") }, "the button did not pause: \(said.text.suffix(300))")
        let pausedAt = ticks()
        XCTAssertTrue(said.waitUntil(timeout: 60) { _ in ticks() >= pausedAt + 2 }, "GTK's frame clock stopped")
        let paused = try grab()
        let shownWhilePaused = pictures()
        XCTAssertTrue(said.waitUntil(timeout: 60) { _ in ticks() >= pausedAt + 4 }, "GTK's frame clock stopped")
        XCTAssertEqual(pictures(), shownWhilePaused, "pictures kept coming while paused")
        XCTAssertEqual(videoArea(try grab()), videoArea(paused), "the picture moved while paused")

        // Pressed again, it plays on.
        try TestMedia.run("xdotool", ["click", "1"], environment: ["DISPLAY": display.name])
        XCTAssertTrue(said.waitUntil(timeout: 30) { $0.contains("state playing") && $0.components(separatedBy: "state playing").count > 2 },
                      "the button did not play again: \(said.text.suffix(300))")
        waitForPictures(beyond: shownWhilePaused, "played again")
        XCTAssertGreaterThan(difference(videoArea(paused), videoArea(try grab())), 100_000, "the video did not move again")
    }
}
