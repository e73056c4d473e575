import Foundation
import LoopPlayerCore

/// Fetches and parses the playlists of an HLS presentation: the source (a master or a lone media
/// playlist), then a variant's media playlist. Exactly one fetch per call: a variant that is
/// itself a master is refused (`nestedMaster`), so self- or mutually-referencing masters end with
/// a typed error after two requests instead of recursing.
///
/// ```swift
/// let loader = HLSPlaylistLoader(fetcher: HTTPFetcher())
/// guard case let .master(master) = try loader.load(sourceURL) else { … }
/// let media = try loader.loadMedia(master.variants[0].url, listedBy: master.url)
/// ```
/// A playlist is read up to `HLSLimits.maxBytes` and no further. URIs resolve against the URL the
/// playlist came from after redirects, as browsers and FFmpeg's hls demuxer do.
package struct HLSPlaylistLoader: Sendable {
    package let fetcher: ResourceFetcher
    package var limits = HLSLimits.standard
    /// Seconds for one playlist fetch.
    package var timeout = 10.0

    package init(fetcher: ResourceFetcher, limits: HLSLimits = .standard, timeout: Double = 10) {
        self.fetcher = fetcher
        self.limits = limits
        self.timeout = timeout
    }

    package init(fetcher: HTTPFetcher, limits: HLSLimits = .standard, timeout: Double = 10) {
        self.init(fetcher: ResourceFetcher(http: fetcher), limits: limits, timeout: timeout)
    }

    /// The source playlist, master or media.
    package func load(_ url: URL, abort: AbortFlag? = nil) throws(HLSLoadError) -> HLSPlaylist {
        try loadMeasured(url, abort: abort).playlist
    }

    /// The source playlist and how its download went (for the variant selector).
    package func loadMeasured(_ url: URL, abort: AbortFlag? = nil) throws(HLSLoadError) -> (playlist: HLSPlaylist, transfer: HTTPFetcher.Transfer) {
        let (bytes, transfer) = try fetch(url, abort: abort)
        do { return (try HLSPlaylist.parse(bytes, url: transfer.finalURL, limits: limits), transfer) } catch { throw .playlist(error) }
    }

    /// The media playlist of a variant or rendition that `master` lists.
    package func loadMedia(_ url: URL, listedBy master: URL, abort: AbortFlag? = nil) throws(HLSLoadError) -> HLSMediaPlaylist {
        let (bytes, transfer) = try fetch(url, abort: abort)
        do {
            return try HLSPlaylist.parseMedia(bytes, url: transfer.finalURL, listedBy: master, limits: limits)
        } catch { throw .playlist(error) }
    }

    private func fetch(_ url: URL, abort: AbortFlag?) throws(HLSLoadError) -> (bytes: [UInt8], transfer: HTTPFetcher.Transfer) {
        do {
            return try fetcher.fetch(url, timeout: timeout, abort: abort, maxBytes: limits.maxBytes)
        } catch let .tooLarge(name, limit) {
            throw .playlist(.playlistTooLarge(url: name, bytes: limit + 1, limit: limit))
        } catch {
            throw .fetch(error)
        }
    }
}

/// A playlist or segment that could not be fetched, or not used.
package enum HLSLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    case fetch(FetchError)
    case playlist(HLSError)
    /// A live playlist brought no new segment for `seconds`.
    case liveStalled(url: String, seconds: Double)

    package var description: String {
        switch self {
        case let .fetch(error): error.description
        case let .playlist(error): error.description
        case let .liveStalled(url, seconds): "\(url): the live playlist brought no new segment for \(Int(seconds.rounded())) s"
        }
    }

    /// A short stable name: the fetch's or the playlist's kind, or `liveStalled`.
    package var kind: String {
        switch self {
        case let .fetch(error): error.kind
        case let .playlist(error): error.kind
        case .liveStalled: "liveStalled"
        }
    }

    /// Worth waiting for (a server down, a stall, a 5xx).
    package var isTransient: Bool {
        if case let .fetch(error) = self { return error.isTransient }
        return false
    }

    /// The player's error for it.
    package var playerError: PlayerError {
        switch self {
        case let .fetch(.refused(refusal)): .sourceNotAllowed(refusal)
        case let .fetch(error): .networkError(url: error.url, reason: error.reason)
        case let .playlist(error): .invalidPlaylist(error)
        case let .liveStalled(url, seconds):
            .networkError(url: url, reason: "the live playlist brought no new segment for \(Int(seconds.rounded())) s")
        }
    }
}
