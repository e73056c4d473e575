import COverlayGraphics
import Foundation

/// Owner of a `cairo_surface_t`: a recording of drawing commands, or ARGB32 pixels.
final class CairoSurface {
    let surface: OpaquePointer

    private init(_ surface: OpaquePointer) {
        self.surface = surface
    }

    deinit { cairo_surface_destroy(surface) }

    /// Records drawing, clipped to `width`×`height`, so its ink extents can be measured before any pixel exists.
    static func recording(width: Int, height: Int) -> CairoSurface? {
        var extents = cairo_rectangle_t(x: 0, y: 0, width: Double(width), height: Double(height))
        return checked(cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents))
    }

    /// Records drawing anywhere (for text measured before it is kept as pixels).
    static func unboundedRecording() -> CairoSurface? {
        checked(cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil))
    }

    /// Transparent ARGB32 pixels owned by Cairo.
    static func image(width: Int, height: Int) -> CairoSurface? {
        checked(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
    }

    private static func checked(_ surface: OpaquePointer?) -> CairoSurface? {
        guard let surface else { return nil }
        let owner = CairoSurface(surface)
        return cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS ? owner : nil
    }

    /// The whole-pixel rectangle a recording's drawing touches (conservative), or nil if it draws nothing.
    func inkExtents() -> (x: Int, y: Int, width: Int, height: Int)? {
        var x = 0.0, y = 0.0, width = 0.0, height = 0.0
        cairo_recording_surface_ink_extents(surface, &x, &y, &width, &height)
        // The recording is bounded by the area, so these are small; the limit only guards the Int conversion.
        guard width > 0, height > 0, [x, y, width, height].allSatisfy({ abs($0) < 1e9 }) else { return nil }
        let left = x.rounded(.down), top = y.rounded(.down)
        let right = (x + width).rounded(.up), bottom = (y + height).rounded(.up)
        return (Int(left), Int(top), Int(right - left), Int(bottom - top))
    }

    /// Replays the recording's `width`×`height` pixels from (`x`, `y`) into premultiplied BGRA owned by
    /// Swift, trimmed to the pixels that are not fully transparent.
    ///
    /// Cairo draws straight into the array (`cairo_image_surface_create_for_data`), so an image that needs
    /// no trimming is returned without a copy.
    func replay(x: Int, y: Int, width: Int, height: Int) -> Replay {
        let stride = width * 4
        var pixels = [UInt8](repeating: 0, count: stride * height)
        var failure: String?
        var box: OpaqueBox?
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress,
                  let target = Self.checked(cairo_image_surface_create_for_data(
                      base, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))),
                  let canvas = CairoCanvas(drawingOn: target) else {
                failure = "cannot make a \(width)×\(height) image (out of memory)"
                return
            }
            canvas.paint(self, atX: Double(-x), y: Double(-y))
            failure = canvas.failure
            // No drawing reaches the array after this, whenever the Swift owners go.
            cairo_surface_finish(target.surface)
            box = OpaqueBox.find(in: UnsafeBufferPointer(buffer), width: width, height: height, stride: stride)
        }
        if let failure { return .failed(failure) }
        guard let box else { return .image(nil) }
        if box.width == width, box.height == height {
            return .image(OverlayImage(x: x, y: y, width: width, height: height, stride: stride, pixels: pixels))
        }
        let rowBytes = box.width * 4
        let cropped = [UInt8](unsafeUninitializedCapacity: rowBytes * box.height) { target, count in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<box.height {
                    let from = (box.y + row) * stride + box.x * 4
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(target)[(row * rowBytes)...])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(source)[from..<(from + rowBytes)]))
                }
            }
            count = rowBytes * box.height
        }
        return .image(OverlayImage(x: x + box.x, y: y + box.y, width: box.width, height: box.height, pixels: cropped))
    }

    enum Replay {
        /// nil when every pixel is transparent.
        case image(OverlayImage?)
        case failed(String)
    }
}

/// The bounding box of the pixels with non-zero alpha, found by scanning only the transparent margins.
struct OpaqueBox {
    var x: Int, y: Int, width: Int, height: Int

    static func find(in pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int) -> OpaqueBox? {
        func alpha(_ x: Int, _ y: Int) -> UInt8 { pixels[y * stride + x * 4 + 3] }
        func rowIsClear(_ y: Int) -> Bool { (0..<width).allSatisfy { alpha($0, y) == 0 } }
        guard let top = (0..<height).first(where: { !rowIsClear($0) }),
              let bottom = (0..<height).reversed().first(where: { !rowIsClear($0) }) else { return nil }
        var left = width, right = -1
        for y in top...bottom {
            var x = 0
            while x < left, alpha(x, y) == 0 { x += 1 }
            left = min(left, x)
            x = width - 1
            while x > right, alpha(x, y) == 0 { x -= 1 }
            right = max(right, x)
        }
        return OpaqueBox(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}
