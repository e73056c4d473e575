import Foundation

/// Builds a layer drawing an SVG file fitted into the picture's rectangle (aspect kept, centred):
/// logos and signage art that follow the video when the window is resized.
///
/// ```swift
/// player.send(.addVector(SVGLayer(file: "/srv/signage/frame.svg")))
/// ```
public struct SVGLayer: ShapeLayerBuilderProtocol {
    /// Fixed when the builder is made, so the player can tell builders apart.
    public let id: UUID
    /// Path of the SVG file to draw.
    public var file: String
    /// 0…1, applied to the whole picture.
    public var opacity: Double

    /// A builder drawing `file` at `opacity`; pass a fixed `id` to keep its identity across rebuilds.
    public init(file: String, opacity: Double = 1, id: UUID = UUID()) {
        self.id = id
        self.file = file
        self.opacity = opacity
    }

    /// Without the picture's rectangle, the SVG is fitted into the whole area.
    public func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
        layer(fittedInto: geometry.bounds)
    }

    /// The SVG fitted into the picture's rectangle (`videoRect`), not the whole area.
    public func build(in geometry: LayerGeometry) -> ShapeLayer {
        layer(fittedInto: geometry.videoRect)
    }

    private func layer(fittedInto rect: CGRect) -> ShapeLayer {
        var layer = ShapeLayer(svg: SVGContent(file: file, in: rect))
        layer.opacity = opacity
        return layer
    }
}
