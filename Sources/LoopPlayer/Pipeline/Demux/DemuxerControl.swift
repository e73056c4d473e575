/// Requests for the demux thread. The engine posts them from its thread; the demuxer takes them
/// between packets. Its condition is the one the packet queues share, so a request also wakes a
/// demuxer blocked on a full queue or waiting at the end of non-looping media.
final class DemuxerControl: Sendable {
    struct SeekRequest: Sendable {
        /// The sound's generation (and the picture's, unless `pictureGeneration` says otherwise).
        var generation: Int
        /// Seconds inside `pass`.
        var position: Double
        var pass: Int
        /// A new audio track (`.some(nil)`: none) switched with this seek; nil keeps the track.
        var audioTrack: AudioTrack??
        /// The picture's generation; nil for a sound refresh (a track change): only the sound
        /// restarts at `position`, the picture plays on and is not sent again what it already has.
        var pictureGeneration: Int?

        init(generation: Int, position: Double, pass: Int, audioTrack: AudioTrack?? = nil, keepsPicture: Bool = false) {
            self.generation = generation
            self.position = position
            self.pass = pass
            self.audioTrack = audioTrack
            pictureGeneration = keepsPicture ? nil : generation
        }
    }

    /// What the demuxer takes at once.
    struct Requests: Sendable {
        var seek: SeekRequest?
        var looping: Bool
        var aborted: Bool
    }

    private struct State {
        var looping: Bool
        var seek: SeekRequest?
        var aborted = false
        var generation = 0
        /// Wakes a demuxer blocked reading a network stream (true: the pipeline stops). Set by the
        /// demux thread for the stream it reads; called outside the lock.
        var interrupter: (@Sendable (_ stopping: Bool) -> Void)?

        /// A seek or an abort waits to be taken.
        var isUrgent: Bool { seek != nil || aborted }
    }

    private let guarded: WaitableState<State>

    init(looping: Bool) { guarded = WaitableState(State(looping: looping)) }

    /// The lock the packet queues share with these requests.
    var condition: MonotonicCondition { guarded.condition }

    /// The generation of the next seek: the caller flushes the sound with it before posting, so no
    /// sound of the new generation can arrive before the flush.
    func nextGeneration() -> Int {
        guarded.change { state in
            state.generation += 1
            return state.generation
        }
    }

    /// Posts a seek (a later one replaces one not taken yet: seeks merge, as in mpv).
    func requestSeek(_ request: SeekRequest) {
        let interrupt = guarded.change { state in
            var merged = request
            // A track change asked for with a seek that is then replaced still happens.
            if merged.audioTrack == nil, let pending = state.seek?.audioTrack { merged.audioTrack = pending }
            // A sound refresh after a seek not taken yet: the picture still goes where that seek
            // said, with the generation the engine gave it.
            if merged.pictureGeneration == nil, let pending = state.seek, let picture = pending.pictureGeneration {
                merged.pictureGeneration = picture
                merged.position = pending.position
                merged.pass = pending.pass
            }
            state.seek = merged
            return state.interrupter
        }
        interrupt?(false)
    }

    /// What wakes the demuxer from a blocked network read (nil: nothing to wake).
    func setInterrupter(_ interrupter: (@Sendable (_ stopping: Bool) -> Void)?) {
        let stopNow = guarded.change { state in
            state.interrupter = interrupter
            return state.aborted
        }
        if stopNow { interrupter?(true) }
    }

    /// Sleeps until `queue` (one sharing this condition) is empty — its consumer took everything —
    /// or an abort or a seek arrives. Woken by every take from the queue.
    func waitUntilEmpty(_ queue: BoundedQueue<StageMessage>) {
        guarded.withLock {
            while queue.count > 0 && !hasUrgentRequest { condition.wait() }
        }
    }

    /// A seek waits to be taken.
    var hasPendingSeek: Bool { guarded.read { $0.seek != nil } }

    var isLooping: Bool {
        get { guarded.read { $0.looping } }
        set { guarded.change { $0.looping = newValue } }
    }

    func abort() {
        let interrupt = guarded.change { state in
            state.aborted = true
            return state.interrupter
        }
        interrupt?(true)
    }

    /// Takes the pending seek (once) and reads the rest.
    func take() -> Requests {
        guarded.change { state in
            defer { state.seek = nil }
            return Requests(seek: state.seek, looping: state.looping, aborted: state.aborted)
        }
    }

    /// True while a seek or an abort waits to be taken: a blocked push gives up for it (its
    /// `giveUp` test runs with `condition` held, so no request slips in before it sleeps).
    var hasUrgentRequest: Bool { guarded.read { $0.isUrgent } }

    /// The same for the picture's queue: a sound refresh leaves the picture alone, so what is sent
    /// to it is never dropped for one (it would not be sent again).
    var hasPictureUrgentRequest: Bool {
        guarded.read { ($0.seek != nil && $0.seek?.pictureGeneration != nil) || $0.aborted }
    }

    /// Sleeps until a request arrives: a seek, an abort, or looping switched on (`whileNotLooping`),
    /// or until `deadline` (monotonic seconds).
    func waitForRequest(whileNotLooping: Bool, deadline: Double = .infinity) {
        guarded.withLock {
            _ = guarded.waitLocked(until: deadline) { !$0.isUrgent && (!whileNotLooping || !$0.looping) }
        }
    }
}
