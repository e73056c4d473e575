import Overlay
import XCTest

final class CompositingTests: XCTestCase {
    /// A 1×1 image of one premultiplied pixel at (x, y).
    private func dot(_ b: UInt8, _ g: UInt8, _ r: UInt8, _ a: UInt8, x: Int = 0, y: Int = 0) -> OverlayImage {
        OverlayImage(x: x, y: y, width: 1, height: 1, pixels: [b, g, r, a])
    }

    private func blend(_ image: OverlayImage, onto destination: [UInt8], width: Int, height: Int, stride: Int) -> [UInt8] {
        var buffer = destination
        buffer.withUnsafeMutableBufferPointer { image.composite(ontoBGRA: $0.baseAddress!, width: width, height: height, stride: stride) }
        return buffer
    }

    /// Blends one source pixel onto one destination pixel, alone and as nine copies side by side (eight
    /// go through the vector path, one through the scalar path); fails if the copies disagree.
    private func blendOne(_ source: [UInt8], onto destination: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        let single = blend(dot(source[0], source[1], source[2], source[3]), onto: destination, width: 1, height: 1, stride: 4)
        let row = OverlayImage(x: 0, y: 0, width: 9, height: 1, pixels: Array([[UInt8]](repeating: source, count: 9).joined()))
        let wide = blend(row, onto: Array([[UInt8]](repeating: destination, count: 9).joined()), width: 9, height: 1, stride: 36)
        XCTAssertEqual(wide, Array([[UInt8]](repeating: single, count: 9).joined()), "vector and scalar paths agree", file: file, line: line)
        return single
    }

    func testSourceOverBlendsExactly() {
        // src + dst·(255 − a)/255 rounded: b 0 + 99.6→100, g 64 + 49.8→114, r 128 + 24.9→153, a 128 + 127.
        XCTAssertEqual(blendOne([0, 64, 128, 128], onto: [200, 100, 50, 255]), [100, 114, 153, 255])
        XCTAssertEqual(blendOne([10, 20, 30, 255], onto: [200, 100, 50, 255]), [10, 20, 30, 255])
        XCTAssertEqual(blendOne([0, 0, 0, 0], onto: [200, 100, 50, 255]), [200, 100, 50, 255])
        XCTAssertEqual(blendOne([1, 1, 1, 1], onto: [255, 255, 255, 255]), [255, 255, 255, 255])
        XCTAssertEqual(blendOne([200, 0, 9, 100], onto: [255, 0, 0, 255]), [255, 0, 9, 255],
                       "a colour above its alpha saturates without spilling into the next byte")
    }

    func testRoundingIsToNearestForEveryDestinationAndAlpha() {
        // One row per alpha: destination levels 0…255 in every colour channel, source colour alpha / 2.
        let levels: [UInt8] = (0...255).flatMap { level -> [UInt8] in [UInt8(level), UInt8(level), UInt8(level), 255] }
        for alpha in 0...255 {
            let colour = UInt8(alpha / 2)
            let image = OverlayImage(x: 0, y: 0, width: 256, height: 1,
                                     pixels: Array([[UInt8]](repeating: [colour, colour, colour, UInt8(alpha)], count: 256).joined()))
            let result = blend(image, onto: levels, width: 256, height: 1, stride: 1024)
            for level in 0...255 {
                let exact = Double(colour) + Double(level) * Double(255 - alpha) / 255
                for channel in 0..<3 where abs(Double(result[level * 4 + channel]) - exact) > 0.5 {
                    return XCTFail("level \(level), alpha \(alpha), channel \(channel): \(result[level * 4 + channel]) for \(exact)")
                }
                XCTAssertEqual(result[level * 4 + 3], 255, "an opaque destination stays opaque")
            }
        }
    }

