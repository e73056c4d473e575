import Foundation

/// Text drawn by a layer, laid out with Pango: shaping, bidirectional text and font fallback included.
///
/// ```swift
/// var caption = ShapeLayer()
/// caption.text = TextContent("Live — 東京", fontSize: 24, weight: .bold, color: .yellow,
///                            alignment: .center, anchor: .rect(CGRect(x: 0, y: 600, width: 1280, height: 80)))
/// ```
///
/// Positions and widths are in player-area pixels; the font size is in points (1/96 inch), so it is
/// multiplied by ``LayerGeometry/scale``: 17 points are 17 pixels on a plain display.
public struct TextContent: Sendable, Equatable {
    /// The largest font size drawn, in points; larger sizes are clamped to it (the smallest is 1).
    package static let maximumFontSize = 1000.0
    /// Longer strings are cut to this many characters before layout.
    package static let maximumLength = 4096

    /// The text, cut to 4096 characters; newlines start new lines.
    public var string: String
    /// A fontconfig family name; characters it lacks come from a fallback font.
    public var fontFamily: String
    /// Points (1/96 inch), clamped to 1…1000.
    public var fontSize: Double
    /// How bold the glyphs are (`.regular` by default).
    public var weight: FontWeight
    /// Slanted glyphs (the font's italic style).
    public var italic: Bool
    /// The glyphs' colour (white by default).
    public var color: Color
    /// How lines sit in the text's box, and how the box sits on its anchor.
    public var alignment: TextAlignment
    /// Where the text block goes in the player area.
    public var anchor: TextAnchor
    /// Lines wrap at this width (pixels); nil wraps at the anchor rectangle's width, or never for a point.
    public var wrapWidth: Double?
    /// Outline and shadow that keep the text readable on any picture.
    public var legibility: TextLegibility

    /// Text with these properties; see each property for its meaning and default.
    public init(_ string: String, fontFamily: String = "DejaVu Sans", fontSize: Double = 17,
                weight: FontWeight = .regular, italic: Bool = false, color: Color = .white,
                alignment: TextAlignment = .left, anchor: TextAnchor = .point(CGPoint(x: 0, y: 0)),
                wrapWidth: Double? = nil, legibility: TextLegibility = .readable) {
        self.string = string
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.weight = weight
        self.italic = italic
        self.color = color
        self.alignment = alignment
        self.anchor = anchor
        self.wrapWidth = wrapWidth
        self.legibility = legibility
    }
}

/// Where a text block goes in the player area.
public enum TextAnchor: Sendable, Equatable {
    /// The block's top edge at `y`; its left edge, centre or right edge (by alignment) at `x`.
    case point(CGPoint)
    /// The block wraps at the rectangle's width, sits in it by alignment and is centred vertically.
    case rect(CGRect)
}

/// Horizontal alignment of text lines.
public enum TextAlignment: Sendable, Equatable {
    /// Lines start at the left edge (`left`), are centred (`center`) or end at the right edge (`right`).
    case left, center, right
}

/// Font weight, as CSS and Pango number them.
public enum FontWeight: Int, Sendable, Equatable {
    /// CSS weights 100 (thinnest) to 500 (medium); `regular` (400) is the normal weight.
    case thin = 100, ultraLight = 200, light = 300, regular = 400, medium = 500
    /// CSS weights 600 to 900 (heaviest); `bold` (700) is the usual bold.
    case semibold = 600, bold = 700, heavy = 800, black = 900
}

/// An outline and a drop shadow around glyphs so text reads on bright and dark pictures alike.
///
/// ```swift
/// TextLegibility.readable                           // dark outline behind light text, and the reverse
/// TextLegibility(outlineWidth: 3, outlineColor: .black, shadowOffset: 0)
/// TextLegibility.plain                              // the glyphs only
/// ```
public struct TextLegibility: Sendable, Equatable {
    /// Outline thickness around each glyph, in points; 0 draws none.
    public var outlineWidth: Double
    /// nil picks black behind light text and white behind dark text.
    public var outlineColor: Color?
    /// Shadow offset down and to the right, in points; 0 draws none.
    public var shadowOffset: Double
    /// nil picks the outline's colour at 60 % opacity.
    public var shadowColor: Color?

    /// An outline and shadow of these sizes; nil colours are picked to contrast with the text.
    public init(outlineWidth: Double = 2, outlineColor: Color? = nil, shadowOffset: Double = 1.5,
                shadowColor: Color? = nil) {
        self.outlineWidth = outlineWidth
        self.outlineColor = outlineColor
        self.shadowOffset = shadowOffset
        self.shadowColor = shadowColor
    }

    /// A 2-point outline and a 1.5-point shadow in the contrasting colour (the default).
    public static let readable = TextLegibility()
    /// No outline, no shadow.
    public static let plain = TextLegibility(outlineWidth: 0, shadowOffset: 0)

    /// The outline colour drawn around text of `color`.
    func outline(for color: Color) -> Color {
        if let outlineColor { return outlineColor }
        let luminance = 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue
        return luminance > 0.5 ? Color(red: 0, green: 0, blue: 0, alpha: 0.85) : Color(red: 1, green: 1, blue: 1, alpha: 0.85)
    }

    /// The shadow colour drawn under text of `color`.
    func shadow(for color: Color) -> Color {
        if let shadowColor { return shadowColor }
        var shadow = outline(for: color)
        shadow.alpha = 0.6
        return shadow
    }
}
