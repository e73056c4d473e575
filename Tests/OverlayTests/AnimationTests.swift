import Foundation
import Overlay
import XCTest

final class AnimationTests: XCTestCase {
    func testProgressFollowsTheTimingModel() {
        let linear = LayerAnimation(.opacity(from: 0, to: 1), duration: 2)
        let reversing = LayerAnimation(.opacity(from: 0, to: 1), duration: 1, autoreverses: true)
        let twice = LayerAnimation(.opacity(from: 0, to: 1), duration: 1, repeatCount: 2)
        let oneAndAHalf = LayerAnimation(.opacity(from: 0, to: 1), duration: 1, repeatCount: 1.5)
        let late = LayerAnimation(.opacity(from: 0, to: 1), duration: 1, beginTime: 2)
        let forever = LayerAnimation(.opacity(from: 0, to: 1), duration: 1, repeatCount: .infinity)
        let pulsing = LayerAnimation(.opacity(from: 0, to: 1), duration: 1, repeatCount: .infinity, autoreverses: true)
        let instant = LayerAnimation(.opacity(from: 0, to: 1), duration: 0, beginTime: 1)
        let table: [(String, LayerAnimation, time: Double, progress: Double)] = [
            ("linear before", linear, -1, 0), ("linear start", linear, 0, 0), ("linear middle", linear, 1, 0.5),
            ("linear end", linear, 2, 1), ("linear holds", linear, 30, 1),
            ("reverse out", reversing, 0.5, 0.5), ("reverse top", reversing, 1, 1), ("reverse back", reversing, 1.5, 0.5),
            ("reverse end", reversing, 2, 0), ("reverse holds", reversing, 9, 0),
            ("repeat first", twice, 0.25, 0.25), ("repeat second", twice, 1.25, 0.25), ("repeat end", twice, 2, 1),
            ("repeat holds", twice, 7, 1),
            ("fractional repeat holds its last value", oneAndAHalf, 5, 0.5),
            ("late before", late, 1.5, 0), ("late middle", late, 2.5, 0.5), ("late end", late, 3, 1),
            ("forever", forever, 1000.25, 0.25), ("pulse down", pulsing, 1001.25, 0.75),
            ("instant before", instant, 0.5, 0), ("instant after", instant, 1.5, 1),
        ]
        for (name, animation, time, expected) in table {
            XCTAssertEqual(animation.progress(at: time), expected, accuracy: 1e-9, name)
        }
        XCTAssertEqual(linear.endTime, 2)
        XCTAssertEqual(reversing.endTime, 2)
        XCTAssertEqual(oneAndAHalf.endTime, 1.5)
        XCTAssertEqual(late.endTime, 3)
        XCTAssertNil(forever.endTime)
    }

    func testTimingCurves() {
        // CSS ease-in at half time is 0.3153 (from the curve's definition, solved numerically elsewhere).
        XCTAssertEqual(AnimationTiming.easeIn.value(at: 0.5), 0.3153, accuracy: 0.0005)
        XCTAssertEqual(AnimationTiming.easeOut.value(at: 0.5), 1 - 0.3153, accuracy: 0.0005)
        XCTAssertEqual(AnimationTiming.easeInEaseOut.value(at: 0.5), 0.5, accuracy: 1e-6)
        XCTAssertLessThan(AnimationTiming.easeInEaseOut.value(at: 0.2), 0.2)
        XCTAssertEqual(AnimationTiming.cubicBezier(0.25, 0.25, 0.75, 0.75).value(at: 0.3), 0.3, accuracy: 1e-6,
                       "control points on the diagonal are linear")
        XCTAssertGreaterThan(AnimationTiming.cubicBezier(0.3, 1.6, 0.7, 1.6).value(at: 0.7), 1, "y may overshoot")
        for timing in [AnimationTiming.linear, .easeIn, .easeOut, .easeInEaseOut, .cubicBezier(0.68, -0.55, 0.27, 1.55)] {
            XCTAssertEqual(timing.value(at: 0), 0)
            XCTAssertEqual(timing.value(at: 1), 1)
        }
        let eased = LayerAnimation(.opacity(from: 0, to: 1), duration: 2, timing: .easeIn)
        XCTAssertEqual(eased.progress(at: 1), 0.3153, accuracy: 0.0005)
    }

