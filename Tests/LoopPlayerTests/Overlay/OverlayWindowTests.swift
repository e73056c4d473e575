import CSDL
import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// Overlays and error text in real windows (Xvfb), read back from the screen.
final class OverlayWindowTests: XCTestCase {
    private func black(_ size: String = "320x180") throws -> String {
        try TestMedia.clip("black-\(size)-2s.mp4", ["-f", "lavfi", "-i", "color=c=black:s=\(size):r=30:d=2",
                                                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
    }

    /// A red 16:9 rectangle: fitted into the picture's rectangle it covers the picture exactly.
    private func redSVG() throws -> String {
        let path = TestMedia.directory.appendingPathComponent("red-16x9.svg").path
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="160" height="90" viewBox="0 0 16 9">
            <rect width="16" height="9" fill="#ff0000"/></svg>
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func color(_ pixels: [UInt8], width: Int, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    private func isRed(_ c: (Int, Int, Int)) -> Bool { c.0 > 200 && c.1 < 60 && c.2 < 60 }
    private func isBlack(_ c: (Int, Int, Int)) -> Bool { c.0 < 40 && c.1 < 40 && c.2 < 40 }

    /// `--overlay logo.svg` is drawn fitted into the picture, letterboxed in a square window, and
    /// follows the picture when the window is resized.
    func testSVGOverlayIsDrawnOnThePictureAndFollowsAResize() throws {
        let display = try VirtualDisplay()
        let title = "lptest-svg-overlay"
        let player = try LoopplayTool.start(["--loop", "--title", title, "--window-size", "320x320",
                                             "--overlay", try redSVG(), try black()],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        // Until the picture and its overlay are drawn (the window appears before them).
        var pixels: [UInt8] = []
        _ = try waitFor {
            pixels = try display.capture(x: window.x, y: window.y, width: 320, height: 320)
            return isRed(color(pixels, width: 320, 160, 160)) && isRed(color(pixels, width: 320, 5, 75))
                && isBlack(color(pixels, width: 320, 160, 40))
        }
        XCTAssertTrue(isRed(color(pixels, width: 320, 160, 160)), "\(color(pixels, width: 320, 160, 160)): on the picture")
        XCTAssertTrue(isRed(color(pixels, width: 320, 5, 75)), "the picture's top-left corner (y 70)")
        XCTAssertTrue(isBlack(color(pixels, width: 320, 160, 40)), "\(color(pixels, width: 320, 160, 40)): the bar above")

        // Wider than the picture: now pillarboxed (568x320 at x 36).
        let id = try TestMedia.run("xdotool", ["search", "--name", "^\(title)$"], environment: ["DISPLAY": display.name])
            .output.split(separator: "\n").first.map(String.init) ?? ""
        try TestMedia.run("xdotool", ["windowsize", id, "640", "320"], environment: ["DISPLAY": display.name])
        // Until the picture is laid out again for the new size.
        _ = try waitFor {
            pixels = try display.capture(x: window.x, y: window.y, width: 640, height: 320)
            return isRed(color(pixels, width: 640, 40, 160)) && isBlack(color(pixels, width: 640, 15, 160))
                && isRed(color(pixels, width: 640, 600, 300))
        }
        XCTAssertTrue(isRed(color(pixels, width: 640, 40, 160)), "\(color(pixels, width: 640, 40, 160)): the picture's left edge")
        XCTAssertTrue(isBlack(color(pixels, width: 640, 15, 160)), "\(color(pixels, width: 640, 15, 160)): the bar on the left")
        XCTAssertTrue(isRed(color(pixels, width: 640, 600, 300)), "and its right part")
    }

    /// A missing source in a window with `--keep-open`: its error in the player area, in the error
    /// colour, until the window is closed; then loopplay exits with the media error's code.
    func testMissingSourceShowsItsErrorInTheWindow() throws {
        let display = try VirtualDisplay()
        let title = "lptest-error-text"
        let player = try LoopplayTool.start(["--keep-open", "--title", title, "--window-size", "480x270",
                                             "--error-color", "#00FF00", "--error-font-size", "20", "/nonexistent/clip.mp4"],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { if player.process.isRunning { player.process.terminate() }; player.process.waitUntilExit() }
        let window = try XCTUnwrap(try display.window(titled: title), "the window opens for a source that fails")
        func greenPixels() throws -> (all: Int, inTheMiddle: Int) {
            let pixels = try display.capture(x: window.x, y: window.y, width: 480, height: 270)
            var green = 0, greenInTheMiddle = 0
            for y in 0..<270 {
                for x in 0..<480 {
                    let c = color(pixels, width: 480, x, y)
                    guard c.1 > 200 && c.0 < 100 && c.2 < 100 else { continue }
                    green += 1
                    if (90...180).contains(y) { greenInTheMiddle += 1 }
                }
            }
            return (green, greenInTheMiddle)
        }
        // Until the error text is drawn (the window appears before it).
        var green = 0, greenInTheMiddle = 0
        _ = try waitFor {
            let found = try greenPixels()
            green = found.all
            greenInTheMiddle = found.inTheMiddle
            return green > 200
        }
        XCTAssertGreaterThan(green, 200, "error text in the error colour")
        XCTAssertEqual(greenInTheMiddle, green, "centred vertically")
        XCTAssertTrue(player.process.isRunning, "--keep-open keeps the failed source's window")
        try display.press(["q"], window: title)
        player.process.waitUntilExit()
        XCTAssertEqual(player.process.terminationStatus, 65)
        let stderr = String(decoding: player.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(stderr.contains("source not found"), stderr)
    }

    /// In this process: a window opened for a source that fails shows its error; a good source then
    /// plays in the same window (same id) and the error is gone.
    func testTheWindowOutlivesAFailedSourceAndClearsItsError() throws {
        let display = try SharedDisplay.display
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        let good = try black()
        let player = ExtVideoPlayer {
            VideoSettings { SourceName("/nonexistent/first.mp4"); Loop(); ErrorGroup { EColor(.green); EFontSize(24) } }
        }
        let title = "lptest-outlives"
        let observations = Mutex<[(window: String, green: Int)]>([])
        let observer = Thread {
            // The window's id and how much green it shows, once `shows` says it shows what is awaited
            // (or as it is when that never came).
            func look(until shows: (Int) -> Bool) {
                var seen: (window: String, green: Int)?
                _ = waitFor {
                    guard let window = try? display.window(titled: title, timeout: 5),
                          let id = try? TestMedia.run("xdotool", ["search", "--name", "^\(title)$"], environment: ["DISPLAY": display.name])
                            .output.split(separator: "\n").first.map(String.init),
                          let pixels = try? display.capture(x: window.x, y: window.y, width: window.width, height: window.height)
                    else { return false }
                    let green = stride(from: 0, to: pixels.count - 2, by: 3).filter { pixels[$0 + 1] > 150 && pixels[$0] < 120 }.count
                    seen = (id, green)
                    return shows(green)
                }
                if let seen { observations.withLock { $0.append(seen) } }
            }
            look { $0 > 100 }  // the failed source's error
            var settings = player.settings
            settings.sourceName = good
            player.settings = settings
            // The good source playing: it plays, its frames are counted, and the error is gone.
            _ = waitFor { player.state == .playing && player.statistics.framesPresented > 10 }
            look { $0 == 0 }
            player.stop()
        }
        observer.start()
        player.run(window: WindowOptions(title: title, size: (480, 270)))
        let seen = observations.withLock { $0 }
        XCTAssertEqual(seen.count, 2, "\(seen)")
        guard seen.count == 2 else { return }
        XCTAssertGreaterThan(seen[0].green, 100, "the error text")
        XCTAssertEqual(seen[1].green, 0, "cleared by a source that plays")
        XCTAssertEqual(seen[0].window, seen[1].window, "the same window")
        XCTAssertGreaterThan(player.statistics.framesPresented, 10)
    }

    /// A white square crossing the window, 400 px a second, forever.
    private struct MovingSquare: ShapeLayerBuilderProtocol {
        let id = UUID()
        func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
            var square = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 110, width: 40, height: 40)), fillColor: .white)
            square.animations = [LayerAnimation(.translation(from: .zero, to: CGPoint(x: 400, y: 0)), duration: 1,
                                                repeatCount: .infinity)]
            return square
        }
    }

    /// Over a still picture (held by NotAutoPlay) an animated layer is redrawn alone: on both window
    /// paths it moves and leaves no trail of its earlier places.
    func testAnimatedLayerOverAStillPictureMovesWithoutATrail() throws {
        let display = try SharedDisplay.display
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        let source = try black("480x270")
        for output in [VideoOutputKind.surface, .texture] {
            let player = ExtVideoPlayer {
                VideoSettings { SourceName(source); Loop(); NotAutoPlay(); VectorLayers { MovingSquare() } }
            }
            let title = "lptest-trail-\(output.rawValue)"
            let squares = Mutex<[(count: Int, left: Int)]>([])
            let observer = Thread {
                defer { player.stop() }
                guard let window = try? display.window(titled: title, timeout: 5) else { return }
                func square() -> (count: Int, left: Int)? {
                    guard let pixels = try? display.capture(x: window.x, y: window.y, width: window.width,
                                                            height: window.height) else { return nil }
                    let white = stride(from: 0, to: pixels.count - 2, by: 3).filter {
                        pixels[$0] > 200 && pixels[$0 + 1] > 200 && pixels[$0 + 2] > 200
                    }
                    return (white.count, white.map { $0 / 3 % window.width }.min() ?? -1)
                }
                // Three places of the square: each sample is taken once it is drawn somewhere it
                // was not sampled yet (it moves; what it leaves behind is counted in its white).
                for _ in 0..<3 {
                    var sample: (count: Int, left: Int)?
                    _ = waitFor {
                        sample = square()
                        guard let found = sample, found.count > 0 else { return false }
                        return !squares.withLock { $0.contains { $0.left == found.left } }
                    }
                    guard let taken = sample else { return }
                    squares.withLock { $0.append(taken) }
                }
            }
            observer.start()
            player.run(window: WindowOptions(title: title, size: (480, 270), output: output))
            let seen = squares.withLock { $0 }
            XCTAssertEqual(seen.count, 3, "\(output): \(seen)")
            for sample in seen {
                XCTAssertEqual(Double(sample.count), 1600, accuracy: 400, "\(output): one 40x40 square, no trail: \(seen)")
            }
            XCTAssertEqual(Set(seen.map(\.left)).count, 3, "\(output): it moves: \(seen)")
        }
    }
}
