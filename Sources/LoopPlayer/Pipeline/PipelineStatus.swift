import Filters
import Synchronization

/// What a pipeline's threads tell the engine: whether the source opened, the loop's length, the
/// problems met on the way, and a few counters. Threads post; posting wakes the engine's loop,
/// which takes everything at once. The only path from the threads up to the engine.
final class PipelineStatus: Sendable {
    enum Phase: Sendable {
        case opening
        case ready(VideoStreamInfo)
        case failed(PlayerError)
    }

    /// Something the engine must act on.
    enum Report: Sendable {
        /// Playback of this source cannot go on (no decodable picture): the item fails.
        case fatal(PlayerError)
        /// The picture never decodes but the sound does: the source is opened again without its
        /// picture, as audio-only media (the error is a warning).
        case pictureUndecodable(PlayerError)
        /// The local file was replaced while it played (found at a wrap, or behind a read failure):
        /// the stream ends there and the engine queues the new content to follow it.
        case sourceReplaced
        /// A problem that leaves playback running (no sound, no such track).
        case warning(PlayerError)
        /// Looping had to stop: said when playback reaches the end (unless the source fails first).
        case loopingStopped(PlayerError)
        /// A filter stack failed at run time; the decode thread went back to `runningInstead`.
        case filterFailed(FilterError, runningInstead: FilterStack)
        /// The sound device found nothing to play while playing.
        case underrun
    }

    private struct State {
        var phase = Phase.opening
        var loopDuration: Double?
        var reports: [Report] = []
        var audioTracks: [AudioTrack] = []
        var audioTrack: AudioTrack?
    }

    private let state = Mutex(State())
    /// Guards nothing; lets `waitUntilOpened` sleep until the phase changes.
    private let opened = MonotonicCondition()
    private let decoded = Atomic<Int>(0)
    private let replayed = Atomic<Int>(0)
    private let cached = Atomic<Int>(0)
    private let decodeErrorCount = Atomic<Int>(0)
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    var phase: Phase { state.withLock { $0.phase } }

    /// Length of one pass in seconds, once the first pass was read.
    var loopDuration: Double? { state.withLock { $0.loopDuration } }

    var audioTracks: [AudioTrack] { state.withLock { $0.audioTracks } }
    var audioTrack: AudioTrack? { state.withLock { $0.audioTrack } }

    var framesDecoded: Int { decoded.load(ordering: .relaxed) }
    /// Pictures given again from the loop's frame cache instead of decoded.
    var framesReplayed: Int { replayed.load(ordering: .relaxed) }
    /// Bytes of pictures the loop's frame cache holds.
    var frameCacheBytes: Int { cached.load(ordering: .relaxed) }
    var decodeErrors: Int { decodeErrorCount.load(ordering: .relaxed) }

    /// Everything posted since the last call, oldest first.
    func takeReports() -> [Report] {
        state.withLock { state in
            defer { state.reports.removeAll() }
            return state.reports
        }
    }

    /// Blocks until the source opened or failed, at most until `deadline` (monotonic seconds).
    func waitUntilOpened(deadline: Double) -> Phase {
        opened.withLock {
            while case .opening = phase, MonotonicCondition.now < deadline { opened.wait(until: deadline) }
        }
        return phase
    }

    // MARK: Posted by the pipeline's threads

    func setPhase(_ phase: Phase) {
        opened.withLock {
            state.withLock { $0.phase = phase }
            opened.broadcast()
        }
        wake()
    }

    func setLoopDuration(_ seconds: Double) {
        state.withLock { $0.loopDuration = seconds }
        wake()
    }

    func setAudioTracks(_ tracks: [AudioTrack], current: AudioTrack?) {
        state.withLock {
            $0.audioTracks = tracks
            $0.audioTrack = current
        }
    }

    func post(_ report: Report) {
        state.withLock { $0.reports.append(report) }
        wake()
    }

    func countDecodedFrame() { decoded.add(1, ordering: .relaxed) }
    func countReplayedFrame() { replayed.add(1, ordering: .relaxed) }
    func setFrameCacheBytes(_ bytes: Int) { cached.store(bytes, ordering: .relaxed) }
    func setDecodeErrors(_ count: Int) { decodeErrorCount.store(count, ordering: .relaxed) }
}
