import Foundation

/// An SVG file drawn by a layer, fitted into a rectangle of the player area (aspect kept, centred).
///
/// ```swift
/// var logo = ShapeLayer()
/// logo.svg = SVGContent(file: "/usr/share/signage/logo.svg", in: CGRect(x: 24, y: 24, width: 160, height: 90))
/// ```
/// librsvg draws it; the parsed document is cached by ``OverlayRasterizer`` until the file changes.
public struct SVGContent: Sendable, Equatable {
    /// Path of the SVG file to draw.
    public var file: String
    /// Player-area pixels; the picture is as large as fits in it without distortion.
    public var rect: CGRect

    /// Draws `file` fitted into `rect`.
    public init(file: String, in rect: CGRect) {
        self.file = file
        self.rect = rect
    }
}
