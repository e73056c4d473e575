/// A rasterised overlay: premultiplied BGRA pixels (Cairo's `ARGB32`, SDL's `ARGB8888` and FFmpeg's
/// `BGRA` on little-endian machines) placed in the player area.
///
/// Coordinates are output pixels from the player area's top-left corner; an image only covers the
/// part of the area its content touches (its bounding box), so a small logo costs a small upload.
public struct OverlayImage: Sendable, Equatable {
    /// Where the image's top-left pixel lands in the player area (may be negative: clipped when drawn).
    public var x: Int
    /// Where the image's top row lands in the player area (may be negative: clipped when drawn).
    public var y: Int
    /// Width and height in pixels, never negative.
    public var width, height: Int
    /// Bytes per row (at least `width * 4`).
    public var stride: Int
    /// `stride * height` bytes, premultiplied B, G, R, A per pixel.
    public var pixels: [UInt8]

    /// An image placed at (`x`, `y`); `stride` is raised to at least `width * 4`, and nil `pixels` are
    /// transparent. Negative sizes become 0.
    public init(x: Int, y: Int, width: Int, height: Int, stride: Int? = nil, pixels: [UInt8]? = nil) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
        self.stride = max(stride ?? self.width * 4, self.width * 4)
        self.pixels = pixels ?? [UInt8](repeating: 0, count: self.stride * self.height)
    }

    /// The premultiplied (b, g, r, a) of the pixel at image coordinates.
    public func pixel(x: Int, y: Int) -> (b: UInt8, g: UInt8, r: UInt8, a: UInt8) {
        let i = y * stride + x * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// True when the image has no pixels to draw.
    package var isEmpty: Bool { width == 0 || height == 0 }
}
