/// How an animation's progress speeds up and slows down (`CAMediaTimingFunction`'s curves).
///
/// ```swift
/// LayerAnimation(.opacity(from: 0, to: 1), duration: 0.5, timing: .easeOut)
/// LayerAnimation(.strokeEnd(from: 0, to: 1), duration: 2, timing: .cubicBezier(0.68, -0.55, 0.27, 1.55))
/// ```
public enum AnimationTiming: Sendable, Equatable {
    /// Constant speed: progress follows time.
    case linear
    /// Starts slowly: cubic Bézier (0.42, 0, 1, 1).
    case easeIn
    /// Ends slowly: cubic Bézier (0, 0, 0.58, 1).
    case easeOut
    /// Starts and ends slowly: cubic Bézier (0.42, 0, 0.58, 1).
    case easeInEaseOut
    /// A CSS-style curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2); x1 and x2 are
    /// clamped to 0…1 so time only moves forward, y1 and y2 may overshoot.
    case cubicBezier(Double, Double, Double, Double)

    /// The eased progress for a linear progress `x` in 0…1.
    package func value(at x: Double) -> Double {
        let x = x.isNaN ? 0 : min(max(x, 0), 1)
        switch self {
        case .linear: return x
        case .easeIn: return Self.bezier(x, 0.42, 0, 1, 1)
        case .easeOut: return Self.bezier(x, 0, 0, 0.58, 1)
        case .easeInEaseOut: return Self.bezier(x, 0.42, 0, 0.58, 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            guard [x1, y1, x2, y2].allSatisfy(\.isFinite) else { return x }
            return Self.bezier(x, min(max(x1, 0), 1), y1, min(max(x2, 0), 1), y2)
        }
    }

    /// y of the curve where its x equals `x`: Newton's method from s = x, bisection if it stalls.
    private static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        if x == 0 || x == 1 { return x }
        func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
        }
        func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * p1 + 6 * r * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var s = x
        for _ in 0..<8 {
            let error = coordinate(s, x1, x2) - x
            if abs(error) < 1e-9 { return coordinate(s, y1, y2) }
            let derivative = slope(s, x1, x2)
            if abs(derivative) < 1e-6 { break }
            s -= error / derivative
        }
        var (low, high) = (0.0, 1.0)
        s = x
        for _ in 0..<60 {
            let value = coordinate(s, x1, x2)
            if abs(value - x) < 1e-9 { break }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return coordinate(s, y1, y2)
    }
}
