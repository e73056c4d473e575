import Foundation
import Overlay
import XCTest

final class TextRenderingTests: XCTestCase {
    private let rasterizer = OverlayRasterizer()

    private func isNearly(_ pixel: Pixel, _ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Bool {
        pixel.a == 255 && abs(Int(pixel.r) - Int(red)) <= 8 && abs(Int(pixel.g) - Int(green)) <= 8
            && abs(Int(pixel.b) - Int(blue)) <= 8
    }

    func testGlyphsAreInTheTextColourWithAnOutlineOfTheOtherAround() throws {
        let text = TextContent("HELLO", fontSize: 40, color: .white, anchor: .point(CGPoint(x: 20, y: 20)))
        let image = try render(ShapeLayer(text: text), rasterizer, width: 400, height: 120)
        let pixels = image.allPixels
        let white = pixels.filter { isNearly($0.pixel, 255, 255, 255) }
        let dark = pixels.filter { $0.pixel.a >= 200 && $0.pixel.r < 40 && $0.pixel.g < 40 && $0.pixel.b < 40 }
        XCTAssertGreaterThan(white.count, 300, "glyph pixels in white")
        XCTAssertGreaterThan(dark.count, 300, "outline pixels in black")
        // The outline surrounds the glyphs: the leftmost dark pixel is left of the leftmost white one, etc.
        XCTAssertLessThan(dark.map(\.x).min() ?? .max, white.map(\.x).min() ?? .min)
        XCTAssertLessThan(dark.map(\.y).min() ?? .max, white.map(\.y).min() ?? .min)
        XCTAssertGreaterThan(dark.map(\.y).max() ?? .min, white.map(\.y).max() ?? .max)
        XCTAssertEqual(Double(image.x), 20, accuracy: 4)

        var plain = text
        plain.legibility = .plain
        let bare = try render(ShapeLayer(text: plain), rasterizer, width: 400, height: 120).allPixels
        XCTAssertFalse(bare.contains { $0.pixel.a > 0 && $0.pixel.r < $0.pixel.a / 2 }, "no dark pixel without an outline")

        var dark2 = text
        dark2.color = .black
        let darkText = try render(ShapeLayer(text: dark2), rasterizer, width: 400, height: 120).allPixels
        XCTAssertGreaterThan(darkText.filter { $0.pixel.a >= 200 && $0.pixel.r >= 200 && $0.pixel.g >= 200 }.count, 300,
                             "dark text gets a light outline")
    }

    /// Text drawn again the same way is painted from kept pixels (the second repeat on): they are
    /// what a fresh rasterizer draws, at a fraction-of-a-pixel position, rotated, moved by whole
    /// pixels, under a parent, and inside a faded group (drawn directly there).
    func testRepeatedTextIsWhatAFreshRasterizerDraws() throws {
        let text = TextContent("Kept Åé 東京", fontSize: 28, color: .yellow, anchor: .point(CGPoint(x: 30.37, y: 20.6)))
        for opacity in [1, 0.8] {
            var caption = ShapeLayer(text: text)
            caption.opacity = opacity
            var parent = ShapeLayer(path: VectorPath(rect: CGRect(x: 10, y: 10, width: 40, height: 40)), fillColor: .blue)
            parent.sublayers = [caption]
            let kept = OverlayRasterizer()
            for (shift, angle) in [(0.0, 0.0), (0, 0), (0, 0), (7, 0), (7, 0), (7, 0.3), (7, 0.3), (7, 0.3), (0, 0)] {
                var layer = parent
                layer.transform = LayerTransform(rotation: angle, about: CGPoint(x: 100, y: 50))
                    .concatenating(LayerTransform(translationX: shift, y: 2 * shift))
                let again = try render(layer, kept, width: 400, height: 200)
                let fresh = try render(layer, OverlayRasterizer(), width: 400, height: 200)
                let what = "opacity \(opacity), shift \(shift), angle \(angle)"
                XCTAssertEqual([again.x, again.y, again.width, again.height], [fresh.x, fresh.y, fresh.width, fresh.height], what)
                // Blending the kept image rounds to 8 bits once where drawing shadow, outline and
                // glyphs one by one rounds three times: a step of 1 here and there, nothing more.
                let steps = zip(again.pixels, fresh.pixels).map { abs(Int($0) - Int($1)) }
                XCTAssertLessThanOrEqual(steps.max() ?? 0, 1, what)
                XCTAssertLessThan(steps.filter { $0 > 0 }.count, steps.count / 100, what)
            }
        }
    }

    func testAlignmentPlacesTheBlockOnItsAnchor() throws {
        func frame(_ alignment: TextAlignment) throws -> (x: Int, y: Int, width: Int, height: Int) {
            let text = TextContent("Centre", fontSize: 30, color: Pure.red, alignment: alignment,
                                   anchor: .point(CGPoint(x: 200, y: 10)), legibility: .plain)
            return try render(ShapeLayer(text: text), rasterizer, width: 400, height: 100).frame
        }
        let left = try frame(.left), center = try frame(.center), right = try frame(.right)
        XCTAssertEqual(Double(left.x), 200, accuracy: 4)
        XCTAssertEqual(Double(center.x) + Double(center.width) / 2, 200, accuracy: 4)
        XCTAssertEqual(Double(right.x + right.width), 200, accuracy: 4)
    }

    func testErrorTextIsCentredInTheArea() throws {
        let geometry = LayerGeometry(width: 640, height: 360)
        let image = try XCTUnwrap(rasterizer.renderErrorText("Source not found: swipe.mp4", color: Pure.red, fontSize: 17, in: geometry))
        XCTAssertEqual(Double(image.x) + Double(image.width) / 2, 320, accuracy: 4)
        XCTAssertEqual(Double(image.y) + Double(image.height) / 2, 180, accuracy: 4)
        XCTAssertTrue(image.allPixels.contains { isNearly($0.pixel, 255, 0, 0) }, "text in the given colour")
    }

    /// Pango refuses a whole text holding a Unicode noncharacter: it is drawn with U+FFFD in its place.
    func testANoncharacterDoesNotHideTheText() throws {
        let geometry = LayerGeometry(width: 640, height: 360)
        let plain = try XCTUnwrap(rasterizer.renderMessage("HELLO WORLD", opacity: 1, in: geometry))
        for code in [0xFFFF, 0xFDD0, 0x10FFFF] as [UInt32] {
            let text = "HELLO" + String(Character(try XCTUnwrap(Unicode.Scalar(code)))) + " WORLD"
            let image = try XCTUnwrap(rasterizer.renderMessage(text, opacity: 1, in: geometry), text.debugDescription)
            XCTAssertGreaterThan(image.width, plain.width / 2, text.debugDescription)
        }
    }

    func testLongErrorTextWrapsToTheAreaWidth() throws {
        let narrow = LayerGeometry(width: 200, height: 400)
        let short = try XCTUnwrap(rasterizer.renderErrorText("Error", color: .red, fontSize: 17, in: narrow))
        let message = "The source could not be opened because the server answered with an error, retrying in five seconds"
        let long = try XCTUnwrap(rasterizer.renderErrorText(message, color: .red, fontSize: 17, in: narrow))
        XCTAssertGreaterThan(long.height, 3 * short.height, "several lines")
        XCTAssertLessThanOrEqual(long.width, 200 - 2 * 16 + 8, "within the margins (plus the outline)")
    }

    func testFontSizeIsInPointsTimesTheScale() throws {
        let single = try XCTUnwrap(rasterizer.renderErrorText("Scale", color: .white, fontSize: 20,
                                                             in: LayerGeometry(width: 800, height: 400, scale: 1)))
        let double = try XCTUnwrap(rasterizer.renderErrorText("Scale", color: .white, fontSize: 20,
                                                             in: LayerGeometry(width: 800, height: 400, scale: 2)))
        XCTAssertEqual(Double(double.width) / Double(single.width), 2, accuracy: 0.15)
        XCTAssertEqual(Double(double.height) / Double(single.height), 2, accuracy: 0.2)
        // 20 points at scale 1 are 20 pixels: a capital's ink is about 0.73 em tall in DejaVu Sans.
        let cap = try render(ShapeLayer(text: TextContent("H", fontSize: 100, legibility: .plain)), rasterizer, width: 300, height: 200)
        XCTAssertEqual(Double(cap.height), 73, accuracy: 3)
    }

    func testHugeFontSizeIsClampedAndStaysInTheArea() throws {
        var text = TextContent("W", fontSize: 1e12, color: Pure.red, anchor: .point(.zero), legibility: .plain)
        let huge = try render(ShapeLayer(text: text), rasterizer, width: 1200, height: 1100)
        text.fontSize = TextContent.maximumFontSize
        let largest = try render(ShapeLayer(text: text), rasterizer, width: 1200, height: 1100)
        XCTAssertEqual(huge, largest, "sizes above the maximum draw at the maximum")
        XCTAssertLessThanOrEqual(huge.width, 1200)
        XCTAssertLessThanOrEqual(huge.height, 1100)
        text.fontSize = -5
        XCTAssertNotNil(try rasterizer.render(ShapeLayer(text: text), in: LayerGeometry(width: 100, height: 100)),
                        "a non-positive size draws at 1 point")
    }

    func testTextLayerSitsAtTheTopLeftAndWraps() throws {
        let builder = TextLayer("Camera 3 — Lobby", fontSize: 20, color: .yellow)
        let geometry = LayerGeometry(width: 640, height: 360)
        let layer = builder.build(in: geometry)
        XCTAssertEqual(layer.text?.anchor, .point(CGPoint(x: 16, y: 16)))
        XCTAssertEqual(layer.text?.wrapWidth, 608)
        let image = try XCTUnwrap(rasterizer.render(layer, in: geometry))
        XCTAssertEqual(Double(image.x), 16, accuracy: 5)
        XCTAssertEqual(Double(image.y), 16, accuracy: 8)
        XCTAssertEqual(builder.build(in: LayerGeometry(width: 640, height: 360, scale: 2)).text?.anchor,
                       .point(CGPoint(x: 32, y: 32)))
        XCTAssertEqual(builder.id, builder.id)
        XCTAssertNotEqual(builder.id, TextLayer("Camera 3 — Lobby").id)
    }

    func testTextWithNulAndControlCharactersDraws() throws {
        let text = TextContent("a\u{0}b\tc\u{202E}d", fontSize: 20, anchor: .point(CGPoint(x: 5, y: 5)))
        XCTAssertNotNil(try rasterizer.render(ShapeLayer(text: text), in: LayerGeometry(width: 200, height: 60)))
    }
}
