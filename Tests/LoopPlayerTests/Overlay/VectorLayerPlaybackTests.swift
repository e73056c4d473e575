import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// Vector layers in playback: built for the real geometry, redrawn when it changes, animated over
/// time, removed, and in snapshots and composed frames exactly as in a window.
final class VectorLayerPlaybackTests: XCTestCase {
    /// A black 320x180 clip: anything not black is an overlay.
    private func black() throws -> String {
        try TestMedia.clip("black-320-2s.mp4", ["-f", "lavfi", "-i", "color=c=black:s=320x180:r=30:d=2",
                                                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
    }

    /// A red square in the picture's top-left corner (so it follows the picture under every gravity).
    private struct CornerSquare: ShapeLayerBuilderProtocol {
        let id = UUID()
        let calls: Calls

        final class Calls: Sendable {
            let geometries = Mutex<[LayerGeometry]>([])
        }

        func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer { ShapeLayer() }

        func build(in geometry: LayerGeometry) -> ShapeLayer {
            calls.geometries.withLock { $0.append(geometry) }
            let origin = geometry.videoRect.origin
            return ShapeLayer(path: VectorPath(rect: CGRect(x: origin.x + 10, y: origin.y + 10, width: 40, height: 40)),
                              fillColor: .red)
        }
    }

    /// A green bar whose width animates from 0 to 200 px over one second, repeating.
    private struct GrowingBar: ShapeLayerBuilderProtocol {
        let id = UUID()
        func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
            var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 100, width: 200, height: 20)), fillColor: .green)
            layer.animations = [LayerAnimation(.scale(from: 0.01, to: 1, about: CGPoint(x: 0, y: 110)), duration: 1,
                                               repeatCount: .infinity)]
            return layer
        }
    }

    private func count(_ image: RGBImage, where test: (Int, Int, Int) -> Bool) -> Int {
        (0..<(image.width * image.height)).filter { pixel in
            test(Int(image.pixels[pixel * 3]), Int(image.pixels[pixel * 3 + 1]), Int(image.pixels[pixel * 3 + 2]))
        }.count
    }

    private func isRed(_ r: Int, _ g: Int, _ b: Int) -> Bool { r > 200 && g < 90 && b < 90 }
    private func isGreen(_ r: Int, _ g: Int, _ b: Int) -> Bool { g > 150 && r < 120 && b < 120 }

    /// Built once the geometry is known (never empty), with the picture's rectangle, and drawn there.
    func testLayersAreBuiltForTheRealGeometryAndDrawnInSnapshots() throws {
        let source = try black()
        let calls = CornerSquare.Calls()
        let player = ExtVideoPlayer { VideoSettings { SourceName(source); VectorLayers { CornerSquare(calls: calls) } } }
        player.runHeadless(timing: .untimed, until: StopCondition(frames: 1))
        let image = try player.snapshot()
        XCTAssertEqual(count(image, where: isRed), 40 * 40, accuracy: 80)
        XCTAssertTrue(isRed(Int(image.pixel(x: 30, y: 30).r), Int(image.pixel(x: 30, y: 30).g), Int(image.pixel(x: 30, y: 30).b)))
        let geometries = calls.geometries.withLock { $0 }
        XCTAssertFalse(geometries.isEmpty)
        XCTAssertFalse(geometries.contains { $0.isEmpty }, "never built with zero geometry")
        XCTAssertEqual(geometries.last?.videoRect, CGRect(x: 0, y: 0, width: 320, height: 180))
    }

    /// Composed frames (`runScenes`) show what a window would: in a 640x640 area the 320x180 picture is
    /// letterboxed, and the square follows the picture's corner; with fill gravity the picture
    /// overflows the area and the square moves with it.
    func testLayerPositionFollowsThePictureUnderEachGravity() throws {
        let source = try black()
        for (gravity, corner) in [(VideoGravity.resizeAspect, CGPoint(x: 0, y: 140)), (.resize, CGPoint(x: 0, y: 0)),
                                  (.resizeAspectFill, CGPoint(x: -249, y: 0))] {
            let calls = CornerSquare.Calls()
            let player = ExtVideoPlayer { VideoSettings { SourceName(source); Gravity(gravity); VectorLayers { CornerSquare(calls: calls) } } }
            var image: RGBImage?
            player.runScenes(area: PixelSize(width: 640, height: 640), timing: .untimed, until: StopCondition(frames: 1)) { composed in
                image = try? composed.image()
            }
            let shown = try XCTUnwrap(image)
            let rect = try XCTUnwrap(calls.geometries.withLock { $0.last }?.videoRect)
            XCTAssertEqual(rect.origin.x, corner.x, accuracy: 1.5, "\(gravity)")
            XCTAssertEqual(rect.origin.y, corner.y, accuracy: 1.5, "\(gravity)")
            let x = Int(rect.origin.x) + 30, y = Int(rect.origin.y) + 30
            if x >= 0 {
                let pixel = shown.pixel(x: x, y: y)
                XCTAssertTrue(isRed(Int(pixel.r), Int(pixel.g), Int(pixel.b)), "\(gravity): \(pixel) at \(x),\(y)")
            } else {
                XCTAssertEqual(count(shown, where: isRed), 0, "\(gravity): the corner is cropped away with the picture")
            }
        }
    }

    /// An animated layer changes the pixels over time and repeats; the overlays are redrawn over a
    /// still picture too.
    func testAnimatedLayerChangesOverTimeAndRepeats() throws {
        let source = try black()
        let player = ExtVideoPlayer { VideoSettings { SourceName(source); Loop(); VectorLayers { GrowingBar() } } }
        var widths: [(time: Double, green: Int)] = []
        var lastRevision = -1
        player.runScenes(timing: .untimed, until: StopCondition(duration: 2.5)) { composed in
            guard let frame = composed.video, Int(frame.time * 30) % 5 == 0,
                  let image = try? composed.image() else { return }
            let green = (0..<320).filter { x in
                let pixel = image.pixel(x: x, y: 110)
                return pixel.g > 150 && pixel.r < 120
            }.count
            if Int(frame.time * 30) != lastRevision { widths.append((frame.time, green)) }
            lastRevision = Int(frame.time * 30)
        }
        let first = try XCTUnwrap(widths.first { abs($0.time - 0.5) < 0.02 })
        let later = try XCTUnwrap(widths.first { abs($0.time - 0.833) < 0.02 })
        let again = try XCTUnwrap(widths.first { abs($0.time - 1.5) < 0.02 })
        XCTAssertGreaterThan(later.green, first.green + 40, "it grows: \(widths)")
        XCTAssertEqual(again.green, first.green, accuracy: 8, "and repeats every second")
    }

    /// `addVector(clear:)` replaces the layers; `removeAllVectors` removes them.
    func testClearAndRemoveAll() throws {
        let source = try black()
        let player = ExtVideoPlayer { VideoSettings { SourceName(source); Loop(); VectorLayers { CornerSquare(calls: .init()) } } }
        var seen: [(frame: Int, red: Int, green: Int)] = []
        var frames = 0
        player.runScenes(timing: .untimed, until: StopCondition(frames: 30)) { composed in
            guard composed.video != nil, let image = try? composed.image() else { return }
            frames += 1
            if frames == 5 { player.send(.addVector(GrowingBar(), clear: true)) }
            if frames == 20 { player.send(.removeAllVectors) }
            if [3, 15, 28].contains(frames) {
                seen.append((frames, self.count(image, where: self.isRed), self.count(image, where: self.isGreen)))
            }
        }
        XCTAssertEqual(seen.map(\.frame), [3, 15, 28])
        XCTAssertGreaterThan(seen[0].red, 1000)
        XCTAssertEqual(seen[1].red, 0, "cleared")
        XCTAssertGreaterThan(seen[1].green, 50, "the new layer")
        XCTAssertEqual(seen[2].red + seen[2].green, 0, "all removed")
    }

    /// Bad layers are typed errors or clamped, never a crash; the video and the other layers play on.
    func testBadLayersAreReportedAndTheRestPlays() throws {
        struct Bad: ShapeLayerBuilderProtocol {
            let id = UUID()
            let layer: ShapeLayer
            func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer { layer }
        }
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("lp-garbage-\(UUID().uuidString).svg").path
        try Data("<svg this is not".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        var nan = VectorPath()
        nan.move(to: CGPoint(x: Double.nan, y: 0))
        nan.addLine(to: CGPoint(x: 10, y: 10))
        let huge = ShapeLayer(text: TextContent("Big", fontSize: 1e12, anchor: .point(CGPoint(x: 0, y: 0))))
        let source = try black()
        let player = ExtVideoPlayer {
            VideoSettings {
                SourceName(source); Events([.errorAny])
                VectorLayers {
                    SVGLayer(file: "/nonexistent/logo.svg")
                    SVGLayer(file: garbage)
                    Bad(layer: ShapeLayer(path: nan, fillColor: .red))
                    Bad(layer: ShapeLayer(path: VectorPath(), fillColor: .red))  // empty: draws nothing, no error
                    Bad(layer: huge)
                    CornerSquare(calls: .init())
                }
            }
        }
        let errors = Mutex<[String]>([])
        player.onPlayerEventChange { batch in
            errors.withLock { list in
                for case let .error(.invalidOverlay(error)) in batch { list.append(error.description) }
            }
        }
        XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(frames: 10)), .finished)
        let reported = errors.withLock { $0 }
        XCTAssertEqual(reported.count, 3, "\(reported)")
        XCTAssertTrue(reported.contains { $0.contains("nonexistent") }, "\(reported)")
        XCTAssertEqual(player.statistics.framesPresented, 10)
        XCTAssertGreaterThan(count(try player.snapshot(), where: isRed), 1000, "the good layer is drawn")
    }
}
