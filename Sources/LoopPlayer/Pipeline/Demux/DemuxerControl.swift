/// Requests for the demux thread. The engine posts them from its thread; the demuxer takes them
/// between packets. Its condition is the one the packet queues share, so a request also wakes a
/// demuxer blocked on a full queue or waiting at the end of non-looping media.
final class DemuxerControl: @unchecked Sendable {  // every field guarded by `condition`
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
    struct Requests {
        var seek: SeekRequest?
        var looping: Bool
        var aborted: Bool
    }

    let condition = MonotonicCondition()
    private var looping: Bool
    private var seek: SeekRequest?
    private var aborted = false
    private var generation = 0
    /// Wakes a demuxer blocked reading a network stream (true: the pipeline stops). Set by the
    /// demux thread for the stream it reads; called outside the lock.
    private var interrupter: (@Sendable (_ stopping: Bool) -> Void)?

    init(looping: Bool) { self.looping = looping }

    /// The generation of the next seek: the caller flushes the sound with it before posting, so no
    /// sound of the new generation can arrive before the flush.
    func nextGeneration() -> Int {
        condition.withLock {
            generation += 1
            return generation
        }
    }

    /// Posts a seek (a later one replaces one not taken yet: seeks merge, as in mpv).
    func requestSeek(_ request: SeekRequest) {
        let interrupt = condition.withLock {
            var merged = request
            // A track change asked for with a seek that is then replaced still happens.
            if merged.audioTrack == nil, let pending = seek?.audioTrack { merged.audioTrack = pending }
            // A sound refresh after a seek not taken yet: the picture still goes where that seek
            // said, with the generation the engine gave it.
            if merged.pictureGeneration == nil, let pending = seek, let picture = pending.pictureGeneration {
                merged.pictureGeneration = picture
                merged.position = pending.position
                merged.pass = pending.pass
            }
            seek = merged
            condition.broadcast()
            return interrupter
        }
        interrupt?(false)
    }

    /// What wakes the demuxer from a blocked network read (nil: nothing to wake).
    func setInterrupter(_ interrupter: (@Sendable (_ stopping: Bool) -> Void)?) {
        let stopNow = condition.withLock {
            self.interrupter = interrupter
            return aborted
        }
        if stopNow { interrupter?(true) }
    }

    /// Sleeps until `queue` (one sharing this condition) is empty — its consumer took everything —
    /// or an abort or a seek arrives. Woken by every take from the queue.
    func waitUntilEmpty(_ queue: BoundedQueue<StageMessage>) {
        condition.withLock {
            while queue.countLocked > 0 && !aborted && seek == nil { condition.wait() }
        }
    }

    /// A seek waits to be taken.
    var hasPendingSeek: Bool { condition.withLock { seek != nil } }

    var isLooping: Bool {
        get { condition.withLock { looping } }
        set { condition.withLock { looping = newValue; condition.broadcast() } }
    }

    func abort() {
        let interrupt = condition.withLock {
            aborted = true
            condition.broadcast()
            return interrupter
        }
        interrupt?(true)
    }

    /// Takes the pending seek (once) and reads the rest.
    func take() -> Requests {
        condition.withLock {
            defer { seek = nil }
            return Requests(seek: seek, looping: looping, aborted: aborted)
        }
    }

    /// True while a seek or an abort waits to be taken: a blocked push gives up for it. Call with
    /// `condition` held (from a queue's `giveUp` test).
    var hasUrgentRequestLocked: Bool { seek != nil || aborted }

    /// The same for the picture's queue: a sound refresh leaves the picture alone, so what is sent
    /// to it is never dropped for one (it would not be sent again).
    var hasPictureUrgentRequestLocked: Bool { (seek != nil && seek?.pictureGeneration != nil) || aborted }

    /// Sleeps until a request arrives: a seek, an abort, or looping switched on (`whileNotLooping`),
    /// or until `deadline` (monotonic seconds).
    func waitForRequest(whileNotLooping: Bool, deadline: Double = .infinity) {
        condition.withLock {
            while seek == nil && !aborted && (!whileNotLooping || !looping) && MonotonicCondition.now < deadline {
                condition.wait(until: deadline)
            }
        }
    }
}
