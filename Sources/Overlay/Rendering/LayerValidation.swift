import Foundation
import LoopPlayerCore

/// Checks that keep bad numbers away from Cairo and Pango: a NaN coordinate or size is an error, not a
/// silently broken drawing.
extension ShapeLayer {
    /// Deeper sublayer trees are rejected (each level costs a Cairo state and maybe a group surface).
    static let maximumNesting = 32

    /// Throws when sublayers nest deeper than ``maximumNesting``; recursion stops at the limit.
    func checkNesting(depth: Int = 0) throws(OverlayError) {
        guard depth < Self.maximumNesting else {
            throw .invalidLayer(reason: "sublayers nested deeper than \(Self.maximumNesting) levels")
        }
        for sublayer in sublayers { try sublayer.checkNesting(depth: depth + 1) }
    }

    /// Throws for the first non-finite number or negative dash found in this layer or its sublayers.
    func validate() throws(OverlayError) {
        func require(_ condition: Bool, _ what: String) throws(OverlayError) {
            if !condition { throw .invalidLayer(reason: "\(what) is NaN or infinite") }
        }
        try require(path.isFinite, "a path coordinate")
        try require(lineWidth.isFinite, "lineWidth")
        try require(lineDashPattern.allSatisfy(\.isFinite), "a lineDashPattern length")
        guard lineDashPattern.allSatisfy({ $0 >= 0 }) else {
            throw .invalidLayer(reason: "lineDashPattern has a negative length")
        }
        try require(lineDashPhase.isFinite, "lineDashPhase")
        try require(miterLimit.isFinite, "miterLimit")
        try require(strokeStart.isFinite && strokeEnd.isFinite, "strokeStart or strokeEnd")
        try require(opacity.isFinite, "opacity")
        try require(transform.isFinite, "a transform component")
        if let text {
            try require(text.fontSize.isFinite, "the font size")
            try require(text.wrapWidth?.isFinite ?? true, "the wrap width")
            try require(text.legibility.outlineWidth.isFinite && text.legibility.shadowOffset.isFinite,
                        "the outline width or shadow offset")
            switch text.anchor {
            case .point(let point): try require(point.isFinite, "the text anchor")
            case .rect(let rect): try require(rect.isFinite, "the text rectangle")
            }
        }
        if let svg { try require(svg.rect.isFinite, "the SVG rectangle") }
        for sublayer in sublayers { try sublayer.validate() }
    }
}

extension CGPoint {
    var isFinite: Bool { Double(x).isFinite && Double(y).isFinite }
}

extension CGRect {
    var isFinite: Bool { origin.isFinite && Double(width).isFinite && Double(height).isFinite }
}
