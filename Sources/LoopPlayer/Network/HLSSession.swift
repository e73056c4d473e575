import Foundation
import Synchronization

/// An HLS presentation being played: its playlists, the variant choice and what to fetch next —
/// the upper half of the HLS source (`HLSByteStream` fetches what it schedules).
///
/// ```swift
/// let session = HLSSession(url: url, kind: .remote, options: NetworkOptions(), controls: controls,
///                          abort: abort, isLooping: { true })
/// try session.load()                                  // master + the start variant's playlist
/// let stream = session.startStream(at: 0, pass: 0)    // segments from there on
/// ```
/// - `load()` runs on the demux thread: the source playlist, then the chosen variant's media
///   playlist, each retried with backoff while the failure is transient, until the give-up time.
///   Every URL a playlist names is judged by the source policy before anything is fetched (a
///   refusal fails the source: nothing of it plays).
/// - The schedule runs on the fetch thread: it records each download, keeps at most `bufferAhead`
///   seconds fetched ahead of the picture, asks the `VariantSelector` for the next segment's
///   variant (output size and preference from `NetworkControls`), and names the segment:
///   - **VOD**: by time inside the pass, so a switch continues at the same moment in another
///     variant; after the last segment the next pass starts at segment 0 (looping), or the
///     stream ends. An fMP4 segment that starts a new pass starts a new container.
///   - **Live** (no `EXT-X-ENDLIST`): from three target durations before the end; by media sequence
///     number, reloading the playlist every target duration (half of it after a reload that brought
///     nothing); a playlist that brings no new segment for the give-up time ends the stream with
///     `liveStalled`. If the window slid past the next segment, the oldest listed one follows.
final class HLSSession: Sendable {
    /// One variant of the presentation.
    struct Variant: Sendable, Equatable {
        var url: URL
        /// What its media playlist may lead to.
        var kind: SourceKind
        var bandwidth: Int
        var resolution: HLSResolution?
    }

    /// A media playlist, its segments judged by the policy, with the times the schedule needs.
    struct Media: Sendable {
        var playlist: HLSMediaPlaylist
        /// Start of each segment inside the playlist (seconds).
        var starts: [Double]
        var loadedAt: Double
        /// When a load last brought a segment not seen before (live).
        var changedAt: Double
        /// The last reload brought nothing new (live: the next one comes sooner).
        var unchanged = false
        /// Why the last reload failed, if it did (live).
        var reloadError: HLSLoadError?

        init(_ playlist: HLSMediaPlaylist, at now: Double) {
            self.playlist = playlist
            var time = 0.0
            starts = playlist.segments.map { segment in
                defer { time += segment.duration }
                return time
            }
            loadedAt = now
            changedAt = now
        }

        var duration: Double { (starts.last ?? 0) + (playlist.segments.last?.duration ?? 0) }

