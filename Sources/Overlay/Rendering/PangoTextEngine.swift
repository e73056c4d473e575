import COverlayGraphics
import Foundation

/// Owner of a Pango font map and context: lays out ``TextContent`` and draws it with pangocairo.
///
/// A private font map (not Pango's per-thread default) keeps the rasterizer's font cache its own.
final class PangoTextEngine {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    private let images = TextImageCache()

    init?() {
        guard let fontMap = pango_cairo_font_map_new() else { return nil }
        guard let context = pango_font_map_create_context(fontMap) else {
            g_object_unref(fontMap)
            return nil
        }
        self.fontMap = fontMap
        self.context = context
        // Unhinted outlines and metrics: the layout does not depend on where or how it is transformed.
        if let options = cairo_font_options_create() {
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
            pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
        }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    /// Draws `text` on `canvas` in its current transform: shadow, then outline, then the glyphs.
    /// `scale` converts points to pixels. Text drawn the same way before is painted from its kept
    /// pixels (``TextImageCache``), unless it is inside a faded group.
    func draw(_ text: TextContent, scale: Double, on canvas: CairoCanvas) {
        guard canvas.groupDepth == 0 else { return drawGlyphs(text, scale: scale, on: canvas) }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(canvas.context, &matrix)
        let placement = TextImageCache.Placement(matrix)
        let key = TextImageCache.Key(text: text, scale: scale, matrix: placement.values)
        var kept = images.entry(for: key)
        if kept == nil, images.isRepeated(key) {
            kept = TextImageCache.render(key, residual: placement.residual) { drawGlyphs(text, scale: scale, on: $0) }
            if let kept { images.keep(kept) } else { images.refuse(key) }
        }
        guard let kept else { return drawGlyphs(text, scale: scale, on: canvas) }
        canvas.paintPixels(kept.image, atDeviceX: placement.shiftX + Double(kept.x), y: placement.shiftY + Double(kept.y))
    }

    private func drawGlyphs(_ text: TextContent, scale: Double, on canvas: CairoCanvas) {
        let cr = canvas.context
        pango_cairo_update_context(cr, context)
        guard let layout = pango_layout_new(context) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let points = min(max(text.fontSize, 1), TextContent.maximumFontSize)
        configure(layout, text, pixelSize: points * scale)

        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let origin = placement(of: text, logicalWidth: Double(logical.width), logicalHeight: Double(logical.height))

        let legibility = text.legibility
        let outline = max(legibility.outlineWidth, 0) * scale
        let shadow = max(legibility.shadowOffset, 0) * scale
        cairo_save(cr)
        cairo_translate(cr, origin.x, origin.y)
        if shadow > 0 {
            cairo_save(cr)
            cairo_translate(cr, shadow, shadow)
            tracePath(of: layout, on: cr)
            canvas.setColor(legibility.shadow(for: text.color))
            if outline > 0 {
                cairo_fill_preserve(cr)
                strokeOutline(on: cr, width: outline)
            } else {
                cairo_fill(cr)
            }
            cairo_restore(cr)
        }
        if outline > 0 {
            tracePath(of: layout, on: cr)
            canvas.setColor(legibility.outline(for: text.color))
            strokeOutline(on: cr, width: outline)
        }
        cairo_new_path(cr)
        cairo_move_to(cr, 0, 0)
        canvas.setColor(text.color)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    /// U+FDD0…U+FDEF and the last two code points of every plane.
    static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }

    private func configure(_ layout: OpaquePointer, _ text: TextContent, pixelSize: Double) {
        guard let font = pango_font_description_new() else { return }
        defer { pango_font_description_free(font) }
        pango_font_description_set_family(font, text.fontFamily)
        pango_font_description_set_weight(font, PangoWeight(rawValue: UInt32(text.weight.rawValue)))
        pango_font_description_set_style(font, text.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_font_description_set_absolute_size(font, pixelSize * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)

        // Pango warns about (and cuts at) NUL characters, and refuses the whole text for a Unicode
        // noncharacter (U+FFFE, U+FDD0…): those become U+FFFD. A bounded length keeps layout time bounded.
        let string = String(String.UnicodeScalarView(text.string.prefix(TextContent.maximumLength).unicodeScalars.compactMap {
            $0 == "\0" ? nil : Self.isNoncharacter($0) ? "\u{FFFD}" : $0
        }))
        pango_layout_set_text(layout, string, Int32(string.utf8.count))
        if let width = wrapWidth(of: text) {
            pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        switch text.alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
    }

    /// Pixels, limited to what Pango's fixed-point widths hold.
    private func wrapWidth(of text: TextContent) -> Double? {
        let width: Double
        if let wrapWidth = text.wrapWidth {
            width = wrapWidth
        } else if case .rect(let rect) = text.anchor {
            width = Double(rect.width)
        } else {
            return nil
        }
        return min(max(width, 1), 1_000_000)
    }

    /// The layout's top-left corner for its anchor and alignment.
    private func placement(of text: TextContent, logicalWidth: Double, logicalHeight: Double) -> (x: Double, y: Double) {
        let boxWidth = wrapWidth(of: text) ?? logicalWidth
        func offset(in space: Double) -> Double {
            switch text.alignment {
            case .left: return 0
            case .center: return space / 2
            case .right: return space
            }
        }
        switch text.anchor {
        case .point(let point):
            return (Double(point.x) - offset(in: boxWidth), Double(point.y))
        case .rect(let rect):
            return (Double(rect.minX) + offset(in: Double(rect.width) - boxWidth),
                    Double(rect.midY) - logicalHeight / 2)
        }
    }

    private func tracePath(of layout: OpaquePointer, on cr: OpaquePointer) {
        cairo_new_path(cr)
        cairo_move_to(cr, 0, 0)
        pango_cairo_layout_path(cr, layout)
    }

    /// Outline half outside the glyph: twice the width, the glyph itself drawn over the inner half.
    private func strokeOutline(on cr: OpaquePointer, width: Double) {
        cairo_set_line_width(cr, 2 * width)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_dash(cr, nil, 0, 0)
        cairo_stroke(cr)
    }
}
