import Foundation

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
struct HLSPlaylistLoader: Sendable {
    let fetcher: HTTPFetcher
    var limits = HLSLimits.standard
    /// Seconds for one playlist fetch.
    var timeout = 10.0

    init(fetcher: HTTPFetcher, limits: HLSLimits = .standard, timeout: Double = 10) {
        self.fetcher = fetcher
        self.limits = limits
        self.timeout = timeout
    }

    /// The source playlist, master or media.
    func load(_ url: URL, abort: AbortFlag? = nil) throws(HLSLoadError) -> HLSPlaylist {
        let (bytes, base) = try fetch(url, abort: abort)
        do { return try HLSPlaylist.parse(bytes, url: base, limits: limits) } catch { throw .playlist(error) }
    }

    /// The media playlist of a variant or rendition that `master` lists.
    func loadMedia(_ url: URL, listedBy master: URL, abort: AbortFlag? = nil) throws(HLSLoadError) -> HLSMediaPlaylist {
        let (bytes, base) = try fetch(url, abort: abort)
        do { return try HLSPlaylist.parseMedia(bytes, url: base, listedBy: master, limits: limits) } catch { throw .playlist(error) }
    }

    private func fetch(_ url: URL, abort: AbortFlag?) throws(HLSLoadError) -> (bytes: [UInt8], base: URL) {
        do {
            let (bytes, transfer) = try fetcher.fetch(url, timeout: timeout, abort: abort, maxBytes: limits.maxBytes)
            return (bytes, transfer.finalURL)
        } catch let .tooLarge(name, limit) {
            throw .playlist(.playlistTooLarge(url: name, bytes: limit + 1, limit: limit))
        } catch {
            throw .fetch(error)
        }
    }
}

/// A playlist that could not be fetched, or not used.
enum HLSLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    case fetch(FetchError)
    case playlist(HLSError)

    var description: String {
        switch self {
        case let .fetch(error): error.description
        case let .playlist(error): error.description
        }
    }
}
