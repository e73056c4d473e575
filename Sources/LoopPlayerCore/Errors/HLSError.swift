/// Why an HLS playlist cannot be used. Every case names the playlist's URL. It reaches you as
/// `PlayerError.invalidPlaylist` (the error event, the run's outcome, the status):
///
/// ```swift
/// if case let .failed(.invalidPlaylist(error)) = player.state { print(error) }
/// // "http://cdn/a.m3u8: line 3 is longer than 65536 bytes"
/// ```
public enum HLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text does not start with `#EXTM3U`.
    case notAPlaylist(url: String)
    /// The playlist is larger than `HLSLimits.maxBytes` (`bytes`: its size, or the limit + 1 when
    /// the download was stopped there).
    case playlistTooLarge(url: String, bytes: Int, limit: Int)
    /// A line is longer than `HLSLimits.maxLineLength` (it is never kept).
    case lineTooLong(url: String, line: Int, limit: Int)
    /// More variants or segments than `HLSLimits.maxEntries`.
    case tooManyEntries(url: String, limit: Int)
    /// More variants plus renditions than `HLSLimits.maxVariants`.
    case tooManyVariants(url: String, limit: Int)
    /// A tag whose value cannot be used (a negative duration, a malformed byte range…).
    case invalidTag(url: String, line: Int, tag: String, reason: String)
    /// A variant or segment tag with no URI line after it.
    case missingURI(url: String, line: Int)
    /// A URI that is not a valid URL reference.
    case invalidURI(url: String, line: Int, uri: String)
    /// Both variants (`EXT-X-STREAM-INF`) and segments (`EXTINF`) in one playlist.
    case mixedPlaylist(url: String)
    /// A master playlist with no variant, or a finished media playlist with no segment.
    case empty(url: String)
    /// A playlist that lists itself (as a variant or a segment).
    case selfReference(url: String)
    /// A variant's URI led to another master playlist: refused, never followed (no recursion).
    case nestedMaster(url: String, referencedBy: String)
    /// Encrypted segments (`EXT-X-KEY` with a method other than NONE).
    case unsupportedEncryption(url: String, method: String)

    /// A short stable name, e.g. `lineTooLong`.
    package var kind: String {
        switch self {
        case .notAPlaylist: "notAPlaylist"
        case .playlistTooLarge: "playlistTooLarge"
        case .lineTooLong: "lineTooLong"
        case .tooManyEntries: "tooManyEntries"
        case .tooManyVariants: "tooManyVariants"
        case .invalidTag: "invalidTag"
        case .missingURI: "missingURI"
        case .invalidURI: "invalidURI"
        case .mixedPlaylist: "mixedPlaylist"
        case .empty: "empty"
        case .selfReference: "selfReference"
        case .nestedMaster: "nestedMaster"
        case .unsupportedEncryption: "unsupportedEncryption"
        }
    }

    /// The playlist the error is about.
    public var url: String {
        switch self {
        case let .notAPlaylist(url), let .playlistTooLarge(url, _, _), let .lineTooLong(url, _, _),
             let .tooManyEntries(url, _), let .tooManyVariants(url, _), let .invalidTag(url, _, _, _), let .missingURI(url, _),
             let .invalidURI(url, _, _), let .mixedPlaylist(url), let .empty(url), let .selfReference(url),
             let .nestedMaster(url, _), let .unsupportedEncryption(url, _):
            url
        }
    }

    /// The playlist's URL and what is wrong with it, as shown to users.
    public var description: String {
        switch self {
        case let .notAPlaylist(url): "\(url): not an HLS playlist (no #EXTM3U header)"
        case let .playlistTooLarge(url, _, limit): "\(url): the playlist is larger than the \(limit) bytes allowed"
        case let .lineTooLong(url, line, limit): "\(url): line \(line) is longer than \(limit) bytes"
        case let .tooManyEntries(url, limit): "\(url): the playlist has more than \(limit) entries"
        case let .tooManyVariants(url, limit): "\(url): the master playlist lists more than \(limit) variants and renditions"
        case let .invalidTag(url, line, tag, reason): "\(url): line \(line): invalid \(tag): \(reason)"
        case let .missingURI(url, line): "\(url): line \(line): a variant or segment without a URI"
        case let .invalidURI(url, line, uri): "\(url): line \(line): '\(uri)' is not a valid URL"
        case let .mixedPlaylist(url): "\(url): the playlist mixes variants and segments"
        case let .empty(url): "\(url): the playlist lists nothing to play"
        case let .selfReference(url): "\(url): the playlist refers to itself"
        case let .nestedMaster(url, parent):
            "\(url): a master playlist where a media playlist was expected (listed by \(parent)); not followed"
        case let .unsupportedEncryption(url, method): "\(url): encrypted segments (\(method)) are not supported"
        }
    }
}
