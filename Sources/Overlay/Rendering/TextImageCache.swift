import COverlayGraphics
import Foundation

/// Text drawn before, kept as pixels: laying out and outlining glyphs is by far the dearest part of a
/// layer (a caption under an animated badge would otherwise be shaped, outlined and filled again on
/// every frame), while painting the kept image is one small blend.
///
/// An image is exact, not an approximation: it is keyed on everything that shapes its pixels (the
/// text, the point scale, the transform's linear part and the translation's fraction of a pixel) and
/// painted at the whole-pixel rest of the translation, where Cairo copies it unchanged. Source-over
/// is associative, so drawing the shadow, outline and glyphs into the image and blending that once
/// gives what drawing them one by one gives.
///
/// Only text drawn twice the same way is kept (text moving by fractions of a pixel would otherwise
/// fill the cache with images used once), and only a few small images.
final class TextImageCache {
    /// What the pixels depend on.
    struct Key: Equatable {
        var text: TextContent
        var scale: Double
        /// The transform with its translation cut to a fraction of a pixel (0..<1).
        var matrix: [Double]
    }

    /// Where a transform puts the kept image: its key's residual matrix and the whole-pixel shift.
    struct Placement {
        var residual: cairo_matrix_t
        var shiftX: Double
        var shiftY: Double

        init(_ matrix: cairo_matrix_t) {
            residual = matrix
            shiftX = matrix.x0.rounded(.down)
            shiftY = matrix.y0.rounded(.down)
            residual.x0 -= shiftX
            residual.y0 -= shiftY
        }

        var values: [Double] { [residual.xx, residual.yx, residual.xy, residual.yy, residual.x0, residual.y0] }
    }

    struct Entry {
        var key: Key
        var image: CairoSurface
        /// The image's top-left corner for the residual matrix, in whole device pixels.
        var x: Int
        var y: Int
    }

    static let capacity = 8
    /// Larger text (a huge font size, a very long line) is drawn directly every time.
    static let maximumPixels = 2_000_000

    private var entries: [Entry] = []
    private var seenOnce: [Key] = []
    /// Keys whose pixels could not be kept: drawn directly without trying again.
    private var refused: [Key] = []

    /// The kept image for `key`, moved to the front.
    func entry(for key: Key) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.insert(entry, at: 0)
        return entry
    }

    /// True the second time a key is asked about (then it is worth keeping).
    func isRepeated(_ key: Key) -> Bool {
        guard !refused.contains(key) else { return false }
        if let index = seenOnce.firstIndex(of: key) {
            seenOnce.remove(at: index)
            return true
        }
        seenOnce.insert(key, at: 0)
        if seenOnce.count > Self.capacity { seenOnce.removeLast() }
        return false
    }

    func keep(_ entry: Entry) {
        entries.insert(entry, at: 0)
        if entries.count > Self.capacity { entries.removeLast() }
    }

    func refuse(_ key: Key) {
        refused.insert(key, at: 0)
        if refused.count > Self.capacity { refused.removeLast() }
    }

    /// Draws with `draw` under the residual matrix into a recording, and keeps the pixels it touched;
    /// nil when it draws nothing or too much to keep.
    static func render(_ key: Key, residual: cairo_matrix_t, _ draw: (CairoCanvas) -> Void) -> Entry? {
        guard let recording = CairoSurface.unboundedRecording(), let recorder = CairoCanvas(drawingOn: recording) else {
            return nil
        }
        var matrix = residual
        cairo_set_matrix(recorder.context, &matrix)
        draw(recorder)
        guard recorder.failure == nil, let ink = recording.inkExtents(),
              ink.width * ink.height <= maximumPixels,
              let image = CairoSurface.image(width: ink.width, height: ink.height),
              let painter = CairoCanvas(drawingOn: image) else { return nil }
        painter.paint(recording, atX: Double(-ink.x), y: Double(-ink.y))
        guard painter.failure == nil else { return nil }
        cairo_surface_flush(image.surface)
        return Entry(key: key, image: image, x: ink.x, y: ink.y)
    }
}
