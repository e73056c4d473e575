import Foundation
import LoopPlayerCore

/// Draws a resolved ``ShapeLayer`` tree on a canvas: SVG, fill, stroke, text, sublayers, inside the
/// layer's transform and opacity group.
struct LayerPainter {
    let canvas: CairoCanvas
    /// Pixels per point, for font sizes.
    let scale: Double
    let svgDocuments: SVGDocumentCache
    let textEngine: () throws(OverlayError) -> PangoTextEngine

    func draw(_ layer: ShapeLayer) throws(OverlayError) {
        let opacity = min(max(layer.opacity, 0), 1)
        guard opacity > 0 else { return }
        canvas.save()
        defer { canvas.restore() }
        canvas.concatenate(layer.transform)
        let grouped = opacity < 1
        if grouped { canvas.beginGroup() }
        if let svg = layer.svg {
            try svgDocuments.document(at: svg.file).draw(fittedInto: svg.rect, on: canvas, path: svg.file)
        }
        if !layer.path.isEmpty {
            fill(layer)
            stroke(layer)
        }
        if let text = layer.text, !text.string.isEmpty {
            try textEngine().draw(text, scale: scale, on: canvas)
        }
        for sublayer in layer.sublayers { try draw(sublayer) }
        if grouped { canvas.paintGroup(opacity: opacity) }
    }

    private func fill(_ layer: ShapeLayer) {
        guard let color = layer.fillColor, color.alpha > 0 else { return }
        canvas.setPath(layer.path)
        canvas.setColor(color)
        canvas.fill(layer.fillRule)
    }

    private func stroke(_ layer: ShapeLayer) {
        guard let color = layer.strokeColor, color.alpha > 0, layer.lineWidth > 0 else { return }
        let start = min(max(layer.strokeStart, 0), 1), end = min(max(layer.strokeEnd, 0), 1)
        guard start < end else { return }
        canvas.setPath(layer.path)
        if start > 0 || end < 1 { canvas.trimPath(from: start, to: end) }
        canvas.setColor(color)
        canvas.stroke(StrokeStyle(width: layer.lineWidth, cap: layer.lineCap, join: layer.lineJoin,
                                  miterLimit: layer.miterLimit, dashes: layer.lineDashPattern,
                                  dashPhase: layer.lineDashPhase))
    }
}
