import LoopPlayerCore
import Foundation
import Overlay
import XCTest

final class ShapeRenderingTests: XCTestCase {
    func testFillIsTheFillColourInsideAndTransparentOutside() throws {
        let image = try render(ShapeLayer(path: VectorPath(rect: CGRect(x: 20, y: 30, width: 40, height: 20)), fillColor: Pure.red))
        XCTAssertTrue(image.frame == (20, 30, 40, 20), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(20, 30), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(40, 40), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(59, 49), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(19, 40), .transparent)
        XCTAssertEqual(image.areaPixel(60, 40), .transparent)
        XCTAssertEqual(image.pixels.count, image.stride * image.height)
    }

    func testImageCoversOnlyTheContentsBoundingBox() throws {
        var path = VectorPath(rect: CGRect(x: 10, y: 12, width: 5, height: 5))
        path.addRect(CGRect(x: 100, y: 50, width: 6, height: 7))
        let image = try render(ShapeLayer(path: path, fillColor: Pure.blue))
        XCTAssertTrue(image.frame == (10, 12, 96, 45), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(105, 56), Pure.opaqueBlue)
        XCTAssertEqual(image.areaPixel(50, 30), .transparent)
    }

    func testStrokeIsLineWidthThick() throws {
        let layer = ShapeLayer(path: line(from: CGPoint(x: 20, y: 50), to: CGPoint(x: 180, y: 50)), fillColor: nil,
                               strokeColor: Pure.green, lineWidth: 10)
        let image = try render(layer)
        XCTAssertTrue(image.frame == (20, 45, 160, 10), "\(image.frame)")
        for y in 45..<55 { XCTAssertEqual(image.areaPixel(100, y), Pure.opaqueGreen, "row \(y)") }
        XCTAssertEqual(image.areaPixel(100, 44), .transparent)
        XCTAssertEqual(image.areaPixel(100, 55), .transparent)
    }

    func testEvenOddLeavesAHoleAndNonZeroFillsIt() throws {
        var path = VectorPath(rect: CGRect(x: 10, y: 10, width: 80, height: 80))
        path.addRect(CGRect(x: 30, y: 30, width: 40, height: 40))
        var layer = ShapeLayer(path: path, fillColor: Pure.red)
        let nonZero = try render(layer)
        layer.fillRule = .evenOdd
        let evenOdd = try render(layer)
        XCTAssertEqual(nonZero.areaPixel(50, 50), Pure.opaqueRed)
        XCTAssertEqual(evenOdd.areaPixel(50, 50), .transparent)
        XCTAssertEqual(evenOdd.areaPixel(20, 20), Pure.opaqueRed)
        XCTAssertEqual(evenOdd.areaPixel(80, 50), Pure.opaqueRed)
    }

    func testDashPatternLeavesGaps() throws {
        var layer = ShapeLayer(path: line(from: CGPoint(x: 0, y: 50), to: CGPoint(x: 200, y: 50)), fillColor: nil,
                               strokeColor: Pure.red, lineWidth: 4)
        layer.lineDashPattern = [10, 10]
        let image = try render(layer)
        XCTAssertEqual(image.areaPixel(5, 50), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(15, 50), .transparent)
        XCTAssertEqual(image.areaPixel(25, 50), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(195, 50), .transparent)
        layer.lineDashPhase = 10
        let shifted = try render(layer)
        XCTAssertEqual(shifted.areaPixel(5, 50), .transparent)
        XCTAssertEqual(shifted.areaPixel(15, 50), Pure.opaqueRed)
    }

    func testCapsExtendOpenEnds() throws {
        var layer = ShapeLayer(path: line(from: CGPoint(x: 50, y: 50), to: CGPoint(x: 150, y: 50)), fillColor: nil,
                               strokeColor: Pure.red, lineWidth: 10)
        XCTAssertEqual(try render(layer).frame.width, 100)
        layer.lineCap = .square
        let square = try render(layer)
        XCTAssertTrue(square.frame == (45, 45, 110, 10), "\(square.frame)")
        layer.lineCap = .round
        let round = try render(layer)
        XCTAssertEqual(round.areaPixel(46, 50).a, 255)
        XCTAssertEqual(round.areaPixel(45, 45), .transparent, "a round cap leaves the corner empty")
    }

    func testRoundedCornersLeaveTheCornerPixelTransparent() throws {
        let path = VectorPath(roundedRect: CGRect(x: 10, y: 10, width: 100, height: 60), cornerRadius: 20)
        let image = try render(ShapeLayer(path: path, fillColor: Pure.red))
        XCTAssertTrue(image.frame == (10, 10, 100, 60), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(10, 10), .transparent)
        XCTAssertEqual(image.areaPixel(109, 69), .transparent)
        XCTAssertEqual(image.areaPixel(10, 40), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(60, 10), Pure.opaqueRed)
    }

