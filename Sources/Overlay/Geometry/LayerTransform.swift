import Foundation

/// A 2-D affine transform of player-area coordinates (Cairo's and `CGAffineTransform`'s layout):
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
///
/// ```swift
/// // Spin a shape 30° about its centre, then move it 100 pixels right.
/// let transform = LayerTransform(rotation: .pi / 6, about: CGPoint(x: 50, y: 50))
///     .concatenating(LayerTransform(translationX: 100, y: 0))
/// ```
///
/// Named `LayerTransform` rather than `AffineTransform` because Foundation already has a type of that
/// name and a program importing both would have to qualify every use.
public struct LayerTransform: Sendable, Equatable {
    /// How x scales into x' (`x' = a·x + c·y + tx`).
    public var a: Double
    /// How x feeds into y' (`y' = b·x + d·y + ty`).
    public var b: Double
    /// How y feeds into x' (`x' = a·x + c·y + tx`).
    public var c: Double
    /// How y scales into y' (`y' = b·x + d·y + ty`).
    public var d: Double
    /// Horizontal translation, in pixels.
    public var tx: Double
    /// Vertical translation, in pixels (down is positive).
    public var ty: Double

    /// A transform from its six coefficients; the named initialisers are usually clearer.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// Leaves every point where it is.
    public static let identity = LayerTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Moves every point by (x, y).
    public init(translationX x: Double, y: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// Scales about `anchor` (the area's origin by default): `LayerTransform(scaleX: 2, y: 2)`.
    public init(scaleX sx: Double, y sy: Double, about anchor: CGPoint = .zero) {
        let (px, py) = (Double(anchor.x), Double(anchor.y))
        self.init(a: sx, b: 0, c: 0, d: sy, tx: px - sx * px, ty: py - sy * py)
    }

    /// Rotates by `angle` radians about `anchor`; positive angles turn clockwise on screen (y points down).
    public init(rotation angle: Double, about anchor: CGPoint = .zero) {
        let (cosine, sine) = (cos(angle), sin(angle))
        let (px, py) = (Double(anchor.x), Double(anchor.y))
        self.init(a: cosine, b: sine, c: -sine, d: cosine,
                  tx: px - cosine * px + sine * py, ty: py - sine * px - cosine * py)
    }

    /// This transform followed by `other` (as `CGAffineTransform.concatenating`).
    public func concatenating(_ other: LayerTransform) -> LayerTransform {
        LayerTransform(a: a * other.a + b * other.c,
                       b: a * other.b + b * other.d,
                       c: c * other.a + d * other.c,
                       d: c * other.b + d * other.d,
                       tx: tx * other.a + ty * other.c + other.tx,
                       ty: tx * other.b + ty * other.d + other.ty)
    }

    /// Where `point` goes.
    public func apply(_ point: CGPoint) -> CGPoint {
        let (x, y) = (Double(point.x), Double(point.y))
        return CGPoint(x: a * x + c * y + tx, y: b * x + d * y + ty)
    }

    /// True when the transform changes nothing.
    public var isIdentity: Bool { self == .identity }

    var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }
}