    /// A row of twelve different pixels (transparent, opaque, half, colour above its alpha, alpha 0 with
    /// colour) two pixels left of a nine-pixel buffer: eight go through the vector path as one mixed
    /// group, the rest through the scalar one; every byte against the formula in Double.
    func testAMixedRowClippedOnBothSides() {
        let sources: [[UInt8]] = [[0, 0, 0, 0], [10, 20, 30, 255], [0, 64, 128, 128], [200, 0, 9, 100], [5, 6, 7, 0],
                                  [60, 60, 60, 60], [0, 0, 0, 0], [255, 255, 255, 255], [1, 2, 3, 4], [90, 80, 70, 200],
                                  [0, 0, 0, 0], [30, 30, 30, 31]]
        let destination = (0..<9).flatMap { column -> [UInt8] in [UInt8(column * 25), 100, UInt8(255 - column * 20), 255] }
        let image = OverlayImage(x: -2, y: 0, width: 12, height: 1, pixels: Array(sources.joined()))
        let result = blend(image, onto: destination, width: 9, height: 1, stride: 36)
        for column in 0..<9 {
            let source = sources[column + 2]
            for byte in 0..<4 {
                let before = Double(destination[column * 4 + byte])
                let exact = min(255, Double(source[byte]) + (before * Double(255 - source[3]) / 255).rounded())
                XCTAssertEqual(Double(result[column * 4 + byte]), exact, "column \(column), byte \(byte)")
            }
        }
    }

    func testImageIsClippedToTheBuffer() {
        // A 4×4 opaque white image at (−2, −2) on a 3×3 buffer with 4 spare bytes per row.
        let image = OverlayImage(x: -2, y: -2, width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64))
        let stride = 3 * 4 + 4
        var buffer = [UInt8](repeating: 0, count: stride * 3 + 16)
        buffer = blend(image, onto: buffer, width: 3, height: 3, stride: stride)
        XCTAssertEqual(Array(buffer[0..<8]), [UInt8](repeating: 255, count: 8), "row 0, columns 0 and 1")
        XCTAssertEqual(Array(buffer[8..<stride]), [UInt8](repeating: 0, count: 8), "column 2 and the padding untouched")
        XCTAssertEqual(Array(buffer[stride..<stride + 8]), [UInt8](repeating: 255, count: 8))
        XCTAssertTrue(buffer[(2 * stride)...].allSatisfy { $0 == 0 }, "row 2 and beyond untouched")
        let outside = blend(OverlayImage(x: 5, y: 0, width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)),
                            onto: [UInt8](repeating: 7, count: 36), width: 3, height: 3, stride: 12)
        XCTAssertTrue(outside.allSatisfy { $0 == 7 })
    }

    func testStraightAlphaUndoesThePremultiplication() {
        // 64·255/128 = 127.5 rounds up; 100·255/50 = 510 is limited to 255.
        let image = OverlayImage(x: 0, y: 0, width: 4, height: 1,
                                 pixels: [64, 32, 0, 128, 9, 9, 9, 0, 10, 20, 30, 255, 100, 1, 50, 50])
        XCTAssertEqual(image.straightAlpha().pixels, [128, 64, 0, 128, 0, 0, 0, 0, 10, 20, 30, 255, 255, 5, 255, 50])
    }

    func testRasterisedLayerCompositesOntoAFrame() throws {
        var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 2, y: 1, width: 2, height: 2)), fillColor: Pure.red)
        layer.opacity = 0.5
        let image = try XCTUnwrap(OverlayRasterizer().render(layer, in: LayerGeometry(width: 6, height: 4)))
        let frame = blend(image, onto: [UInt8](repeating: 255, count: 6 * 4 * 4), width: 6, height: 4, stride: 24)
        let inside = Array(frame[(1 * 24 + 2 * 4)..<(1 * 24 + 3 * 4)])
        XCTAssertEqual(inside[2], 255, "red stays full on white")
        XCTAssertEqual(Double(inside[0]), 127.5, accuracy: 1, "blue and green halve")
        XCTAssertEqual(Array(frame[0..<4]), [255, 255, 255, 255], "outside untouched")
    }
}
