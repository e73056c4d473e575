import Foundation
import LoopPlayerCore

extension VectorPath {
    /// Parses SVG path data (the `d` attribute): every command of SVG 1.1, absolute and relative.
    ///
    /// ```swift
    /// let heart = try VectorPath(svgPathData: "M 50 30 C 50 0, 0 0, 0 30 C 0 60, 50 80, 50 95 C 50 80, 100 60, 100 30 C 100 0, 50 0, 50 30 Z")
    /// let tick = try VectorPath(svgPathData: "m10 50 l20 20 40-40")
    /// ```
    /// Elliptical arcs become cubic Béziers. Throws ``OverlayError/invalidLayer(reason:)`` naming the offset
    /// of the first character it cannot read.
    public init(svgPathData data: String) throws(OverlayError) {
        var parser = SVGPathDataParser(Array(data.utf8))
        self = try parser.parse()
    }
}

/// A recursive-descent reader of SVG path data, following the grammar of SVG 1.1 section 8.3.9.
private struct SVGPathDataParser {
    private let bytes: [UInt8]
    private var index = 0
    private var path = VectorPath()
    /// The pen, kept exactly (the path's own current point may differ by rounding after an arc).
    private var current = CGPoint.zero
    private var subpathStart = CGPoint.zero
    /// The control point the next S or T reflects, when the previous command was a curve of its kind.
    private var lastCubicControl: CGPoint?
    private var lastQuadControl: CGPoint?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parse() throws(OverlayError) -> VectorPath {
        skipSeparators()
        guard index < bytes.count else { return path }
        guard let first = command(), first == UInt8(ascii: "M") || first == UInt8(ascii: "m") else {
            throw failure("path data must start with a moveto (M or m)")
        }
        var letter = first
        while true {
            try run(letter)
            skipSeparators()
            guard index < bytes.count else { return path }
            if let next = command() {
                letter = next
            } else if letter == UInt8(ascii: "Z") || letter == UInt8(ascii: "z") {
                throw failure("a number cannot follow closepath")
            } else if letter == UInt8(ascii: "M") {
                letter = UInt8(ascii: "L")   // pairs after a moveto are linetos
            } else if letter == UInt8(ascii: "m") {
                letter = UInt8(ascii: "l")
            }
        }
    }

    /// One command with its parameters.
    private mutating func run(_ letter: UInt8) throws(OverlayError) {
        let relative = letter >= UInt8(ascii: "a")
        let base = relative ? current : .zero
        func offset(_ point: CGPoint) -> CGPoint { CGPoint(x: base.x + point.x, y: base.y + point.y) }
        var cubicControl: CGPoint?
        var quadControl: CGPoint?
        switch letter | 0x20 {
        case UInt8(ascii: "m"):
            let point = offset(try pair())
            path.move(to: point)
            (current, subpathStart) = (point, point)
        case UInt8(ascii: "l"):
            current = offset(try pair())
            path.addLine(to: current)
        case UInt8(ascii: "h"):
            current = CGPoint(x: base.x + CGFloat(try number()), y: current.y)
            path.addLine(to: current)
        case UInt8(ascii: "v"):
            current = CGPoint(x: current.x, y: base.y + CGFloat(try number()))
            path.addLine(to: current)
        case UInt8(ascii: "c"):
            let control1 = offset(try pair()), control2 = offset(try pair()), end = offset(try pair())
            path.addCurve(to: end, control1: control1, control2: control2)
            (current, cubicControl) = (end, control2)
        case UInt8(ascii: "s"):
            let control1 = reflected(lastCubicControl)
            let control2 = offset(try pair()), end = offset(try pair())
            path.addCurve(to: end, control1: control1, control2: control2)
            (current, cubicControl) = (end, control2)
        case UInt8(ascii: "q"):
            let control = offset(try pair()), end = offset(try pair())
            path.addQuadCurve(to: end, control: control)
            (current, quadControl) = (end, control)
        case UInt8(ascii: "t"):
            let control = reflected(lastQuadControl)
            let end = offset(try pair())
            path.addQuadCurve(to: end, control: control)
            (current, quadControl) = (end, control)
        case UInt8(ascii: "a"):
            let radiusX = try number(), radiusY = try number(), rotation = try number()
            let largeArc = try flag(), sweep = try flag()
            let end = offset(try pair())
            addArc(to: end, radiusX: radiusX, radiusY: radiusY, rotationDegrees: rotation, largeArc: largeArc, sweep: sweep)
            current = end
        case UInt8(ascii: "z"):
            path.closeSubpath()
            current = subpathStart
        default:
            throw failure("unknown command")
        }
        (lastCubicControl, lastQuadControl) = (cubicControl, quadControl)
    }

