import Foundation

/// Builds a vector overlay layer for the player area: the type given to `PlaybackCommand.addVector`.
///
/// The player calls a builder on its own thread once the area's geometry is known (never with an empty
/// area) and again whenever it changes, so the layer can follow the window's size and the picture.
///
/// ```swift
/// struct Crosshair: ShapeLayerBuilderProtocol {
///     let id = UUID()
///     func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
///         let b = geometry.bounds
///         var path = VectorPath()
///         path.move(to: CGPoint(x: b.midX, y: b.minY)); path.addLine(to: CGPoint(x: b.midX, y: b.maxY))
///         path.move(to: CGPoint(x: b.minX, y: b.midY)); path.addLine(to: CGPoint(x: b.maxX, y: b.midY))
///         return ShapeLayer(path: path, fillColor: nil, strokeColor: .white, lineWidth: 2)
///     }
/// }
/// ```
/// Implement ``build(in:)`` as well to use the picture's rectangle or the display scale.
public protocol ShapeLayerBuilderProtocol: Identifiable, Sendable {
    /// The model's form: the player area (`frame`) and its size at the origin (`bounds`), in output pixels.
    func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer
    /// The richer form the player calls; by default it calls ``build(with:)``.
    func build(in geometry: LayerGeometry) -> ShapeLayer
}

extension ShapeLayerBuilderProtocol {
    /// Calls `build(with:)` with the area's `frame` and `bounds`; implement it to use more of `geometry`.
    public func build(in geometry: LayerGeometry) -> ShapeLayer {
        build(with: (frame: geometry.frame, bounds: geometry.bounds))
    }
}