        /// The segment to fetch for `time` inside the pass: the one starting there (within a
        /// tolerance for rounded durations), else the first starting later; nil past the end.
        func index(startingAt time: Double) -> Int? {
            guard !starts.isEmpty else { return nil }
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] < time { low = middle + 1 } else { high = middle }
            }
            // `low`: the first segment starting at or after `time`; the one before may start just before.
            if low > 0 {
                let before = low - 1
                let tolerance = min(0.5, playlist.segments[before].duration / 4)
                if time - starts[before] <= tolerance { return before }
            }
            return low < starts.count ? low : nil
        }

        /// The segment holding `time` (for a seek).
        func index(containing time: Double) -> Int {
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= time + 1e-6 { low = middle + 1 } else { high = middle }
            }
            return max(0, low - 1)
        }

        /// Where live playback starts: about three target durations before the end (RFC 8216 §6.3.3).
        var liveStartSequence: Int {
            var remaining = 0.0
            var index = playlist.segments.count
            while index > 0 && remaining < 3 * playlist.targetDuration {
                index -= 1
                remaining += playlist.segments[index].duration
            }
            return playlist.mediaSequence + index
        }
    }

    private enum Cursor: Sendable {
        /// The next segment starts at `time` inside pass `pass`.
        case vod(pass: Int, time: Double)
        /// The next segment has this media sequence number (nil: the live edge of the next load).
        case live(sequence: Int?)
    }

    private struct State {
        /// Made by `load()`; the schedule runs only after it.
        var selector: VariantSelector?
        var media: [Int: Media] = [:]
        var cursor = Cursor.vod(pass: 0, time: 0)
        var lastPass = 0
        /// Timeline seconds of the last picture packet the demuxer read, and its segment's index.
        var demuxed: (time: Double, index: Int)?
        /// Delivered segments the demuxer has not reached: (schedule index, seconds).
        var ahead: [(index: Int, duration: Double)] = []
        /// The demux thread is reading a stream: the first segment of a new one keeps the variant.
        var streamStarted = false
    }

    let sourceURL: URL
    let sourceKind: SourceKind
    private let options: NetworkOptions
    private let controls: NetworkControls
    private let abort: AbortFlag
    private let isLooping: @Sendable () -> Bool
    private let loader: HLSPlaylistLoader
    private let fetcher: ResourceFetcher
    private let cache: SegmentCache?
    private let state: Mutex<State>
    private let loaded = Mutex<(variants: [Variant], isLive: Bool, duration: Double?, format: String?)>(([], false, nil, nil))

    /// `abort` is the pipeline's (raised when it stops); `isLooping` says whether a VOD source
    /// starts another pass after its last segment.
    init(url: URL, kind: SourceKind, options: NetworkOptions, controls: NetworkControls, abort: AbortFlag,
         isLooping: @escaping @Sendable () -> Bool) {
        sourceURL = url
        sourceKind = kind
        self.options = options
        self.controls = controls
        self.abort = abort
        self.isLooping = isLooping
        fetcher = ResourceFetcher(http: HTTPFetcher(options: options.fetchOptions))
        loader = HLSPlaylistLoader(fetcher: fetcher, timeout: max(options.effectiveStallTimeout, 5))
        cache = options.segmentCacheBytes > 0 ? SegmentCache(budget: options.segmentCacheBytes) : nil
        state = Mutex(State())
    }

    // MARK: What the demuxer reads

    var variants: [Variant] { loaded.withLock { $0.variants } }
    /// No `EXT-X-ENDLIST`: played live, never looped.
    var isLive: Bool { loaded.withLock { $0.isLive } }
    /// The start variant's length (VOD), from its segments' durations.
    var duration: Double? { loaded.withLock { $0.duration } }
    /// The demuxer to use on the segments (`mpegts`, `mov`…); nil: probe.
    var containerFormat: String? { loaded.withLock { $0.format } }
    /// Bytes of segments held by the cache.
    var cachedBytes: Int { cache?.byteCount ?? 0 }

    /// The variant in use by the schedule now.
    var currentVariant: Int { state.withLock { $0.selector?.current ?? 0 } }

    // MARK: Loading

    /// Loads the source playlist and the start variant's media playlist (retrying transient
    /// failures until the give-up time). Blocking: the demux thread.
    func load() throws(HLSLoadError) {
        let (playlist, transfer) = try retrying(abort: abort) { () throws(HLSLoadError) in
            try loader.loadMeasured(sourceURL, abort: abort)
        }
        var throughput = controls.throughput
        throughput.add(bytes: transfer.byteCount, seconds: transfer.seconds, at: MonotonicCondition.now)
        var variants: [Variant]
        var media: [Int: Media] = [:]
        switch playlist {
        case let .master(master):
            variants = try master.variants.map { entry throws(HLSLoadError) -> Variant in
                let (url, kind) = try judge(entry.url, from: sourceKind)
                return Variant(url: url, kind: documentKind(kind), bandwidth: entry.bandwidth, resolution: entry.resolution)
            }
            // Audio-only variants are for audio players; a picture is what we show.
            let withPicture = zip(master.variants, variants).filter { !Self.isAudioOnly($0.0.codecs) }.map(\.1)
            if !withPicture.isEmpty { variants = withPicture }
        case let .media(playlist):
            variants = [Variant(url: transfer.finalURL, kind: sourceKind, bandwidth: 0, resolution: nil)]
            media[0] = Media(try validated(playlist, kind: sourceKind), at: MonotonicCondition.now)
        }
        let candidates = variants.map { VariantSelector.Candidate(bandwidth: $0.bandwidth, resolution: $0.resolution) }
        guard var selector = VariantSelector(variants: candidates, preference: controls.preference,
                                             outputSize: Self.resolution(controls.outputSize), tuning: options.variantTuning,
                                             throughput: throughput) else {
            throw .playlist(.empty(url: sourceURL.absoluteString))
        }
        let start = selector.start().variant
        let found = variants
        if media[start] == nil {
            let variant = found[start]
            let playlist = try retrying(abort: abort) { () throws(HLSLoadError) in
                try loader.loadMedia(variant.url, listedBy: sourceURL, abort: abort)
            }
            media[start] = Media(try validated(playlist, kind: variant.kind), at: MonotonicCondition.now)
        }
        guard let first = media[start] else { throw .playlist(.empty(url: sourceURL.absoluteString)) }
        if first.playlist.segments.isEmpty && !first.playlist.isLive { throw .playlist(.empty(url: first.playlist.url.absoluteString)) }
        logger.info("HLS \(sourceURL.absoluteString): \(variants.count) variant(s), starting with #\(start) (\(variants[start].bandwidth) b/s)\(first.playlist.isLive ? ", live" : "")")
        state.withLock {
            $0.selector = selector
            $0.media = media
        }
        loaded.withLock {
            $0 = (found, first.playlist.isLive, first.playlist.isLive ? nil : first.duration,
                  first.playlist.segments.first.flatMap(Self.containerFormat))
        }
    }

    /// Each variant's identity as frames carry it (none for a lone media playlist).
    var streamVariants: [StreamVariant?] {
        let variants = self.variants
        guard variants.count > 1 || variants.first?.bandwidth ?? 0 > 0 else { return variants.map { _ in nil } }
        return variants.enumerated().map { StreamVariant(index: $0.offset, bandwidth: $0.element.bandwidth, resolution: $0.element.resolution) }
    }

    /// The start of the segment holding `position` (seconds inside a pass) in the current variant.
    func segmentStart(containing position: Double) -> Double {
        state.withLock { state in
            guard let media = state.media[state.selector?.current ?? 0] else { return 0 }
            return media.starts.isEmpty ? 0 : media.starts[media.index(containing: position)]
        }
    }

    // MARK: Streams

    /// A stream from `position` (seconds inside pass `pass`, snapped to its segment's start) on;
    /// live streams start at the live edge.
    func startStream(at position: Double, pass: Int) -> HLSByteStream {
        let live = isLive
        let start = live ? 0 : segmentStart(containing: position)
        state.withLock { state in
            state.cursor = live ? .live(sequence: nil) : .vod(pass: pass, time: start)
            state.lastPass = pass
            state.demuxed = nil
            state.ahead.removeAll()
            state.streamStarted = false
        }
        let flag = AbortFlag()
        return HLSByteStream(fetcher: fetcher, giveUpAfter: options.timeout, cache: live ? nil : cache, abort: flag) {
            [self] index, previous throws(HLSLoadError) in
            try nextSegment(index: index, previous: previous, abort: flag)
        }
    }

    /// The demuxer read a picture packet at timeline `time` from the segment of schedule `index`.
    func noteDemuxed(time: Double, segmentIndex index: Int) {
        state.withLock { state in
            state.demuxed = (time, index)
            if let first = state.ahead.first, first.index <= index { state.ahead.removeAll { $0.index <= index } }
        }
    }

    /// Seconds of media fetched ahead of the picture: what the demuxer read beyond the frame on
    /// screen, and the delivered segments it has not reached.
    var bufferSeconds: Double {
        let presented = controls.presentedTime
        return state.withLock { state in
            let ahead = state.ahead.reduce(0) { $0 + $1.duration }
            guard let demuxed = state.demuxed, let presented else { return ahead }
            return max(0, demuxed.time - presented) + ahead
        }
    }

    // MARK: The schedule (fetch thread)

    private func nextSegment(index: Int, previous: HLSByteStream.Delivered?, abort: AbortFlag) throws(HLSLoadError) -> HLSByteStream.Segment? {
        if let previous { record(previous) }
        waitForRoom(abort: abort)
        if abort.isRaised { return nil }
        let variant = chooseVariant(first: index == 0)
        if isLive { return try nextLiveSegment(variant: variant, abort: abort) }
        let media = try vodMedia(variant, abort: abort)
        let looping = isLooping()
        return state.withLock { state -> HLSByteStream.Segment? in
            guard case .vod(var pass, var time) = state.cursor else { return nil }
            var found = media.index(startingAt: time)
            if found == nil {
                guard looping else { return nil }
                pass += 1
                time = 0
                found = media.playlist.segments.isEmpty ? nil : 0
            }
            guard let position = found else { return nil }
            let entry = media.playlist.segments[position]
            state.cursor = .vod(pass: pass, time: media.starts[position] + entry.duration)
            var segment = HLSByteStream.Segment(entry, variant: variant, pass: pass)
            segment.restartsContainer = pass != state.lastPass && index > 0
            state.lastPass = pass
            return segment
        }
    }

    private func record(_ delivered: HLSByteStream.Delivered) {
        state.withLock { state in
            state.ahead.append((delivered.index, delivered.segment.duration))
            if state.ahead.count > 4096 { state.ahead.removeFirst(2048) }
            guard !delivered.fromCache, var selector = state.selector else { return }
            selector.record(bytes: delivered.byteCount, seconds: delivered.networkSeconds, at: MonotonicCondition.now)
            state.selector = selector
            controls.remember(selector.throughput)
        }
    }

    /// Keeps at most `bufferAhead` seconds fetched ahead of the picture: waits while there is more,
    /// re-checking at least every second (the picture may be paused).
    private func waitForRoom(abort: AbortFlag) {
        while !abort.isRaised {
            let excess = bufferSeconds - options.bufferAhead
            guard excess > 0 else { return }
            abort.sleep(until: MonotonicCondition.now + min(excess, 1))
        }
    }

    /// The variant for the next segment: the selector's choice (the first segment of a stream keeps
    /// the current one), after taking in a new preference or output size.
    private func chooseVariant(first: Bool) -> Int {
        let preference = controls.preference
        let output = Self.resolution(controls.outputSize)
        let buffer = bufferSeconds
        return state.withLock { state in
            guard var selector = state.selector else { return 0 }
            defer { state.selector = selector }
            if preference != selector.preference,
               let replacement = VariantSelector(variants: selector.candidates, preference: preference, outputSize: output,
                                                 tuning: options.variantTuning, throughput: selector.throughput) {
                selector = replacement
                _ = selector.start()
            }
            selector.setOutputSize(output)
            if first && !state.streamStarted {
                state.streamStarted = true
                return selector.current
            }
            let decision = selector.next(bufferSeconds: buffer, now: MonotonicCondition.now)
            if decision.switched {
                logger.info("HLS: variant #\(decision.variant) (\(selector.candidates[decision.variant].bandwidth) b/s) next: \(decision.reason.rawValue), buffer \(String(format: "%.1f", buffer)) s")
            }
            return decision.variant
        }
    }

    /// A VOD variant's playlist, loaded (with retries) the first time it is needed.
    private func vodMedia(_ variant: Int, abort: AbortFlag) throws(HLSLoadError) -> Media {
        if let media = state.withLock({ $0.media[variant] }) { return media }
        let entry = variants[variant]
        let playlist = try retrying(abort: abort) { () throws(HLSLoadError) in
            try loader.loadMedia(entry.url, listedBy: sourceURL, abort: abort)
        }
        let media = Media(try validated(playlist, kind: entry.kind), at: MonotonicCondition.now)
        state.withLock { $0.media[variant] = media }
        return media
    }

    // MARK: Live

    private func nextLiveSegment(variant: Int, abort: AbortFlag) throws(HLSLoadError) -> HLSByteStream.Segment? {
        let waitingSince = MonotonicCondition.now
        while !abort.isRaised {
            let media = try liveMedia(variant, abort: abort)
            let playlist = media.playlist
            let next: HLSByteStream.Segment?? = state.withLock { state in
                guard case .live(let wanted) = state.cursor else { return .some(nil) }
                var sequence = wanted ?? media.liveStartSequence
                let first = playlist.mediaSequence
                if sequence < first {
                    logger.notice("HLS live: the playlist slid past segment \(sequence); continuing at \(first)")
                    sequence = first
                }
                let position = sequence - first
                if position < playlist.segments.count {
                    state.cursor = .live(sequence: sequence + 1)
                    var segment = HLSByteStream.Segment(playlist.segments[position], variant: variant)
                    segment.cacheable = false
                    return .some(segment)
                }
                state.cursor = .live(sequence: sequence)
                return playlist.hasEndList ? .some(nil) : nil
            }
            if let next { return next }
            // Not listed yet: wait for the next reload, or give up once the playlist has brought
            // nothing new for the give-up time while we waited (the server's error, if it failed).
            let now = MonotonicCondition.now
            let stalledSince = max(media.changedAt, waitingSince)
            if now - stalledSince >= options.timeout {
                throw media.reloadError ?? .liveStalled(url: playlist.url.absoluteString, seconds: now - media.changedAt)
            }
            abort.sleep(until: min(Self.reloadTime(of: media), stalledSince + options.timeout))
        }
        return nil
    }

    /// When a live playlist is due again: a target duration after the last load, half of it when
    /// that load brought nothing new (RFC 8216 §6.3.4).
    private static func reloadTime(of media: Media) -> Double {
        let target = max(0.1, media.playlist.targetDuration)
        return media.loadedAt + (media.unchanged ? target / 2 : target)
    }

    /// A live variant's playlist, reloaded when due. A failed reload is tried again at the next
    /// reload time; only a playlist that brings nothing new for the give-up time ends the stream.
    private func liveMedia(_ variant: Int, abort: AbortFlag) throws(HLSLoadError) -> Media {
        let now = MonotonicCondition.now
        let known = state.withLock { $0.media[variant] }
        if let known, now < Self.reloadTime(of: known) { return known }
        let entry = variants[variant]
        do {
            let playlist = try validated(try loader.loadMedia(entry.url, listedBy: sourceURL, abort: abort), kind: entry.kind)
            var media = Media(playlist, at: now)
            if let known {
                let newest = { (list: HLSMediaPlaylist) in list.mediaSequence + list.segments.count }
                let grew = newest(playlist) > newest(known.playlist) || (playlist.hasEndList && !known.playlist.hasEndList)
                media.changedAt = grew ? now : known.changedAt
                media.unchanged = !grew
            }
            state.withLock { $0.media[variant] = media }
            return media
        } catch {
            guard error.isTransient, var known else { throw error }
            logger.info("HLS live reload failed: \(error)")
            known.loadedAt = now
            known.unchanged = true
            known.reloadError = error
            state.withLock { $0.media[variant] = known }
            return known
        }
    }

    // MARK: Helpers

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

    /// `playlist` with every URL it names judged (and normalised) by the policy; a refusal fails.
    private func validated(_ playlist: HLSMediaPlaylist, kind: SourceKind) throws(HLSLoadError) -> HLSMediaPlaylist {
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

    static func resolution(_ size: PixelSize?) -> HLSResolution? {
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return HLSResolution(width: size.width, height: size.height)
    }

    /// Codecs naming only sound (`mp4a.40.2`, `ac-3`…).
    static func isAudioOnly(_ codecs: [String]) -> Bool {
        let audio = ["mp4a", "ac-3", "ec-3", "opus", "flac", "mp3", "fLaC", "Opus"]
        return !codecs.isEmpty && codecs.allSatisfy { codec in audio.contains { codec.hasPrefix($0) } }
    }

    /// The libavformat demuxer for a segment: mov for fMP4 (an init section), mpegts for `.ts`…;
    /// nil to probe.
    static func containerFormat(of segment: HLSSegment) -> String? {
        if segment.initSection != nil { return "mov" }
        switch segment.url.pathExtension.lowercased() {
        case "ts", "tsv", "tsa", "m2ts", "mts": return "mpegts"
        case "mp4", "m4s", "m4v", "m4a", "cmfv", "cmfa", "fmp4": return "mov"
        case "aac": return "aac"
        case "mp3": return "mp3"
        case "ac3": return "ac3"
        case "ec3": return "eac3"
        default: return nil
        }
    }
}

/// Which HLS variant a packet or frame came from (for `variantChanged`).
struct StreamVariant: Sendable, Equatable {
    var index: Int
    var bandwidth: Int
    var resolution: HLSResolution?
}
