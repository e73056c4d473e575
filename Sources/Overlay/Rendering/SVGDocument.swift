import COverlayGraphics
import Foundation
import LoopPlayerCore

/// Owner of a parsed SVG file (`RsvgHandle`) and its intrinsic size.
final class SVGDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>
    let width: Double
    let height: Double
    /// The file's identity when it was read, to notice a replaced file.
    let version: FileVersion

    /// Parses the file at `path`; the file must exist and be readable.
    init(path: String, version: FileVersion) throws(OverlayError) {
        var error: UnsafeMutablePointer<GError>?
        guard let handle = rsvg_handle_new_from_file(path, &error) else {
            throw .invalidSVG(path: path, reason: Self.consume(error) ?? "librsvg could not load it")
        }
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) == 0 {
            // Relative or missing width/height: the viewBox gives the proportions.
            var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
            var w = RsvgLength(), h = RsvgLength(), viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &w, &hasHeight, &h, &hasViewBox, &viewBox)
            if hasViewBox != 0 { (width, height) = (viewBox.width, viewBox.height) }
        }
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            g_object_unref(handle)
            throw .invalidSVG(path: path, reason: "it has no size (neither width and height nor a viewBox)")
        }
        self.handle = handle
        self.width = width
        self.height = height
        self.version = version
    }

    deinit { g_object_unref(handle) }

    /// Draws the document as large as fits in `rect` (aspect kept, centred), in the canvas's transform.
    func draw(fittedInto rect: CGRect, on canvas: CairoCanvas, path: String) throws(OverlayError) {
        let r = rect.standardized
        let fit = min(Double(r.width) / width, Double(r.height) / height)
        guard fit > 0, fit.isFinite else { return }
        let cr = canvas.context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, Double(r.midX) - width * fit / 2, Double(r.midY) - height * fit / 2)
        cairo_scale(cr, fit, fit)
        var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else {
            throw .invalidSVG(path: path, reason: Self.consume(error) ?? "librsvg could not draw it")
        }
    }

    /// The error's message, freeing it.
    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        // librsvg's messages end with a newline: error lines are one line.
        return error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}

/// What identifies one content of a file: a changed modification time or size means it was rewritten.
struct FileVersion: Equatable {
    var modified: timespec
    var size: Int

    static func == (lhs: FileVersion, rhs: FileVersion) -> Bool {
        lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec && lhs.size == rhs.size
    }

    /// The file's version, or why it cannot be drawn from.
    static func of(path: String) throws(OverlayError) -> FileVersion {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .svgNotFound(path: path) }
            throw .svgUnreadable(path: path, reason: String(cString: strerror(code)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .svgUnreadable(path: path, reason: "not a regular file") }
        guard access(path, R_OK) == 0 else {
            throw .svgUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        return FileVersion(modified: info.st_mtim, size: Int(info.st_size))
    }
}

/// Parsed SVG documents by path, re-read when the file changes.
final class SVGDocumentCache {
    /// More distinct files than this and the cache starts over (signage shows a handful).
    private static let capacity = 32
    private var documents: [String: SVGDocument] = [:]

    func document(at path: String) throws(OverlayError) -> SVGDocument {
        guard !path.isEmpty else { throw .svgNotFound(path: path) }
        let version = try FileVersion.of(path: path)
        if let cached = documents[path], cached.version == version { return cached }
        documents[path] = nil
        if documents.count >= Self.capacity { documents.removeAll() }
        let document = try SVGDocument(path: path, version: version)
        documents[path] = document
        return document
    }

    func removeAll() { documents.removeAll() }
}
