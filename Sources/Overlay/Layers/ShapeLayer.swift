import Foundation

/// A vector overlay layer, modelled on `CAShapeLayer`: a path filled and stroked, optional text and SVG
/// art, sublayers, and animations of its properties.
///
/// ```swift
/// var path = VectorPath()
/// path.addRoundedRect(CGRect(x: 40, y: 40, width: 200, height: 120), cornerRadius: 16)
/// var layer = ShapeLayer(path: path, fillColor: .red, strokeColor: .white, lineWidth: 3)
/// layer.lineDashPattern = [12, 6]
/// layer.animations = [LayerAnimation(.strokeEnd(from: 0, to: 1), duration: 2)]
/// ```
///
/// Coordinates are player-area pixels (``LayerGeometry/bounds``, y down). A layer draws, in order: its
/// SVG picture, the path's fill, the path's stroke, its text, then its sublayers. `transform` and
/// `opacity` apply to all of it; opacity fades the layer and its sublayers as one group.
public struct ShapeLayer: Sendable, Equatable {
    /// The outline to fill and stroke, in the layer's coordinates.
    public var path: VectorPath
    /// nil: no fill.
    public var fillColor: Color?
    /// Which points the fill covers where the path overlaps itself (`.nonZero` by default).
    public var fillRule: FillRule
    /// nil: no stroke.
    public var strokeColor: Color?
    /// Stroke width in pixels.
    public var lineWidth: Double
    /// Lengths of dashes and gaps, alternating, in pixels; empty (or all zeros) draws a solid line.
    public var lineDashPattern: [Double]
    /// How far into the dash pattern the stroke starts, in pixels.
    public var lineDashPhase: Double
    /// The shape of open path ends (`.butt` by default).
    public var lineCap: LineCap
    /// The shape of corners (`.miter` by default).
    public var lineJoin: LineJoin
    /// Miter joins longer than `miterLimit × lineWidth` are drawn bevelled.
    public var miterLimit: Double
    /// Fraction of the path's length (0…1) where the stroke starts.
    public var strokeStart: Double
    /// Fraction of the path's length (0…1) where the stroke ends.
    public var strokeEnd: Double
    /// 0…1, applied to the layer and its sublayers as a group.
    public var opacity: Double
    /// Maps the layer's coordinates (path, text, SVG rectangle, sublayers) into its parent's.
    public var transform: LayerTransform
    /// Drawn after this layer, in order, inside its transform and opacity.
    public var sublayers: [ShapeLayer]
    /// Text drawn above the fill and stroke; nil: none.
    public var text: TextContent?
    /// An SVG picture drawn below the fill and stroke; nil: none.
    public var svg: SVGContent?
    /// Evaluated at every frame; later animations of the same property win.
    public var animations: [LayerAnimation]

    /// A layer filling and stroking `path`; every other property has `CAShapeLayer`'s default.
    public init(path: VectorPath = VectorPath(), fillColor: Color? = .black, strokeColor: Color? = nil,
                lineWidth: Double = 1) {
        self.path = path
        self.fillColor = fillColor
        self.fillRule = .nonZero
        self.strokeColor = strokeColor
        self.lineWidth = lineWidth
        self.lineDashPattern = []
        self.lineDashPhase = 0
        self.lineCap = .butt
        self.lineJoin = .miter
        self.miterLimit = 10
        self.strokeStart = 0
        self.strokeEnd = 1
        self.opacity = 1
        self.transform = .identity
        self.sublayers = []
        self.text = nil
        self.svg = nil
        self.animations = []
    }

    /// A layer that only draws text.
    ///
    /// ```swift
    /// let label = ShapeLayer(text: TextContent("On air", fontSize: 20, anchor: .point(CGPoint(x: 16, y: 16))))
    /// ```
    public init(text: TextContent) {
        self.init(fillColor: nil)
        self.text = text
    }

    /// A layer that only draws an SVG file.
    public init(svg: SVGContent) {
        self.init(fillColor: nil)
        self.svg = svg
    }
}

/// Which points are inside a self-overlapping path.
public enum FillRule: Sendable, Equatable {
    /// Inside when the path winds around the point a non-zero number of times.
    case nonZero
    /// Inside when any ray from the point crosses the path an odd number of times (nested shapes make holes).
    case evenOdd
}

/// The shape of a stroke's open ends.
public enum LineCap: Sendable, Equatable {
    /// `butt` ends flat at the end point, `round` adds a half circle, `square` adds a half square.
    case butt, round, square
}

/// The shape of a stroke's corners.
public enum LineJoin: Sendable, Equatable {
    /// `miter` makes a sharp corner (up to `miterLimit`), `round` a rounded one, `bevel` cuts it off.
    case miter, round, bevel
}
