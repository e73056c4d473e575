import LoopPlayerCore

/// Brightness and contrast, kept apart from the filter stack (the model's two `CIColorControls`).
///
/// Pixel math on 8-bit luma code values, centred on mid-grey, rounded to nearest and clamped:
/// `Y' = clamp(round((Y − 128)·contrast + 128 + brightness·255), 0, 255)`; chroma is left alone.
/// So brightness 0.1 adds 25.5 levels, contrast 2 doubles every distance from 128. The player applies
/// exactly this after the filter stack: a table over luma (`LumaAdjuster`), or for other formats a
/// libavfilter `lutyuv` (`lumaExpression`).
package struct ColorAdjustment: Sendable, Equatable {
    package static let brightnessRange = PropertyLimits.brightness
    package static let contrastRange = PropertyLimits.contrast

    /// −1 (black) … 1 (white); 0 leaves the picture alone. Clamped.
    package var brightness: Float { didSet { brightness = Self.clamp(brightness, to: Self.brightnessRange, default: 0) } }
    /// 0 (flat grey) … 4; 1 leaves the picture alone. Clamped.
    package var contrast: Float { didSet { contrast = Self.clamp(contrast, to: Self.contrastRange, default: 1) } }

    package init(brightness: Float = 0, contrast: Float = 1) {
        self.brightness = Self.clamp(brightness, to: Self.brightnessRange, default: 0)
        self.contrast = Self.clamp(contrast, to: Self.contrastRange, default: 1)
    }

    package var isIdentity: Bool { brightness == 0 && contrast == 1 }

    /// The adjusted 8-bit luma value, computed exactly as `lutyuv` evaluates `lumaExpression` (in
    /// double precision, with the expression's six-decimal constants, halves rounded up), so the
    /// table and the graph give the same picture to the level.
    package func adjust(luma: UInt8) -> UInt8 {
        let contrast = Double(String(format: "%.6f", self.contrast)) ?? 1
        let brightness = Double(String(format: "%.6f", self.brightness)) ?? 0
        let value = ((Double(luma) - 128) * contrast + 128 + brightness * 255 + 0.5).rounded(.down)
        return UInt8(max(0, min(255, value)))
    }

    /// `adjust(luma:)` for every 8-bit value (what `LumaAdjuster` maps luma through).
    package var lumaTable: [UInt8] { (0...255).map { adjust(luma: UInt8($0)) } }

    /// The same math as a libavfilter expression of `val`, for `lutyuv` (as a command argument;
    /// inside a graph string its commas must be escaped).
    package var lumaExpression: String {
        String(format: "clip(floor((val-128)*%.6f+128+%.6f*255+0.5),0,255)", contrast, brightness)
    }

    private static func clamp(_ value: Float, to range: ClosedRange<Float>, default fallback: Float) -> Float {
        value.isNaN ? fallback : min(max(value, range.lowerBound), range.upperBound)
    }
}
