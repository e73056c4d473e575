import Foundation

/// Animates one property of a ``ShapeLayer`` from one value to another (`CABasicAnimation`).
///
/// ```swift
/// // Draw the outline in 1.5 s, once.
/// LayerAnimation(.strokeEnd(from: 0, to: 1), duration: 1.5, timing: .easeInEaseOut)
/// // Pulse forever: 1 → 0.3 → 1 every 2 s.
/// LayerAnimation(.opacity(from: 1, to: 0.3), duration: 1, repeatCount: .infinity, autoreverses: true)
/// // Spin about the shape's centre, starting 2 s after the layer appears.
/// LayerAnimation(.rotation(from: 0, to: 2 * .pi, about: CGPoint(x: 100, y: 100)), duration: 4, beginTime: 2)
/// ```
///
/// Times are seconds since the layer was added. Before `beginTime` the property holds the `from` value;
/// after the last repetition it holds the final value (`to`, or `from` when it autoreverses), so a
/// finished layer stops changing.
public struct LayerAnimation: Sendable, Equatable {
    /// The animated property with its start and end values.
    public enum Property: Sendable, Equatable {
        /// The layer's opacity, 0…1.
        case opacity(from: Double, to: Double)
        /// Where the stroke starts, as a fraction of the path's length.
        case strokeStart(from: Double, to: Double)
        /// Where the stroke ends, as a fraction of the path's length (0 → 1 draws the outline).
        case strokeEnd(from: Double, to: Double)
        /// The stroke's width, in pixels.
        case lineWidth(from: Double, to: Double)
        /// The offset into the dash pattern, in pixels (animating it makes the dashes march).
        case lineDashPhase(from: Double, to: Double)
        /// The fill colour, blended component by component.
        case fillColor(from: Color, to: Color)
        /// The stroke colour, blended component by component.
        case strokeColor(from: Color, to: Color)
        /// Moves the layer's content, in its own coordinates (before ``ShapeLayer/transform``).
        case translation(from: CGPoint, to: CGPoint)
        /// Scales the layer's content uniformly about a point of its own coordinates.
        case scale(from: Double, to: Double, about: CGPoint)
        /// Rotates the layer's content about a point of its own coordinates; radians, clockwise on screen.
        case rotation(from: Double, to: Double, about: CGPoint)
        /// Morphs the path; both paths need the same elements in the same order
        /// (the same commands in the same order), otherwise it switches from one to the other halfway.
        case path(from: VectorPath, to: VectorPath)
    }

    /// What changes, with its start and end values.
    public var property: Property
    /// Seconds for one pass from `from` to `to`; 0 jumps to the final value at `beginTime`.
    public var duration: Double
    /// Seconds after the layer was added.
    public var beginTime: Double
    /// Passes to play, fractions allowed; `.infinity` repeats forever; 0 counts as 1.
    public var repeatCount: Double
    /// Each pass plays forwards then backwards.
    public var autoreverses: Bool
    /// How progress is eased within each pass (`.linear` by default).
    public var timing: AnimationTiming

    /// An animation of `property`; see the properties for the meaning of each argument.
    public init(_ property: Property, duration: Double, beginTime: Double = 0, repeatCount: Double = 1,
                autoreverses: Bool = false, timing: AnimationTiming = .linear) {
        self.property = property
        self.duration = duration
        self.beginTime = beginTime
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.timing = timing
    }

    /// When the animation stops changing (seconds since the layer was added); nil if it never does.
    package var endTime: Double? {
        let end = beginTime + activeDuration
        if end.isFinite { return end }
        return activeDuration == .infinity ? nil : 0   // a begin time never reached: it holds `from` throughout
    }

    /// How far from `from` (0) to `to` (1) the property is at `time`, after the timing curve
    /// (an overshooting curve may leave 0…1).
    package func progress(at time: Double) -> Double {
        timing.value(at: linearProgress(at: time))
    }

    private var passes: Double { repeatCount > 0 ? repeatCount : 1 }
    private var isInstant: Bool { !(duration > 0) || !duration.isFinite }
    private var cycle: Double { autoreverses ? 2 * duration : duration }
    private var activeDuration: Double { isInstant ? 0 : cycle * passes }

    private func linearProgress(at time: Double) -> Double {
        let local = time - beginTime
        guard local > 0 else { return 0 }
        if isInstant { return autoreverses ? 0 : 1 }
        let active = activeDuration
        var inCycle: Double
        if local >= active {
            inCycle = active - cycle * (active / cycle).rounded(.down)
            if inCycle == 0 { inCycle = cycle }
        } else {
            inCycle = local.truncatingRemainder(dividingBy: cycle)
        }
        let linear = inCycle <= duration ? inCycle / duration : (cycle - inCycle) / duration
        return min(max(linear, 0), 1)
    }
}
