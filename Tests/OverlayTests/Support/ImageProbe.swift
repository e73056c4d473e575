import LoopPlayerCore
import Foundation
import Overlay
import XCTest

/// A pixel as stored: premultiplied B, G, R, A.
struct Pixel: Equatable, CustomStringConvertible {
    var b: UInt8, g: UInt8, r: UInt8, a: UInt8
    static let transparent = Pixel(b: 0, g: 0, r: 0, a: 0)
    var description: String { "(b \(b), g \(g), r \(r), a \(a))" }
}

extension OverlayImage {
    /// The pixel at player-area coordinates; transparent outside the image.
    func areaPixel(_ areaX: Int, _ areaY: Int) -> Pixel {
        let (column, row) = (areaX - x, areaY - y)
        guard column >= 0, row >= 0, column < width, row < height else { return .transparent }
        let p = pixel(x: column, y: row)
        return Pixel(b: p.b, g: p.g, r: p.r, a: p.a)
    }

    /// Every pixel with its area coordinates.
    var allPixels: [(x: Int, y: Int, pixel: Pixel)] {
        (0..<height).flatMap { row in
            (0..<width).map { column in
                let p = pixel(x: column, y: row)
                return (x + column, y + row, Pixel(b: p.b, g: p.g, r: p.r, a: p.a))
            }
        }
    }

    var frame: (x: Int, y: Int, width: Int, height: Int) { (x, y, width, height) }
}

/// Opaque pure colours, so premultiplied bytes equal straight ones.
enum Pure {
    static let red = Color(red: 1, green: 0, blue: 0)
    static let green = Color(red: 0, green: 1, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)
    static let opaqueRed = Pixel(b: 0, g: 0, r: 255, a: 255)
    static let opaqueGreen = Pixel(b: 0, g: 255, r: 0, a: 255)
    static let opaqueBlue = Pixel(b: 255, g: 0, r: 0, a: 255)
}

func line(from start: CGPoint, to end: CGPoint) -> VectorPath {
    var path = VectorPath()
    path.move(to: start)
    path.addLine(to: end)
    return path
}

/// Renders and fails the test when the result is nil.
func render(_ layer: ShapeLayer, _ rasterizer: OverlayRasterizer = OverlayRasterizer(), width: Double = 200,
            height: Double = 100, at time: Double = 0, file: StaticString = #filePath, line: UInt = #line) throws -> OverlayImage {
    let image = try rasterizer.render(layer, in: LayerGeometry(width: width, height: height), at: time)
    return try XCTUnwrap(image, "nothing was drawn", file: file, line: line)
}

func XCTAssertThrowsOverlayError(_ expression: () throws(OverlayError) -> some Any, _ check: (OverlayError) -> Bool,
                                 file: StaticString = #filePath, line: UInt = #line) {
    do {
        _ = try expression()
        XCTFail("no error thrown", file: file, line: line)
    } catch {
        XCTAssertTrue(check(error), "unexpected error: \(error)", file: file, line: line)
    }
}

extension OverlayError {
    var isInvalidLayer: Bool { if case .invalidLayer = self { return true } else { return false } }
}