    /// The previous control point mirrored about the pen, or the pen itself.
    private func reflected(_ control: CGPoint?) -> CGPoint {
        guard let control else { return current }
        return CGPoint(x: 2 * current.x - control.x, y: 2 * current.y - control.y)
    }

    /// SVG's endpoint arc, converted to centre form (SVG 1.1 implementation notes, F.6.5 and F.6.6).
    private mutating func addArc(to end: CGPoint, radiusX: Double, radiusY: Double, rotationDegrees: Double,
                                 largeArc: Bool, sweep: Bool) {
        let (x1, y1, x2, y2) = (Double(current.x), Double(current.y), Double(end.x), Double(end.y))
        guard x1 != x2 || y1 != y2 else { return }
        var (rx, ry) = (abs(radiusX), abs(radiusY))
        guard rx > 0, ry > 0 else { return path.addLine(to: end) }
        let phi = rotationDegrees * .pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        let (dx, dy) = ((x1 - x2) / 2, (y1 - y2) / 2)
        let (px, py) = (cosPhi * dx + sinPhi * dy, -sinPhi * dx + cosPhi * dy)
        let lambda = px * px / (rx * rx) + py * py / (ry * ry)
        if lambda > 1 { (rx, ry) = (rx * lambda.squareRoot(), ry * lambda.squareRoot()) }
        let numerator = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px
        let denominator = rx * rx * py * py + ry * ry * px * px
        let coefficient = (largeArc != sweep ? 1.0 : -1.0) * max(0, numerator / denominator).squareRoot()
        let (cxPrime, cyPrime) = (coefficient * rx * py / ry, -coefficient * ry * px / rx)
        let center = CGPoint(x: cosPhi * cxPrime - sinPhi * cyPrime + (x1 + x2) / 2,
                             y: sinPhi * cxPrime + cosPhi * cyPrime + (y1 + y2) / 2)
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let (ux, uy) = ((px - cxPrime) / rx, (py - cyPrime) / ry)
        let (vx, vy) = ((-px - cxPrime) / rx, (-py - cyPrime) / ry)
        let start = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep, delta > 0 { delta -= 2 * .pi }
        if sweep, delta < 0 { delta += 2 * .pi }
        EllipticalArc(center: center, radiusX: rx, radiusY: ry, rotation: phi, startAngle: start, sweep: delta)
            .appendCurves(to: &path)
    }

    // MARK: Tokens

    private mutating func skipSeparators() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ",")].contains(bytes[index]) { index += 1 }
    }

    /// A command letter at the cursor, consumed; nil when the next token is not one.
    private mutating func command() -> UInt8? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        guard "MmZzLlHhVvCcSsQqTtAa".utf8.contains(byte) else { return nil }
        index += 1
        return byte
    }

    private mutating func pair() throws(OverlayError) -> CGPoint {
        let x = try number()
        return CGPoint(x: x, y: try number())
    }

    /// An arc flag: a single 0 or 1, which may touch the next number ("a10 10 0 0110 10").
    private mutating func flag() throws(OverlayError) -> Bool {
        skipSeparators()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            throw failure("expected an arc flag (0 or 1)")
        }
        index += 1
        return bytes[index - 1] == UInt8(ascii: "1")
    }

    /// A number: sign, digits, fraction, exponent. "1.5.5" is two numbers, "1-2" too.
    private mutating func number() throws(OverlayError) -> Double {
        skipSeparators()
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else {
            index = start
            throw failure("expected a number")
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            let mark = index
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { index = mark }
        }
        guard let text = String(bytes: bytes[start..<index], encoding: .utf8), let value = Double(text) else {
            index = start
            throw failure("expected a number")
        }
        return value
    }

    private func failure(_ what: String) -> OverlayError {
        .invalidLayer(reason: "SVG path data: \(what) at offset \(index)")
    }
}
