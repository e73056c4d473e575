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
    public var text: String
    /// Points (1/96 inch), scaled by the display's scale.
    public var fontSize: Double
    public var color: Color
    public var weight: FontWeight
    /// Distance from the area's top and left edges, in points.
    public var margin: Double
    public var legibility: TextLegibility

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

    public func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
        layer(in: geometry.bounds, scale: 1)
    }

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
