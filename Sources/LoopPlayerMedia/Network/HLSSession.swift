import Foundation
import Synchronization
import LoopPlayerCore

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
///   seconds fetched ahead of the picture, asks `HLSVariantChoice` for the next segment's variant
///   (output size and preference from `NetworkControls`), and `HLSSegmentSchedule` names the
///   segment (VOD by time inside the pass, looping or ending; live by media sequence number).
/// - **Live** (no `EXT-X-ENDLIST`): starts three target durations before the end; the playlist is
///   reloaded when `HLSMediaTimeline.reloadTime` says (every target duration, half of it after a
///   reload that brought nothing); a playlist that brings no new segment for the give-up time ends
///   the stream with `liveStalled`.
///
/// The parts hold no lock of their own: one mutex over all of them keeps each step atomic.
package final class HLSSession: Sendable {
    /// One variant of the presentation.
    package struct Variant: Sendable, Equatable {
        package var url: URL
        /// What its media playlist may lead to.
        package var kind: SourceKind
        package var bandwidth: Int
        package var resolution: HLSResolution?
    }

    private struct State {
        /// Made by `load()`; the schedule runs only after it.
        var choice: HLSVariantChoice?
        /// Each variant's media playlist, once loaded.
        var media: [Int: HLSMediaTimeline] = [:]
        var schedule = HLSSegmentSchedule()
        /// The current stream's fetch flag: nudged when the demuxer reaches a fetched segment (a
        /// nudge with nobody asleep is kept by its mark, and costs one lock per segment).
        var fetchFlag: AbortFlag?
    }

    private let options: NetworkOptions
    private let controls: NetworkControls
    private let abort: AbortFlag
    private let isLooping: @Sendable () -> Bool
    private let playlists: HLSJudgedPlaylistLoader
    private let fetcher: ResourceFetcher
    private let cache: SegmentCache?
    private let state: Mutex<State>
    private let loaded = Mutex<(variants: [Variant], isLive: Bool, duration: Double?, format: String?)>(([], false, nil, nil))

    /// `abort` is the pipeline's (raised when it stops); `isLooping` says whether a VOD source
    /// starts another pass after its last segment.
    package init(url: URL, kind: SourceKind, options: NetworkOptions, controls: NetworkControls, abort: AbortFlag,
         isLooping: @escaping @Sendable () -> Bool) {
        self.options = options
        self.controls = controls
        self.abort = abort
        self.isLooping = isLooping
        fetcher = ResourceFetcher(http: HTTPFetcher(options: options.fetchOptions))
        playlists = HLSJudgedPlaylistLoader(url: url, kind: kind, options: options, fetcher: fetcher)
        cache = options.segmentCacheBytes > 0 ? SegmentCache(budget: options.segmentCacheBytes) : nil
        state = Mutex(State())
    }

    // MARK: What the demuxer reads

    package var sourceURL: URL { playlists.sourceURL }
    package var sourceKind: SourceKind { playlists.sourceKind }
    package var variants: [Variant] { loaded.withLock { $0.variants } }
    /// No `EXT-X-ENDLIST`: played live, never looped.
    package var isLive: Bool { loaded.withLock { $0.isLive } }
    /// The start variant's length (VOD), from its segments' durations.
    package var duration: Double? { loaded.withLock { $0.duration } }
    /// The demuxer to use on the segments (`mpegts`, `mov`…); nil: probe.
    package var containerFormat: String? { loaded.withLock { $0.format } }
    /// Bytes of segments held by the cache.
    private var cachedBytes: Int { cache?.byteCount ?? 0 }

    /// The variant in use by the schedule now.
    private var currentVariant: Int { state.withLock { $0.choice?.current ?? 0 } }

    /// Seconds fetched ahead while the variant climbs from the start.
    private static let climbingBufferAhead = 4.0

    // MARK: Loading

    /// Loads the source playlist and the start variant's media playlist (retrying transient
    /// failures until the give-up time). Blocking: the demux thread.
    package func load() throws(HLSLoadError) {
        let (playlist, transfer) = try playlists.loadSource(abort: abort)
        var throughput = controls.throughput
        throughput.add(bytes: transfer.byteCount, seconds: transfer.seconds, at: MonotonicCondition.now)
        let variants: [Variant]
        var media: [Int: HLSMediaTimeline] = [:]
        switch playlist {
        case let .master(master):
            variants = try playlists.variants(of: master)
        case let .media(playlist):
            variants = [Variant(url: transfer.finalURL, kind: sourceKind, bandwidth: 0, resolution: nil)]
            media[0] = HLSMediaTimeline(try playlists.judged(playlist, kind: sourceKind), at: MonotonicCondition.now)
        }
        let candidates = variants.map { VariantSelector.Candidate(bandwidth: $0.bandwidth, resolution: $0.resolution) }
        guard var selector = VariantSelector(variants: candidates, preference: controls.preference,
                                             outputSize: Self.resolution(controls.outputSize), tuning: options.variantTuning,
                                             throughput: throughput) else {
            throw .playlist(.empty(url: sourceURL.absoluteString))
        }
        let start = selector.start().variant
        if media[start] == nil {
            media[start] = HLSMediaTimeline(try playlists.loadMedia(variants[start], abort: abort), at: MonotonicCondition.now)
        }
        guard let first = media[start] else { throw .playlist(.empty(url: sourceURL.absoluteString)) }
        if first.playlist.segments.isEmpty && !first.playlist.isLive { throw .playlist(.empty(url: first.playlist.url.absoluteString)) }
        logger.info("HLS \(sourceURL.absoluteString): \(variants.count) variant(s), starting with #\(start) (\(variants[start].bandwidth) b/s)\(first.playlist.isLive ? ", live" : "")")
        state.withLock {
            $0.choice = HLSVariantChoice(selector: selector, tuning: options.variantTuning)
            $0.media = media
        }
        loaded.withLock {
            $0 = (variants, first.playlist.isLive, first.playlist.isLive ? nil : first.duration,
                  first.playlist.segments.first.flatMap(Self.containerFormat))
        }
    }

    /// Each variant's identity as frames carry it (none for a lone media playlist).
    package var streamVariants: [StreamVariant?] {
        let variants = self.variants
        guard variants.count > 1 || variants.first?.bandwidth ?? 0 > 0 else { return variants.map { _ in nil } }
        return variants.enumerated().map { StreamVariant(index: $0.offset, bandwidth: $0.element.bandwidth, resolution: $0.element.resolution) }
    }

    /// The start of the segment holding `position` (seconds inside a pass) in the current variant.
    private func segmentStart(containing position: Double) -> Double {
        state.withLock { state in
            state.media[state.choice?.current ?? 0]?.start(ofSegmentContaining: position) ?? 0
        }
    }

    // MARK: Streams

    /// A stream from `position` (seconds inside pass `pass`, snapped to its segment's start) on;
    /// live streams start at the live edge.
    package func startStream(at position: Double, pass: Int) -> HLSByteStream {
        let live = isLive
        let start = live ? 0 : segmentStart(containing: position)
        let flag = AbortFlag()
        state.withLock { state in
            state.schedule.restart(live: live, at: start, pass: pass)
            state.choice?.restartStream()
            state.fetchFlag = flag
        }
        return HLSByteStream(fetcher: fetcher, giveUpAfter: options.timeout, cache: live ? nil : cache, abort: flag) {
            [self] index, previous throws(HLSLoadError) in
            try nextSegment(index: index, previous: previous, abort: flag)
        }
    }

    /// The demuxer read a picture packet at timeline `time` from the segment of schedule `index`.
    package func noteDemuxed(time: Double, segmentIndex index: Int) {
        let fetching = state.withLock { $0.schedule.noteDemuxed(time: time, segmentIndex: index) ? $0.fetchFlag : nil }
        fetching?.nudge()
    }

    /// Seconds of media fetched ahead of the picture: what the demuxer read beyond the frame on
    /// screen, and the delivered segments it has not reached.
    package var bufferSeconds: Double {
        let presented = controls.presentedTime
        return state.withLock { $0.schedule.bufferSeconds(presented: presented) }
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
        return state.withLock { $0.schedule.nextVOD(in: media, variant: variant, streamIndex: index, looping: looping) }
    }

    private func record(_ delivered: HLSByteStream.Delivered) {
        state.withLock { state in
            state.schedule.noteDelivered(index: delivered.index, duration: delivered.segment.duration,
                                         bytes: delivered.byteCount)
            guard !delivered.fromCache,
                  let throughput = state.choice?.record(bytes: delivered.byteCount, seconds: delivered.networkSeconds,
                                                        at: MonotonicCondition.now) else { return }
            controls.remember(throughput)
        }
    }

    /// Keeps at most `bufferAhead` seconds fetched ahead of the picture: waits while there is more.
    /// Woken when the demuxer reaches a fetched segment or the picture has moved on by the excess
    /// (an untimed or fast picture drains the buffer faster than the wall clock), and re-checks
    /// every second (a seek, timestamps that jump back).
    private func waitForRoom(abort: AbortFlag) {
        defer { controls.stopNudging(abort) }
        while !abort.isRaised {
            // Taken before measuring: a nudge after it ends the sleep at once.
            let mark = abort.nudgeMark
            let presented = controls.presentedTime
            let (buffered, climbing) = state.withLock { ($0.schedule.bufferSeconds(presented: presented), $0.choice?.isClimbing ?? false) }
            // While the variant climbs, little is fetched ahead: what comes next is at the better level.
            let excess = buffered - (climbing ? min(options.bufferAhead, Self.climbingBufferAhead) : options.bufferAhead)
            guard excess > 0 else { return }
            if let presented { controls.nudge(abort, whenPresented: presented + excess) }
            abort.sleep(until: MonotonicCondition.now + 1, unlessNudgedSince: mark)
        }
    }

    /// The variant for the next segment (see `HLSVariantChoice.next`).
    private func chooseVariant(first: Bool) -> Int {
        let preference = controls.preference
        let output = Self.resolution(controls.outputSize)
        let buffer = bufferSeconds
        return state.withLock { state in
            state.choice?.next(first: first, preference: preference, outputSize: output, bufferSeconds: buffer,
                               now: MonotonicCondition.now) ?? 0
        }
    }

    /// A VOD variant's playlist, loaded (with retries) the first time it is needed.
    private func vodMedia(_ variant: Int, abort: AbortFlag) throws(HLSLoadError) -> HLSMediaTimeline {
        if let media = state.withLock({ $0.media[variant] }) { return media }
        let media = HLSMediaTimeline(try playlists.loadMedia(variants[variant], abort: abort), at: MonotonicCondition.now)
        state.withLock { $0.media[variant] = media }
        return media
    }

    // MARK: Live

    private func nextLiveSegment(variant: Int, abort: AbortFlag) throws(HLSLoadError) -> HLSByteStream.Segment? {
        let waitingSince = MonotonicCondition.now
        while !abort.isRaised {
            let media = try liveMedia(variant, abort: abort)
            switch state.withLock({ $0.schedule.nextLive(in: media, variant: variant) }) {
            case let .segment(segment): return segment
            case .end: return nil
            case .notListedYet: break
            }
            // Not listed yet: wait for the next reload, or give up once the playlist has brought
            // nothing new for the give-up time while we waited (the server's error, if it failed).
            let now = MonotonicCondition.now
            let stalledSince = max(media.changedAt, waitingSince)
            if now - stalledSince >= options.timeout {
                throw media.reloadError ?? .liveStalled(url: media.playlist.url.absoluteString, seconds: now - media.changedAt)
            }
            abort.sleep(until: min(media.reloadTime, stalledSince + options.timeout))
        }
        return nil
    }

    /// A live variant's playlist, reloaded when due. A failed reload is tried again at the next
    /// reload time; only a playlist that brings nothing new for the give-up time ends the stream.
    private func liveMedia(_ variant: Int, abort: AbortFlag) throws(HLSLoadError) -> HLSMediaTimeline {
        let now = MonotonicCondition.now
        let known = state.withLock { $0.media[variant] }
        if let known, now < known.reloadTime { return known }
        let media: HLSMediaTimeline
        do {
            let playlist = try playlists.loadMedia(variants[variant], retried: false, abort: abort)
            media = known?.reloaded(with: playlist, at: now) ?? HLSMediaTimeline(playlist, at: now)
        } catch {
            guard error.isTransient, let known else { throw error }
            logger.info("HLS live reload failed: \(error)")
            media = known.failedReload(error, at: now)
        }
        state.withLock { $0.media[variant] = media }
        return media
    }

    // MARK: Helpers

    package static func resolution(_ size: PixelSize?) -> HLSResolution? {
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return HLSResolution(width: size.width, height: size.height)
    }

    /// The libavformat demuxer for a segment: mov for fMP4 (an init section), mpegts for `.ts`…;
    /// nil to probe.
    package static func containerFormat(of segment: HLSSegment) -> String? {
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
package struct StreamVariant: Sendable, Equatable {
    package var index: Int
    package var bandwidth: Int
    package var resolution: HLSResolution?

    package init(index: Int, bandwidth: Int, resolution: HLSResolution?) {
        self.index = index
        self.bandwidth = bandwidth
        self.resolution = resolution
    }
}
