import LoopPlayerCore
import Foundation
import Overlay
import XCTest

final class VectorPathTests: XCTestCase {
    func testBoundingBoxAndEmptiness() {
        var path = VectorPath()
        XCTAssertTrue(path.isEmpty)
        XCTAssertTrue(path.boundingBox.isNull)
        path.addEllipse(in: CGRect(x: 10, y: 20, width: 40, height: 30))
        XCTAssertFalse(path.isEmpty)
        let box = path.boundingBox
        XCTAssertEqual(Double(box.minX), 10, accuracy: 1e-9)
        XCTAssertEqual(Double(box.maxX), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(box.minY), 20, accuracy: 1e-9)
        XCTAssertEqual(Double(box.maxY), 50, accuracy: 1e-9)
    }

    func testLineWithoutCurrentPointStartsASubpath() {
        var path = VectorPath()
        path.addLine(to: CGPoint(x: 3, y: 4))
        XCTAssertEqual(path.elements, [.move(to: CGPoint(x: 3, y: 4))])
        path.closeSubpath()
        XCTAssertEqual(path.currentPoint, CGPoint(x: 3, y: 4))
    }

    func testClockwiseArcTurnsDownFirst() {
        var clockwise = VectorPath()
        clockwise.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: true)
        XCTAssertGreaterThanOrEqual(Double(clockwise.boundingBox.minY), -1e-9, "through the lower half (y down)")
        XCTAssertEqual(Double(clockwise.currentPoint?.x ?? 0), -10, accuracy: 1e-9)
        var counter = VectorPath()
        counter.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        XCTAssertLessThanOrEqual(Double(counter.boundingBox.maxY), 1e-9, "through the upper half")
        var joined = VectorPath()
        joined.move(to: CGPoint(x: 100, y: 100))
        joined.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 4 * .pi, clockwise: true)
        XCTAssertEqual(joined.elements[1], .line(to: CGPoint(x: 10, y: 0)), "a line joins the current point to the arc")
        XCTAssertEqual(joined.elements.count, 6, "a whole circle: four quarter curves")
    }

    func testArcsAreRoundWhenRasterised() throws {
        // Points on the circle of radius 40 are inside; the corners of its bounding square are not.
        let image = try render(ShapeLayer(path: VectorPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80)), fillColor: Pure.red))
        XCTAssertTrue(image.frame == (10, 10, 80, 80), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(50, 12), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(50 + 27, 50 + 27), Pure.opaqueRed, "radius 38.2")
        XCTAssertEqual(image.areaPixel(50 + 30, 50 + 30), .transparent, "radius 42.4")
        XCTAssertEqual(image.areaPixel(11, 11), .transparent)
    }

    func testTransformsComposeInOrder() {
        let move = LayerTransform(translationX: 10, y: 0)
        let double = LayerTransform(scaleX: 2, y: 2)
        XCTAssertEqual(move.concatenating(double).apply(CGPoint(x: 1, y: 1)), CGPoint(x: 22, y: 2))
        XCTAssertEqual(double.concatenating(move).apply(CGPoint(x: 1, y: 1)), CGPoint(x: 12, y: 2))
        let turn = LayerTransform(rotation: .pi / 2, about: CGPoint(x: 5, y: 5))
        XCTAssertEqual(turn.apply(CGPoint(x: 5, y: 5)), CGPoint(x: 5, y: 5))
        let turned = turn.apply(CGPoint(x: 10, y: 5))
        XCTAssertEqual(Double(turned.x), 5, accuracy: 1e-12)
        XCTAssertEqual(Double(turned.y), 10, accuracy: 1e-12)
        XCTAssertTrue(LayerTransform.identity.concatenating(.identity).isIdentity)
        XCTAssertEqual(VectorPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)).applying(double).boundingBox,
                       CGRect(x: 0, y: 0, width: 2, height: 2))
    }

    func testSVGPathDataCommands() throws {
        let tick = try VectorPath(svgPathData: "m10 50 l20 20 40-40")
        XCTAssertEqual(tick.elements, [.move(to: CGPoint(x: 10, y: 50)), .line(to: CGPoint(x: 30, y: 70)),
                                       .line(to: CGPoint(x: 70, y: 30))])
        let box = try VectorPath(svgPathData: "M0,0H10V5h-10z")
        XCTAssertEqual(box.elements, [.move(to: .zero), .line(to: CGPoint(x: 10, y: 0)), .line(to: CGPoint(x: 10, y: 5)),
                                      .line(to: CGPoint(x: 0, y: 5)), .closeSubpath])
        let smooth = try VectorPath(svgPathData: "M0 0C0 10 10 10 10 0S20-10 20 0Q25 5 30 0T40 0")
        XCTAssertEqual(smooth.elements[2], .curve(to: CGPoint(x: 20, y: 0), control1: CGPoint(x: 10, y: -10),
                                                  control2: CGPoint(x: 20, y: -10)), "S reflects the last control")
        XCTAssertEqual(smooth.elements[4], .quadCurve(to: CGPoint(x: 40, y: 0), control: CGPoint(x: 35, y: -5)),
                       "T reflects the last control")
        let numbers = try VectorPath(svgPathData: "M.5.5L1e1-2.5")
        XCTAssertEqual(numbers.elements, [.move(to: CGPoint(x: 0.5, y: 0.5)), .line(to: CGPoint(x: 10, y: -2.5))])
    }

    func testSVGArcBecomesCurvesThroughTheRightPoints() throws {
        // A half circle of radius 10 from (0, 10) to (20, 10), sweeping clockwise on screen: over the top.
        let arc = try VectorPath(svgPathData: "M0 10 A10 10 0 0 1 20 10")
        let box = arc.boundingBox
        XCTAssertEqual(Double(box.minY), 0, accuracy: 1e-9, "the top of the circle")
        XCTAssertLessThanOrEqual(Double(box.maxY), 10 + 1e-9)
        XCTAssertEqual(Double(arc.currentPoint?.x ?? 0), 20, accuracy: 1e-9)
        XCTAssertEqual(Double(arc.currentPoint?.y ?? 0), 10, accuracy: 1e-9)
        // Radii too small are scaled up; flags packed without separators.
        let packed = try VectorPath(svgPathData: "M0 0a1 1 0 0120 0")
        XCTAssertEqual(Double(packed.currentPoint?.x ?? 0), 20, accuracy: 1e-9)
    }

    func testBadSVGPathDataIsAnError() {
        for bad in ["L10 10", "M10", "M10 10 X", "M0 0 Z 5", "M0 0 A1 1 0 2 1 5 5"] {
            XCTAssertThrowsOverlayError({ () throws(OverlayError) in try VectorPath(svgPathData: bad) }, \.isInvalidLayer)
        }
        XCTAssertNoThrow(XCTAssertTrue(try VectorPath(svgPathData: "  ").isEmpty))
    }
}
