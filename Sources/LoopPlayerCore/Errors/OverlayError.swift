/// Why a layer could not be rasterised. It reaches you as `PlayerError.invalidOverlay` in an error
/// event; the other layers are drawn on (`.svgNotFound(path)`: "logo missing").
public enum OverlayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the SVG's path.
    case svgNotFound(path: String)
    /// The SVG file exists but cannot be read (a directory, no permission…).
    case svgUnreadable(path: String, reason: String)
    /// The file is not an SVG librsvg can draw.
    case invalidSVG(path: String, reason: String)
    /// A coordinate, size, angle or time is NaN or infinite, a dash is negative, or sublayers nest too deep.
    case invalidLayer(reason: String)

    /// What went wrong and with which file or layer, as shown to users.
    public var description: String {
        switch self {
        case .svgNotFound(let path): return "SVG file not found: \(path)"
        case .svgUnreadable(let path, let reason): return "cannot read SVG file \(path): \(reason)"
        case .invalidSVG(let path, let reason): return "invalid SVG file \(path): \(reason)"
        case .invalidLayer(let reason): return "invalid overlay layer: \(reason)"
        }
    }
}
