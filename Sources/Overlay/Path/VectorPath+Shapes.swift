import Foundation

extension VectorPath {
    /// A path holding one rectangle: `VectorPath(rect: CGRect(x: 10, y: 10, width: 100, height: 50))`.
    public init(rect: CGRect) {
        self.init()
        addRect(rect)
    }

    /// A path holding one ellipse: `VectorPath(ellipseIn: CGRect(x: 0, y: 0, width: 80, height: 80))`.
    public init(ellipseIn rect: CGRect) {
        self.init()
        addEllipse(in: rect)
    }

    /// A path holding one rounded rectangle.
    ///
    /// ```swift
    /// let badge = VectorPath(roundedRect: CGRect(x: 20, y: 20, width: 160, height: 48), cornerRadius: 24)
    /// ```
    public init(roundedRect rect: CGRect, cornerRadius: Double) {
        self.init()
        addRoundedRect(rect, cornerRadius: cornerRadius)
    }

    /// A circular arc, as `UIBezierPath`'s in y-down coordinates.
    ///
    /// Angles are radians from the +x axis towards +y (down), so `clockwise: true` turns clockwise on
    /// screen. A sweep of 2π or more draws the whole circle. When the path has a current point, a line
    /// joins it to the arc's start (as in `CGPath` and Cairo).
    ///
    /// ```swift
    /// path.addArc(center: CGPoint(x: 50, y: 50), radius: 40, startAngle: 0, endAngle: .pi, clockwise: true)
    /// ```
    public mutating func addArc(center: CGPoint, radius: Double, startAngle: Double, endAngle: Double,
                                clockwise: Bool) {
        let fullTurn = 2 * Double.pi
        var sweep = endAngle - startAngle
        if !sweep.isFinite {
            // Left as is: the arc's points become NaN and the renderer rejects the layer.
        } else if clockwise {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: fullTurn) + fullTurn }
            sweep = min(sweep, fullTurn)
        } else {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: fullTurn) - fullTurn }
            sweep = max(sweep, -fullTurn)
        }
        let radius = radius < 0 ? 0 : radius
        let arc = EllipticalArc(center: center, radiusX: radius, radiusY: radius, rotation: 0,
                                startAngle: startAngle, sweep: sweep)
        if currentPoint == nil { move(to: arc.start) } else { addLine(to: arc.start) }
        arc.appendCurves(to: &self)
    }

    /// A closed ellipse inscribed in `rect`, starting at its right-middle point and turning clockwise on screen.
    public mutating func addEllipse(in rect: CGRect) {
        let r = rect.standardized
        let arc = EllipticalArc(center: CGPoint(x: r.midX, y: r.midY), radiusX: Double(r.width) / 2,
                                radiusY: Double(r.height) / 2, rotation: 0, startAngle: 0, sweep: 2 * .pi)
        move(to: arc.start)
        arc.appendCurves(to: &self)
        closeSubpath()
    }

    /// A closed rectangle with quarter-circle corners; the radius is limited to half the shorter side.
    public mutating func addRoundedRect(_ rect: CGRect, cornerRadius: Double) {
        let r = rect.standardized
        let radius = cornerRadius.isNaN ? cornerRadius : min(max(cornerRadius, 0), Double(min(r.width, r.height)) / 2)
        guard radius != 0 else { return addRect(r) }
        let (minX, minY, maxX, maxY) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        move(to: CGPoint(x: minX + radius, y: minY))
        let corners: [(x: Double, y: Double, angle: Double)] = [
            (maxX - radius, minY + radius, -Double.pi / 2),
            (maxX - radius, maxY - radius, 0),
            (minX + radius, maxY - radius, Double.pi / 2),
            (minX + radius, minY + radius, Double.pi),
        ]
        for corner in corners {
            let arc = EllipticalArc(center: CGPoint(x: corner.x, y: corner.y), radiusX: radius, radiusY: radius,
                                    rotation: 0, startAngle: corner.angle, sweep: Double.pi / 2)
            addLine(to: arc.start)
            arc.appendCurves(to: &self)
        }
        closeSubpath()
    }
}

/// An arc of a (possibly rotated) ellipse, approximated by at most four cubic Béziers, one per quarter turn
/// (the usual 4/3·tan(θ/4) handle length: error below 0.03 % of the radius).
struct EllipticalArc {
    var center: CGPoint
    var radiusX: Double
    var radiusY: Double
    /// Rotation of the ellipse's x axis, radians.
    var rotation: Double
    var startAngle: Double
    /// Signed: positive turns towards +y.
    var sweep: Double

    var start: CGPoint { point(cos(startAngle), sin(startAngle)) }

    func appendCurves(to path: inout VectorPath) {
        guard sweep != 0 else { return }
        let quarters = (abs(sweep) / (Double.pi / 2)).rounded(.up)
        let count = quarters.isFinite ? Int(min(max(quarters, 1), 4)) : 1
        let step = sweep / Double(count)
        let handle = 4.0 / 3.0 * tan(step / 4)
        for index in 0..<count {
            let a0 = startAngle + step * Double(index)
            let a1 = a0 + step
            let (c0, s0, c1, s1) = (cos(a0), sin(a0), cos(a1), sin(a1))
            path.addCurve(to: point(c1, s1),
                          control1: point(c0 - handle * s0, s0 + handle * c0),
                          control2: point(c1 + handle * s1, s1 - handle * c1))
        }
    }

    /// Maps a point of the unit circle onto the ellipse.
    private func point(_ x: Double, _ y: Double) -> CGPoint {
        let (ex, ey) = (radiusX * x, radiusY * y)
        let (cr, sr) = (cos(rotation), sin(rotation))
        return CGPoint(x: Double(center.x) + cr * ex - sr * ey, y: Double(center.y) + sr * ex + cr * ey)
    }
}
