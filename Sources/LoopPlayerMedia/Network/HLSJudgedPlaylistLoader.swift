import Foundation
import LoopPlayerCore

/// Loads an HLS source's playlists for the session: transient failures retried with backoff until
/// the give-up time, and every URL a playlist names judged (and normalised) by the source policy,
/// so a refused entry fails the source before anything of it is fetched.
package struct HLSJudgedPlaylistLoader: Sendable {
    package let sourceURL: URL
    package let sourceKind: SourceKind
    private let options: NetworkOptions
    private let loader: HLSPlaylistLoader

    package init(url: URL, kind: SourceKind, options: NetworkOptions, fetcher: ResourceFetcher) {
        sourceURL = url
        sourceKind = kind
        self.options = options
        loader = HLSPlaylistLoader(fetcher: fetcher, timeout: max(options.effectiveStallTimeout, 5))
    }

    /// The source playlist and the transfer that brought it (retried).
    package func loadSource(abort: AbortFlag) throws(HLSLoadError) -> (playlist: HLSPlaylist, transfer: HTTPFetcher.Transfer) {
        try retrying(abort: abort) { () throws(HLSLoadError) in
            try loader.loadMeasured(sourceURL, abort: abort)
        }
    }

    /// The variants a master playlist lists, judged; audio-only ones are left out when any has a
    /// picture (they are for audio players; a picture is what we show).
    package func variants(of master: HLSMasterPlaylist) throws(HLSLoadError) -> [HLSSession.Variant] {
        let variants = try master.variants.map { entry throws(HLSLoadError) -> HLSSession.Variant in
            let (url, kind) = try judge(entry.url, from: sourceKind)
            return HLSSession.Variant(url: url, kind: documentKind(kind), bandwidth: entry.bandwidth, resolution: entry.resolution)
        }
        let withPicture = zip(master.variants, variants).filter { !Self.isAudioOnly($0.0.codecs) }.map(\.1)
        return withPicture.isEmpty ? variants : withPicture
    }

    /// `variant`'s media playlist, judged; retried unless `retried` is false (a live reload is
    /// tried again at the next reload time instead).
    package func loadMedia(_ variant: HLSSession.Variant, retried: Bool = true, abort: AbortFlag) throws(HLSLoadError) -> HLSMediaPlaylist {
        guard retried else {
            return try judged(try loader.loadMedia(variant.url, listedBy: sourceURL, abort: abort), kind: variant.kind)
        }
        let playlist = try retrying(abort: abort) { () throws(HLSLoadError) in
            try loader.loadMedia(variant.url, listedBy: sourceURL, abort: abort)
        }
        return try judged(playlist, kind: variant.kind)
    }

    /// `playlist` with every URL it names judged (and normalised) by the policy; a refusal fails.
    package func judged(_ playlist: HLSMediaPlaylist, kind: SourceKind) throws(HLSLoadError) -> HLSMediaPlaylist {
        var checked = playlist
        var initSections: [URL: URL] = [:]
        for index in checked.segments.indices {
            checked.segments[index].url = try judge(checked.segments[index].url, from: kind).0
            if let initSection = checked.segments[index].initSection {
                let url: URL
                if let known = initSections[initSection.url] {
                    url = known
                } else {
                    url = try judge(initSection.url, from: kind).0
                    initSections[initSection.url] = url
                }
                checked.segments[index].initSection?.url = url
            }
        }
        return checked
    }

    /// Codecs naming only sound (`mp4a.40.2`, `ac-3`…).
    package static func isAudioOnly(_ codecs: [String]) -> Bool {
        let audio = ["mp4a", "ac-3", "ec-3", "opus", "flac", "mp3", "fLaC", "Opus"]
        return !codecs.isEmpty && codecs.allSatisfy { codec in audio.contains { codec.hasPrefix($0) } }
    }

    // MARK: Private

    /// Runs `body`, retrying transient failures after 0.25, 0.5, 1, then every 2 s until the
    /// give-up time (the last attempt at it); woken early by `abort`.
    private func retrying<T>(abort: AbortFlag, _ body: () throws(HLSLoadError) -> T) throws(HLSLoadError) -> T {
        var since: Double?
        var attempt = 0
        while true {
            do { return try body() } catch {
                guard error.isTransient, !abort.isRaised else { throw error }
                let now = MonotonicCondition.now
                let start = since ?? now
                since = start
                let failing = now - start
                guard failing < options.timeout else { throw error }
                attempt += 1
                logger.info("HLS playlist retry \(attempt) after: \(error)")
                let pause = min(2.0, 0.25 * pow(2, Double(min(attempt - 1, 4))), options.timeout - failing)
                guard abort.sleep(until: now + pause) else { throw error }
            }
        }
    }

    /// The URL and kind a document of kind `referrer` may lead to, or the refusal.
    private func judge(_ url: URL, from referrer: SourceKind) throws(HLSLoadError) -> (URL, SourceKind) {
        switch options.policy.check(url, from: referrer) {
        case let .allow(allowed, kind): return (allowed, kind)
        case let .refuse(refusal): throw .fetch(.refused(refusal))
        }
    }

    /// The kind a media playlist is judged as: remote ones lead to http(s); a local one to files
    /// in the chosen playlist's folder (even when it lacks a playlist's extension).
    private func documentKind(_ kind: SourceKind) -> SourceKind {
        switch (kind, sourceKind) {
        case (.remote, _): .remote
        case (.localPlaylist, _): kind
        case let (_, .localPlaylist(folder)): .localPlaylist(folder: folder)
        default: kind
        }
    }
}
