import Foundation
import LoopPlayerCore

/// Rasterises overlay layers and the player's error text into ``OverlayImage``s, with Cairo, Pango and librsvg.
///
/// ```swift
/// let rasterizer = OverlayRasterizer()
/// let geometry = LayerGeometry(width: 1280, height: 720)
/// var badge = ShapeLayer(path: VectorPath(ellipseIn: CGRect(x: 20, y: 20, width: 40, height: 40)), fillColor: .red)
/// badge.animations = [LayerAnimation(.opacity(from: 1, to: 0.2), duration: 1, repeatCount: .infinity, autoreverses: true)]
/// if let image = try rasterizer.render(badge, in: geometry, at: 0.5) {
///     // image.x == 20, image.y == 20, image.width == 40: only the badge's pixels
/// }
/// ```
///
/// Not thread-safe: use one rasterizer from one thread at a time (the player's main thread). It keeps
/// parsed SVG files (re-read when they change) and a Pango font map between calls.
package final class OverlayRasterizer {
    /// The player area is drawn up to this many pixels wide and high; beyond it nothing is drawn.
    package static let maximumAreaSide = 8192
    /// ``LayerGeometry/scale`` is clamped to this range.
    package static let scaleRange = 0.25...8.0

    private let svgDocuments = SVGDocumentCache()
    private var textEngine: PangoTextEngine?

    package init() {}

    /// Renders `layer` as it looks at `time` (seconds since it was added; see ``ShapeLayer/resolved(at:)``).
    ///
    /// The image covers only the layer's visible pixels, clipped to the player area (`geometry.bounds`);
    /// nil when nothing is visible (an empty path, zero opacity, everything outside the area).
    /// Throws ``OverlayError/invalidLayer(reason:)`` for a NaN or infinite number anywhere in the layer,
    /// its animations' results or the geometry, and the SVG errors for an SVG that cannot be drawn.
    package func render(_ layer: ShapeLayer, in geometry: LayerGeometry, at time: Double = 0)
        throws(OverlayError) -> OverlayImage? {
        guard time.isFinite else { throw .invalidLayer(reason: "the time \(time) is not finite") }
        try layer.checkNesting()
        let still = layer.resolved(at: time)
        try still.validate()
        return try rasterize(still, in: geometry)
    }

    /// The player's error message, centred in the area and wrapped to its width, readable on any picture.
    ///
    /// ```swift
    /// let image = rasterizer.renderErrorText("Source not found: swipe.mp4", color: .red, fontSize: 17, in: geometry)
    /// ```
    /// `points` follow ``TextContent/fontSize`` (1/96 inch, times `geometry.scale`; NaN or infinite
    /// counts as 17). Nil when the area is empty or the message is.
    package func renderErrorText(_ message: String, color: Color, fontSize points: Double,
                                in geometry: LayerGeometry) -> OverlayImage? {
        let bounds = geometry.bounds
        let scale = Self.clampedScale(geometry.scale)
        let margin = min(16 * scale, Double(bounds.width) / 8, Double(bounds.height) / 8)
        let text = TextContent(message, fontSize: points.isFinite ? points : 17, color: color, alignment: .center,
                               anchor: .rect(bounds.insetBy(dx: margin, dy: margin)))
        return renderPlayerText(text, opacity: 1, in: geometry)
    }

    /// A short message (mpv's OSD) in the area's top-left corner: white with a dark outline, sized
    /// to the area's height (as mpv scales its OSD), at `opacity`. Nil when the area or the text is empty.
    package func renderMessage(_ message: String, opacity: Double, in geometry: LayerGeometry) -> OverlayImage? {
        let bounds = geometry.bounds
        let scale = Self.clampedScale(geometry.scale)
        let height = Double(bounds.height)
        // mpv: 55 units of a 720-line screen, which draw about 5 % of the height; readable at 12 px.
        let pixels = min(max(height * 0.05, 12), 96)
        let margin = max(height * 0.035, 4)
        let text = TextContent(message, fontSize: pixels / scale, color: .white, alignment: .left,
                               anchor: .point(CGPoint(x: Double(bounds.minX) + margin, y: Double(bounds.minY) + margin)),
                               wrapWidth: max(Double(bounds.width) - 2 * margin, 1),
                               legibility: TextLegibility(outlineWidth: max(pixels / scale / 12, 1.5), outlineColor: .black,
                                                          shadowOffset: 0))
        return renderPlayerText(text, opacity: opacity, in: geometry)
    }

    /// The player's own text (not a user's layer): nothing to report when it cannot be drawn.
    private func renderPlayerText(_ text: TextContent, opacity: Double, in geometry: LayerGeometry) -> OverlayImage? {
        var layer = ShapeLayer(text: text)
        layer.opacity = min(max(opacity, 0), 1)
        do {
            try layer.validate()
            return try rasterize(layer, in: geometry)
        } catch {
            return nil
        }
    }

    /// Forgets parsed SVG documents (they are also re-read whenever their file changes).
    package func removeCachedDocuments() { svgDocuments.removeAll() }

    private func rasterize(_ layer: ShapeLayer, in geometry: LayerGeometry) throws(OverlayError) -> OverlayImage? {
        guard geometry.isFinite else { throw .invalidLayer(reason: "the geometry has a NaN or infinite number") }
        let width = Self.pixels(geometry.bounds.width), height = Self.pixels(geometry.bounds.height)
        guard width > 0, height > 0 else { return nil }
        guard let recording = CairoSurface.recording(width: width, height: height),
              let recorder = CairoCanvas(drawingOn: recording) else { throw Self.outOfMemory(width, height) }
        let painter = LayerPainter(canvas: recorder, scale: Self.clampedScale(geometry.scale),
                                   svgDocuments: svgDocuments, textEngine: pangoTextEngine)
        try painter.draw(layer)
        if let failure = recorder.failure { throw .invalidLayer(reason: "Cairo could not draw it: \(failure)") }

        guard let ink = recording.inkExtents() else { return nil }
        let left = max(ink.x, 0), top = max(ink.y, 0)
        let right = min(ink.x + ink.width, width), bottom = min(ink.y + ink.height, height)
        guard right > left, bottom > top else { return nil }
        switch recording.replay(x: left, y: top, width: right - left, height: bottom - top) {
        case .image(let image): return image
        case .failed(let failure): throw .invalidLayer(reason: "Cairo could not draw it: \(failure)")
        }
    }

    private func pangoTextEngine() throws(OverlayError) -> PangoTextEngine {
        if let textEngine { return textEngine }
        guard let engine = PangoTextEngine() else { throw .invalidLayer(reason: "Pango could not create a font map") }
        textEngine = engine
        return engine
    }

    private static func pixels(_ length: CGFloat) -> Int {
        let value = Double(length)
        guard value >= 1 else { return 0 }
        return Int(min(value.rounded(.up), Double(maximumAreaSide)))
    }

    private static func clampedScale(_ scale: Double) -> Double {
        scale.isNaN ? 1 : min(max(scale, scaleRange.lowerBound), scaleRange.upperBound)
    }

    private static func outOfMemory(_ width: Int, _ height: Int) -> OverlayError {
        .invalidLayer(reason: "Cairo could not make a \(width)×\(height) surface (out of memory)")
    }
}