    func testTranslationMovesTheShape() throws {
        var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20)), fillColor: Pure.red)
        layer.transform = LayerTransform(translationX: 100, y: 50)
        let image = try render(layer)
        XCTAssertTrue(image.frame == (100, 50, 20, 20), "\(image.frame)")
    }

    func testRotationAboutTheCentreTurnsABarUpright() throws {
        var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 100, y: 90, width: 60, height: 20)), fillColor: Pure.red)
        layer.transform = LayerTransform(rotation: .pi / 2, about: CGPoint(x: 130, y: 100))
        let image = try render(layer, height: 200)
        XCTAssertEqual(Double(image.x), 120, accuracy: 1)
        XCTAssertEqual(Double(image.y), 70, accuracy: 1)
        XCTAssertEqual(Double(image.width), 20, accuracy: 1)
        XCTAssertEqual(Double(image.height), 60, accuracy: 1)
        XCTAssertEqual(image.areaPixel(130, 75), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(150, 100), .transparent)
    }

    func testOpacityHalvesAlpha() throws {
        var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)), fillColor: Pure.red)
        layer.opacity = 0.5
        let pixel = try render(layer).areaPixel(5, 5)
        XCTAssertEqual(Double(pixel.a), 127.5, accuracy: 1)
        XCTAssertEqual(pixel.r, pixel.a, "premultiplied red")
        XCTAssertEqual(pixel.g, 0)
    }

    func testOpacityFadesSublayersAsOneGroup() throws {
        var parent = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20)), fillColor: Pure.red)
        parent.sublayers = [ShapeLayer(path: VectorPath(rect: CGRect(x: 10, y: 0, width: 20, height: 20)), fillColor: Pure.blue)]
        parent.opacity = 0.5
        let image = try render(parent)
        // Where they overlap only the blue shows, at half alpha: one group faded, not two layers stacked.
        let overlap = image.areaPixel(15, 10)
        XCTAssertEqual(Double(overlap.a), 127.5, accuracy: 1)
        XCTAssertEqual(overlap.r, 0)
        XCTAssertEqual(overlap.b, overlap.a)
    }

    func testLaterSublayersDrawOnTopAndInheritTheTransform() throws {
        var parent = ShapeLayer(fillColor: nil)
        parent.sublayers = [
            ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 50, height: 50)), fillColor: Pure.red),
            ShapeLayer(path: VectorPath(rect: CGRect(x: 25, y: 25, width: 50, height: 50)), fillColor: Pure.blue),
        ]
        parent.transform = LayerTransform(translationX: 10, y: 0)
        let image = try render(parent)
        XCTAssertTrue(image.frame == (10, 0, 75, 75), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(20, 10), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(50, 40), Pure.opaqueBlue)
        XCTAssertEqual(image.areaPixel(80, 70), Pure.opaqueBlue)
    }

    func testStrokeEndHalfDrawsHalfTheLine() throws {
        var layer = ShapeLayer(path: line(from: CGPoint(x: 0, y: 50), to: CGPoint(x: 200, y: 50)), fillColor: nil,
                               strokeColor: Pure.red, lineWidth: 4)
        layer.strokeEnd = 0.5
        XCTAssertTrue(try render(layer).frame == (0, 48, 100, 4))
        layer.strokeStart = 0.25
        layer.strokeEnd = 0.75
        XCTAssertTrue(try render(layer).frame == (50, 48, 100, 4))
        layer.strokeStart = 0.75
        XCTAssertNil(try OverlayRasterizer().render(layer, in: LayerGeometry(width: 200, height: 100), at: 0),
                     "strokeStart at strokeEnd draws nothing")
    }

    func testStrokeEndMeasuresAlongEverySubpathAndCurve() throws {
        // Two 100-pixel lines; half the length is exactly the first line.
        var path = line(from: CGPoint(x: 0, y: 20), to: CGPoint(x: 100, y: 20))
        path.move(to: CGPoint(x: 0, y: 60))
        path.addLine(to: CGPoint(x: 100, y: 60))
        var layer = ShapeLayer(path: path, fillColor: nil, strokeColor: Pure.red, lineWidth: 2)
        layer.strokeEnd = 0.5
        XCTAssertTrue(try render(layer).frame == (0, 19, 100, 2))

        // Half a circle's length, from its rightmost point turning clockwise, ends at its leftmost point:
        // the lower half only.
        var circle = ShapeLayer(path: VectorPath(ellipseIn: CGRect(x: 50, y: 10, width: 80, height: 80)), fillColor: nil,
                                strokeColor: Pure.red, lineWidth: 2)
        circle.strokeEnd = 0.5
        let half = try render(circle)
        XCTAssertEqual(Double(half.y), 50, accuracy: 1)
        XCTAssertEqual(Double(half.y + half.height), 91, accuracy: 1.5)
        XCTAssertEqual(Double(half.width), 82, accuracy: 1.5)
    }

    func testNothingVisibleIsNil() throws {
        let rasterizer = OverlayRasterizer()
        let geometry = LayerGeometry(width: 200, height: 100)
        XCTAssertNil(try rasterizer.render(ShapeLayer(), in: geometry))
        XCTAssertNil(try rasterizer.render(ShapeLayer(path: VectorPath(), fillColor: .red, strokeColor: .white, lineWidth: 3), in: geometry))
        XCTAssertNil(try rasterizer.render(ShapeLayer(path: VectorPath(rect: CGRect(x: 300, y: 0, width: 10, height: 10))), in: geometry),
                     "outside the area")
        var faded = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
        faded.opacity = 0
        XCTAssertNil(try rasterizer.render(faded, in: geometry))
        var flattened = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
        flattened.transform = LayerTransform(scaleX: 0, y: 1)
        XCTAssertNil(try rasterizer.render(flattened, in: geometry), "a singular transform draws nothing")
        XCTAssertNil(try rasterizer.render(ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))),
                                           in: LayerGeometry(width: 0, height: 100)), "an empty area")
    }

    func testImageIsNeverLargerThanTheArea() throws {
        let huge = ShapeLayer(path: VectorPath(rect: CGRect(x: -1e7, y: -1e7, width: 2e7, height: 2e7)), fillColor: Pure.red,
                              strokeColor: .white, lineWidth: 1e6)
        let image = try render(huge, width: 320, height: 240)
        XCTAssertTrue(image.frame == (0, 0, 320, 240), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(160, 120), Pure.opaqueRed)
    }

    func testNonFiniteNumbersAreInvalidLayers() {
        let rasterizer = OverlayRasterizer()
        let geometry = LayerGeometry(width: 200, height: 100)
        var nanPath = VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        nanPath.addLine(to: CGPoint(x: Double.nan, y: 5))
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in try rasterizer.render(ShapeLayer(path: nanPath), in: geometry) },
                                    \.isInvalidLayer)

        var cases: [ShapeLayer] = []
        var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)), strokeColor: .white)
        layer.lineWidth = .infinity; cases.append(layer); layer.lineWidth = 1
        layer.lineDashPattern = [4, -1]; cases.append(layer); layer.lineDashPattern = []
        layer.transform.tx = .nan; cases.append(layer); layer.transform = .identity
        layer.opacity = .nan; cases.append(layer); layer.opacity = 1
        layer.text = TextContent("x", fontSize: .infinity); cases.append(layer); layer.text = nil
        layer.svg = SVGContent(file: "/nonexistent.svg", in: CGRect(x: Double.nan, y: 0, width: 1, height: 1)); cases.append(layer)
        layer.svg = nil
        layer.animations = [LayerAnimation(.rotation(from: 0, to: .nan, about: .zero), duration: 1)]; cases.append(layer)
        layer.animations = []
        var parent = ShapeLayer()
        var child = layer
        child.strokeEnd = -.infinity
        parent.sublayers = [child]; cases.append(parent)
        for (index, bad) in cases.enumerated() {
            XCTAssertThrowsOverlayError({ () throws(OverlayError) in try rasterizer.render(bad, in: geometry) }, \.isInvalidLayer)
            XCTAssertNoThrow(try rasterizer.render(layer, in: geometry), "case \(index) left the rasterizer broken")
        }
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in try rasterizer.render(layer, in: geometry, at: .nan) }, \.isInvalidLayer)
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in
            try rasterizer.render(layer, in: LayerGeometry(width: .infinity, height: 100))
        }, \.isInvalidLayer)
    }

    func testDeeplyNestedSublayersAreRejected() {
        var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
        for _ in 0..<40 {
            var parent = ShapeLayer(fillColor: nil)
            parent.sublayers = [layer]
            layer = parent
        }
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in
            try OverlayRasterizer().render(layer, in: LayerGeometry(width: 100, height: 100))
        }, \.isInvalidLayer)
    }

    func testAllZeroDashesDrawASolidLine() throws {
        var layer = ShapeLayer(path: line(from: CGPoint(x: 0, y: 50), to: CGPoint(x: 200, y: 50)), fillColor: nil,
                               strokeColor: Pure.red, lineWidth: 4)
        layer.lineDashPattern = [0, 0]
        XCTAssertTrue(try render(layer).frame == (0, 48, 200, 4))
    }
}
