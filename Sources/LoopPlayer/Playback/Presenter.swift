/// Shows the frames of one source: takes the queue's head, asks the `FrameScheduler`, and performs
/// what it decides; after every frame shown it follows the sound's clock (`MasterClockFollower`).
/// Main thread. The decisions themselves are pure and table-tested; this is the thin part that
/// touches the queue and the clock.
final class Presenter {
    enum Step {
        /// Show this frame now (it has been taken off the queue), then call `shown(_:heard:)`.
        case show(VideoFrame)
        case waitUntil(Double)
        case waitForFrames
        case idle
        /// Non-looping media just ended.
        case ended
        /// A stop condition was met; `wrapped` is the pass count if the last wrap counted only.
        case finished(wrapped: Int?)
    }

    private(set) var scheduler: FrameScheduler
    private var follower = MasterClockFollower()
    private let clock: PlaybackClock
    private let nominalFrameInterval: Double
    /// The frame on screen.
    private(set) var current: VideoFrame?

    init(clock: PlaybackClock, nominalFrameInterval: Double) {
        self.clock = clock
        self.nominalFrameInterval = nominalFrameInterval
        scheduler = FrameScheduler(nominalFrameInterval: nominalFrameInterval)
    }

    /// A presenter for a stream opened with `info`, set as the engine is now; `generation`: a seek
    /// asked for before it existed.
    convenience init(clock: PlaybackClock, info: VideoStreamInfo, paused: Bool, speed: Double, looping: Bool,
                     runStart: Double?, generation: Int?) {
        self.init(clock: clock, nominalFrameInterval: info.nominalFrameInterval)
        setPaused(paused)
        setSpeed(speed)
        setLooping(looping)
        if let runStart { setRunStart(runStart) }
        if let generation { restart(generation: generation) }
    }

    /// One decision against `frames`. `prepare` gives the picture to show for a due frame
    /// (re-filtered when the stack changed since it was decoded), or nil while that is being made.
    func next(from frames: BoundedQueue<FrameItem>, stop: StopCondition, hostDeadline: Double? = nil,
              prepare: (VideoFrame) -> VideoFrame?) -> Step {
        while true {
            let head = frames.peek()
            let decision = scheduler.decide(head: head.map(\.schedulerHead), following: frames.peek(at: 1).map(\.schedulerHead),
                                            now: clock.now, stop: stop, virtualClock: clock.isVirtual)
            switch decision {
            case .discard, .drop:
                _ = frames.tryPop()
            case let .waitUntil(time):
                guard clock.isVirtual else { return .waitUntil(time) }
                if let hostDeadline, hostDeadline < time, hostDeadline > clock.now {
                    clock.advance(to: hostDeadline)
                    return .waitUntil(time)
                }
                clock.advance(to: time)
            case .waitForFrames:
                return .waitForFrames
            case .idle:
                return .idle
            case .end:
                if case .endOfStream? = head { _ = frames.tryPop() }
                return .ended
            case .finished:
                return .finished(wrapped: nil)
            case .finishedAtWrap:
                guard case let .frame(frame)? = head else { return .finished(wrapped: nil) }
                return .finished(wrapped: scheduler.countWrap(to: frame.schedulerFrame))
            case .show:
                guard case let .frame(frame)? = head, let shown = prepare(frame) else { return .waitForFrames }
                _ = frames.tryPop()
                return .show(shown)
            }
        }
    }

    /// `frame` is on screen now. `heard` gives the media time being heard at a clock time (nil when
    /// nothing is heard). Returns the passes completed if this frame wrapped.
    func shown(_ frame: VideoFrame, heard: (Double) -> Double?) -> Int? {
        let now = clock.now
        let wrapped = scheduler.shown(frame.schedulerFrame, at: now)
        current = frame
        // On a shared timeline the picture keeps the system clock's time, not the sound's.
        guard !clock.isVirtual, !scheduler.isPaused, scheduler.isAnchored, !scheduler.isPinned else {
            follower.release()
            return wrapped
        }
        let correction = follower.follow(picture: scheduler.mediaTime(at: now), frameTime: frame.time,
                                         heard: heard(now), speed: scheduler.speed)
        scheduler.shiftAnchor(by: correction.anchorShift)
        if let offset = correction.offsetMs { scheduler.recordAVOffset(ms: offset) }
        return wrapped
    }

