import COverlayGraphics
import Foundation

/// Owner of a `cairo_t` drawing on a ``CairoSurface``: the drawing steps of a layer, in Swift terms.
///
/// `context` is read by the text and SVG painters (``PangoTextEngine``, ``SVGDocument``) to hand to
/// Pango and librsvg; nothing else leaves this type.
final class CairoCanvas {
    let context: OpaquePointer

    init?(drawingOn target: CairoSurface) {
        guard let context = cairo_create(target.surface) else { return nil }
        self.context = context
        guard cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(context)
            return nil
        }
    }

    deinit { cairo_destroy(context) }

    /// nil while every step has succeeded; Cairo ignores all drawing after its first error.
    var failure: String? {
        let status = cairo_status(context)
        guard status != CAIRO_STATUS_SUCCESS, let text = cairo_status_to_string(status) else { return nil }
        return String(cString: text)
    }

    func save() { cairo_save(context) }
    func restore() { cairo_restore(context) }

    /// Later drawing is mapped through `transform`, then through what was already in effect.
    func concatenate(_ transform: LayerTransform) {
        guard !transform.isIdentity else { return }
        // A singular matrix (a scale of 0) would put Cairo in an error state: draw nothing instead.
        guard transform.a * transform.d - transform.b * transform.c != 0 else { return clipToNothing() }
        var matrix = cairo_matrix_t(xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d,
                                    x0: transform.tx, y0: transform.ty)
        cairo_transform(context, &matrix)
    }

    private func clipToNothing() {
        cairo_new_path(context)
        cairo_rectangle(context, 0, 0, 0, 0)
        cairo_clip(context)
    }

    /// Everything drawn until ``paintGroup(opacity:)`` is composed apart, then faded as one.
    func beginGroup() {
        cairo_push_group(context)
        groupDepth += 1
    }

    func paintGroup(opacity: Double) {
        cairo_pop_group_to_source(context)
        cairo_paint_with_alpha(context, opacity)
        groupDepth -= 1
    }

    /// Groups begun and not yet painted.
    private(set) var groupDepth = 0

    /// Draws `recording` with its origin at (`x`, `y`).
    func paint(_ recording: CairoSurface, atX x: Double, y: Double) {
        cairo_set_source_surface(context, recording.surface, x, y)
        cairo_paint(context)
    }

    /// Blends `image` pixel for pixel with its top-left corner at device pixel (`x`, `y`), whatever
    /// the transform (whole pixels: nothing is resampled). Outside groups only: replayed inside one,
    /// Cairo 1.16 drops an edge column of such an image.
    func paintPixels(_ image: CairoSurface, atDeviceX x: Double, y: Double) {
        cairo_save(context)
        cairo_identity_matrix(context)
        cairo_set_source_surface(context, image.surface, x, y)
        cairo_paint(context)
        cairo_restore(context)
    }

    func setColor(_ color: Color) {
        func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        cairo_set_source_rgba(context, unit(color.red), unit(color.green), unit(color.blue), unit(color.alpha))
    }

    /// Replaces the current path with `path`.
    func setPath(_ path: VectorPath) {
        cairo_new_path(context)
        var current = CGPoint.zero
        var subpathStart = CGPoint.zero
        for element in path.elements {
            switch element {
            case .move(let point):
                cairo_move_to(context, Double(point.x), Double(point.y))
                (current, subpathStart) = (point, point)
            case .line(let point):
                cairo_line_to(context, Double(point.x), Double(point.y))
                current = point
            case .quadCurve(let point, let control):
                // The cubic with the same curve: controls two thirds of the way to the quadratic's control.
                let c1 = CGPoint(x: current.x + (control.x - current.x) * 2 / 3, y: current.y + (control.y - current.y) * 2 / 3)
                let c2 = CGPoint(x: point.x + (control.x - point.x) * 2 / 3, y: point.y + (control.y - point.y) * 2 / 3)
                cairo_curve_to(context, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(point.x), Double(point.y))
                current = point
            case .curve(let point, let control1, let control2):
                cairo_curve_to(context, Double(control1.x), Double(control1.y), Double(control2.x), Double(control2.y),
                               Double(point.x), Double(point.y))
                current = point
            case .closeSubpath:
                cairo_close_path(context)
                current = subpathStart
            }
        }
    }

    func fill(_ rule: FillRule) {
        cairo_set_fill_rule(context, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(context)
    }

    /// Strokes the current path with the layer's line settings.
    func stroke(_ style: StrokeStyle) {
        cairo_set_line_width(context, style.width)
        cairo_set_line_cap(context, style.cap.cairo)
        cairo_set_line_join(context, style.join.cairo)
        cairo_set_miter_limit(context, style.miterLimit)
        if style.dashes.contains(where: { $0 > 0 }) {
            cairo_set_dash(context, style.dashes, Int32(style.dashes.count), style.dashPhase)
        } else {
            cairo_set_dash(context, nil, 0, 0)
        }
        cairo_stroke(context)
    }

    /// Replaces the current path with the part of it between two fractions of its length (`CAShapeLayer`'s
    /// strokeStart/strokeEnd). Curves are flattened by Cairo to its tolerance, so lengths are exact to
    /// a tenth of a pixel; a closed subpath drawn whole stays closed (a join, not two caps).
    func trimPath(from start: Double, to end: Double) {
        guard let flat = cairo_copy_path_flat(context) else { return cairo_new_path(context) }
        defer { cairo_path_destroy(flat) }
        cairo_new_path(context)
        guard flat.pointee.status == CAIRO_STATUS_SUCCESS, let data = flat.pointee.data else { return }
        let polylines = Polyline.read(data, count: Int(flat.pointee.num_data))
        let total = polylines.reduce(0) { $0 + $1.length }
        guard total > 0 else { return }
        let (from, to) = (start * total, end * total)
        var walked = 0.0
        for polyline in polylines {
            defer { walked += polyline.length }
            guard walked + polyline.length > from, walked < to else { continue }
            if polyline.isClosed, walked >= from, walked + polyline.length <= to {
                polyline.append(to: context, closed: true)
                continue
            }
            var penDown = false
            var position = walked
            for (a, b) in zip(polyline.points, polyline.points.dropFirst()) {
                let length = hypot(b.x - a.x, b.y - a.y)
                defer { position += length }
                guard length > 0, position + length > from, position < to else { continue }
                let t0 = max(0, (from - position) / length), t1 = min(1, (to - position) / length)
                if !penDown {
                    cairo_move_to(context, a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0)
                    penDown = true
                }
                cairo_line_to(context, a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
            }
        }
    }
}

/// How a path is stroked.
struct StrokeStyle {
    var width: Double
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double
    var dashes: [Double]
    var dashPhase: Double
}

/// One flattened subpath; a closed one repeats its first point at the end.
private struct Polyline {
    var points: [(x: Double, y: Double)] = []
    var isClosed = false

    var length: Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    func append(to context: OpaquePointer, closed: Bool) {
        guard let first = points.first else { return }
        cairo_move_to(context, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
        if closed { cairo_close_path(context) }
    }

    /// Splits Cairo's flattened path data (move, line and close only) into subpaths.
    static func read(_ data: UnsafeMutablePointer<cairo_path_data_t>, count: Int) -> [Polyline] {
        var polylines: [Polyline] = []
        var current = Polyline()
        var index = 0
        func finish() {
            if current.points.count > 1 { polylines.append(current) }
            let last = current.points.last
            current = Polyline()
            if let last { current.points = [last] }   // Cairo continues from a closed subpath's start
        }
        while index < count {
            let header = data[index].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                finish()
                current.points = [(data[index + 1].point.x, data[index + 1].point.y)]
            case CAIRO_PATH_LINE_TO:
                current.points.append((data[index + 1].point.x, data[index + 1].point.y))
            case CAIRO_PATH_CLOSE_PATH:
                if let first = current.points.first {
                    current.points.append(first)
                    current.isClosed = true
                }
                finish()
            default:
                break
            }
            index += max(1, Int(header.length))
        }
        finish()
        return polylines
    }
}

extension LineCap {
    fileprivate var cairo: cairo_line_cap_t {
        switch self {
        case .butt: return CAIRO_LINE_CAP_BUTT
        case .round: return CAIRO_LINE_CAP_ROUND
        case .square: return CAIRO_LINE_CAP_SQUARE
        }
    }
}

extension LineJoin {
    fileprivate var cairo: cairo_line_join_t {
        switch self {
        case .miter: return CAIRO_LINE_JOIN_MITER
        case .round: return CAIRO_LINE_JOIN_ROUND
        case .bevel: return CAIRO_LINE_JOIN_BEVEL
        }
    }
}