    func testResolvedAppliesEveryPropertyAndClearsAnimations() {
        var start = VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        var end = VectorPath(rect: CGRect(x: 0, y: 0, width: 30, height: 50))
        var layer = ShapeLayer(path: start, fillColor: .black, strokeColor: .black)
        layer.animations = [
            LayerAnimation(.opacity(from: 0, to: 1), duration: 2),
            LayerAnimation(.strokeStart(from: 0, to: 0.5), duration: 2),
            LayerAnimation(.strokeEnd(from: 0, to: 1), duration: 2),
            LayerAnimation(.lineWidth(from: 2, to: 4), duration: 2),
            LayerAnimation(.lineDashPhase(from: 0, to: 10), duration: 2),
            LayerAnimation(.fillColor(from: .black, to: .white), duration: 2),
            LayerAnimation(.strokeColor(from: Color(red: 1, green: 0, blue: 0), to: Color(red: 0, green: 0, blue: 1)), duration: 2),
            LayerAnimation(.path(from: start, to: end), duration: 2),
        ]
        var child = ShapeLayer()
        child.animations = [LayerAnimation(.opacity(from: 1, to: 0), duration: 4)]
        layer.sublayers = [child]
        let middle = layer.resolved(at: 1)
        XCTAssertEqual(middle.opacity, 0.5)
        XCTAssertEqual(middle.strokeStart, 0.25)
        XCTAssertEqual(middle.strokeEnd, 0.5)
        XCTAssertEqual(middle.lineWidth, 3)
        XCTAssertEqual(middle.lineDashPhase, 5)
        XCTAssertEqual(middle.fillColor, Color(red: 0.5, green: 0.5, blue: 0.5))
        XCTAssertEqual(middle.strokeColor, Color(red: 0.5, green: 0, blue: 0.5))
        XCTAssertEqual(middle.path.boundingBox, CGRect(x: 0, y: 0, width: 20, height: 30))
        XCTAssertEqual(middle.sublayers[0].opacity, 0.75)
        XCTAssertTrue(middle.animations.isEmpty)
        XCTAssertFalse(middle.isAnimated)
        XCTAssertTrue(layer.isAnimated)

        // Paths of different structure switch halfway instead of morphing.
        start.addLine(to: CGPoint(x: 5, y: 5))
        end.closeSubpath()
        layer.animations = [LayerAnimation(.path(from: start, to: end), duration: 2)]
        XCTAssertEqual(layer.resolved(at: 0.9).path, start)
        XCTAssertEqual(layer.resolved(at: 1.1).path, end)
    }

    func testMotionAnimationsMoveTheContentBeforeTheLayersTransform() {
        var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
        layer.transform = LayerTransform(translationX: 100, y: 0)
        layer.animations = [LayerAnimation(.translation(from: .zero, to: CGPoint(x: 0, y: 40)), duration: 1)]
        XCTAssertEqual(layer.resolved(at: 0.5).transform.apply(.zero), CGPoint(x: 100, y: 20))

        layer.animations = [LayerAnimation(.rotation(from: 0, to: .pi, about: CGPoint(x: 5, y: 5)), duration: 1)]
        let turned = layer.resolved(at: 0.5).transform.apply(CGPoint(x: 10, y: 5))   // a quarter turn clockwise
        XCTAssertEqual(Double(turned.x), 105, accuracy: 1e-9)
        XCTAssertEqual(Double(turned.y), 10, accuracy: 1e-9)

        layer.animations = [LayerAnimation(.scale(from: 1, to: 3, about: CGPoint(x: 5, y: 5)), duration: 1)]
        XCTAssertEqual(layer.resolved(at: 0.5).transform.apply(CGPoint(x: 10, y: 5)), CGPoint(x: 115, y: 5))
    }

    func testAnimationEndTellsWhenTheLayerStopsChanging() {
        var layer = ShapeLayer()
        XCTAssertEqual(layer.animationEnd, 0)
        layer.animations = [LayerAnimation(.opacity(from: 0, to: 1), duration: 2, beginTime: 1),
                            LayerAnimation(.lineWidth(from: 0, to: 1), duration: 0.5, repeatCount: 3, autoreverses: true)]
        XCTAssertEqual(layer.animationEnd, 3)
        var child = ShapeLayer()
        child.animations = [LayerAnimation(.opacity(from: 0, to: 1), duration: 1, repeatCount: .infinity)]
        layer.sublayers = [child]
        XCTAssertNil(layer.animationEnd)
    }

    func testRasterisedFramesFollowTheAnimationAndHoldAtTheEnd() throws {
        var layer = ShapeLayer(path: line(from: CGPoint(x: 0, y: 50), to: CGPoint(x: 200, y: 50)), fillColor: nil,
                               strokeColor: Pure.red, lineWidth: 4)
        layer.animations = [LayerAnimation(.strokeEnd(from: 0, to: 1), duration: 1)]
        let rasterizer = OverlayRasterizer()
        let early = try render(layer, rasterizer, at: 0.25)
        let done = try render(layer, rasterizer, at: 1)
        XCTAssertTrue(early.frame == (0, 48, 50, 4), "\(early.frame)")
        XCTAssertTrue(done.frame == (0, 48, 200, 4), "\(done.frame)")
        XCTAssertEqual(try render(layer, rasterizer, at: 60), done)
    }
}
