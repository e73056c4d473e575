/// Why subtitles could not be loaded. Each case names the source (a path or URL) so the message
/// stands on its own; it reaches you as `PlayerError.invalidSubtitles` in an error event (playback
/// goes on without them), e.g. "movie.srt: subtitle file not found".
public enum SubtitleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at that path (or `file://` URL).
    case fileNotFound(path: String)
    /// The source exists or was reachable but could not be read: a directory, an empty file, a
    /// refused protocol, a network failure or a time-out. `reason` says which.
    case unreadable(source: String, reason: String)
    /// The source holds no subtitles we can read (a video given as subtitles, binary junk).
    case notSubtitles(source: String)
    /// The source passes a size bound (bytes or events); nothing of it is kept.
    case tooLarge(source: String, reason: String)
    /// The source policy refuses the source, or where a redirect led.
    case notAllowed(source: String, refusal: SourceRefusal)
    /// The subtitles' codec has no decoder in this FFmpeg, or no event of the file decoded.
    case undecodable(source: String, codec: String)

    /// A short stable name for statistics and scripts, e.g. `fileNotFound`.
    package var kind: String {
        switch self {
        case .fileNotFound: "fileNotFound"
        case .unreadable: "unreadable"
        case .notSubtitles: "notSubtitles"
        case .tooLarge: "tooLarge"
        case .undecodable: "undecodable"
        case .notAllowed: "notAllowed"
        }
    }

    /// The subtitle source and what went wrong, as shown to users.
    public var description: String {
        switch self {
        case let .fileNotFound(path): "\(path): subtitle file not found"
        case let .unreadable(source, reason): "\(source): cannot read the subtitles: \(reason)"
        case let .notSubtitles(source): "\(source): not a subtitle file (no SRT, WebVTT, ASS/SSA or other text subtitles found)"
        case let .tooLarge(source, reason): "\(source): subtitles too large: \(reason)"
        case let .undecodable(source, codec): "\(source): cannot decode \(codec) subtitles"
        case let .notAllowed(source, refusal): "\(source): subtitles not loaded: \(refusal)"
        }
    }
}