    /// Shows `frame` in place of the current one (the paused picture with new filters).
    func replaceCurrent(with frame: VideoFrame) -> Bool {
        guard let current, frame.generation == current.generation, frame.time == current.time else { return false }
        self.current = frame
        return true
    }

    func setPaused(_ paused: Bool) {
        scheduler.setPaused(paused, at: clock.now)
        follower.release()  // the sound's pause fades out a buffer: join it again on resume
    }

    func setSpeed(_ speed: Double) {
        scheduler.setSpeed(speed, at: clock.now)
        follower.release()
    }

    func setLooping(_ looping: Bool) { scheduler.setLooping(looping) }

    func recordSyncSoundOffset(ms: Double) { scheduler.recordSyncSoundOffset(ms: ms) }

    /// Frames are due by a shared timeline: media time `media` is shown at clock time `clock`.
    func pin(media: Double, clock: Double) { scheduler.pin(media: media, clock: clock) }

    func unpin() { scheduler.unpin() }

    /// The last frame's time on screen minus its time on the shared timeline, in seconds.
    var lastSyncOffset: Double? { scheduler.lastSyncOffset }

    /// The seek generation whose frames are shown (older ones are dropped).
    var generation: Int { scheduler.generation }

    /// The switch to a replaced file's new content counts as a wrap; returns the loops completed.
    func countSwitchAsWrap() -> Int { scheduler.countSwitchAsWrap() }

    /// When the run began, for `StopCondition.duration`.
    func setRunStart(_ time: Double) { scheduler.runStartedAt = time }

    /// This presenter plays the playlist item after `previous`'s: its counters and run go on.
    /// The first frame is shown at `time`, not at once (a schedule's change at its instant).
    func showFirstFrame(at time: Double) { scheduler.showFirstFrame(at: time) }

    /// `firstFrameAt`: the first frame is shown then, not at once (a schedule's change at its instant).
    func continueRun(from previous: Presenter, firstFrameAt: Double? = nil) {
        scheduler.continueRun(from: previous.scheduler, firstFrameAt: firstFrameAt)
    }

    /// Forget the clock and drop frames older than `generation` (after a seek).
    func restart(generation: Int) {
        scheduler.restart(generation: generation)
        follower.release()
    }

    /// The media time the picture is at now, once anchored (for aligning the sound).
    func mediaTimeNow() -> Double? { scheduler.isAnchored ? scheduler.mediaTime(at: clock.now) : nil }

    /// The position inside the current pass, in seconds.
    var positionInPass: Double {
        guard let current else { return 0 }
        return current.positionInPass + max(0, scheduler.mediaTime(at: clock.now) - current.time)
            .clamped(to: 0...current.duration)
    }

    var statistics: PlaybackStatistics { scheduler.statistics }
    var isPaused: Bool { scheduler.isPaused }
    var speed: Double { scheduler.speed }
    var ended: Bool { scheduler.ended }
    var showsCurrentGeneration: Bool { scheduler.showsCurrentGeneration }
    var lastShownAt: Double? { scheduler.lastShownAt }
    /// When an empty queue turns into buffering: two frames and 50 ms after the last one shown,
    /// unless the picture is held (paused, speed 0).
    var starvationDeadline: Double? {
        guard !isPaused, speed > 0, let lastShownAt else { return nil }
        return lastShownAt + 2 * nominalFrameInterval + 0.05
    }
    func deadline(for stop: StopCondition) -> Double? { scheduler.deadline(for: stop) }
}

extension VideoFrame {
    var schedulerFrame: FrameScheduler.Frame {
        FrameScheduler.Frame(time: time, duration: duration, pass: pass, positionInPass: positionInPass, generation: generation)
    }
}

extension FrameItem {
    var schedulerHead: FrameScheduler.Head {
        switch self {
        case let .frame(frame): .frame(frame.schedulerFrame)
        case let .endOfStream(generation, resumable): .endOfStream(generation: generation, resumable: resumable)
        }
    }
}
