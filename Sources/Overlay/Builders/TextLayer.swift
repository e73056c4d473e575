import Foundation

/// Builds a layer showing text at the top-left of the player area, wrapped to its width and readable on
/// any picture (outline and shadow): what `loopplay --overlay-text` draws.
///
/// ```swift
/// player.send(.addVector(TextLayer("Camera 3 — Lobby", fontSize: 22, color: .yellow)))
/// ```
public struct TextLayer: ShapeLayerBuilderProtocol {
    /// Fixed when the builder is made, so the player can tell builders apart.
    public let id: UUID
    /// The text to show; it wraps at the area's width less the margins.
    public var text: String
    /// Points (1/96 inch), scaled by the display's scale.
    public var fontSize: Double
    /// The glyphs' colour (white by default).
    public var color: Color
    /// How bold the text is (`.regular` by default).
    public var weight: FontWeight
    /// Distance from the area's top and left edges, in points.
    public var margin: Double
    /// Outline and shadow around the glyphs (`.readable` by default).
    public var legibility: TextLegibility

    /// A builder showing `text`; pass a fixed `id` to keep its identity across rebuilds.
    public init(_ text: String, fontSize: Double = 17, color: Color = .white, weight: FontWeight = .regular,
                margin: Double = 16, legibility: TextLegibility = .readable, id: UUID = UUID()) {
        self.id = id
        self.text = text
        self.fontSize = fontSize
        self.color = color
        self.weight = weight
        self.margin = margin
        self.legibility = legibility
    }

    /// The text laid out in `bounds`, at scale 1 (the model's form has no display scale).
    public func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
        layer(in: geometry.bounds, scale: 1)
    }

    /// The text laid out in the area's bounds, margin and font scaled by the display's scale.
    public func build(in geometry: LayerGeometry) -> ShapeLayer {
        layer(in: geometry.bounds, scale: geometry.scale)
    }

    private func layer(in bounds: CGRect, scale: Double) -> ShapeLayer {
        let inset = margin * scale
        return ShapeLayer(text: TextContent(
            text, fontSize: fontSize, weight: weight, color: color, alignment: .left,
            anchor: .point(CGPoint(x: Double(bounds.minX) + inset, y: Double(bounds.minY) + inset)),
            wrapWidth: max(1, Double(bounds.width) - 2 * inset), legibility: legibility))
    }
}
