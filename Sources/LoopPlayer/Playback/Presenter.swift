/// Picks the frame that is due on the clock and hands it to the renderer. Main thread only.
///
/// It never waits for decoding: it peeks at the frame queue and, if nothing is due, tells the loop
/// when to come back. Frames late by more than their own duration are dropped when a newer frame is
/// already waiting (counted); after a long stall with nothing to drop it re-anchors the clock instead
/// of rushing. The presentation interval at every wrap and the period of every pass are measured here.
///
/// With audible sound, the audio device is the master clock: after every frame the presenter
/// compares its media time with what is being heard and slews its anchor toward it (at most 1 ms
/// per frame, so the motion stays even), or joins it after a start, pause, seek or unmute.
final class Presenter {
    enum Step: Equatable {
        /// A frame was shown; call again at once.
        case presented
        /// Nothing due before this clock time.
        case waitUntil(Double)
        /// The queue is empty: wait for the decoder's wakeup.
        case waitForFrames
        /// Paused, or the end was reached and is being held.
        case idle
        /// A stop condition was met.
        case finished
    }

    private let clock: PlaybackClock
    private var renderer: VideoRenderer
    private(set) var statistics = PlaybackStatistics()
    private(set) var current: VideoFrame?
    private(set) var ended = false
    private(set) var isPaused = false
    private(set) var speed = 1.0
    /// Clock time of the first frame shown; the origin for `StopCondition.duration`.
    private(set) var startedAt: Double?
    /// Media time ↔ clock time; nil until the first frame after an open or a seek.
    private var anchor: (media: Double, clock: Double)?
    /// The anchor was just set for the frame about to be shown; move it to when that frame really
    /// appeared, so a slow first upload (window creation) does not shorten later intervals.
    private var anchorIsProvisional = false
    private var pausedAt: Double?
    private var generation = 0
    private var lastPresentedAt: Double?
    private var passStartedAt: Double?
    /// Re-anchor rather than rush when this far behind with nothing to drop.
    private let stallThreshold = 0.25
    /// Following the sound's clock (false until the first reading after a start, pause or seek).
    private var lockedToMaster = false

    /// With looping off, a frame of a later pass (the demuxer may have wrapped before `unloop`)
    /// counts as the end; switching looping back on continues with it.
    var looping = true
    var onPresented: ((VideoFrame) -> Void)?
    /// Gives the picture to show for a due frame (re-filtered when the stack changed since it was
    /// decoded), or nil while that is being made.
    var prepare: ((VideoFrame) -> VideoFrame?)?
    var onLoopCompleted: ((Int) -> Void)?
    /// The timeline time being heard at a clock time, or nil when nothing is heard (no sound,
    /// paused, starting, buffering): the monotonic clock leads then.
    var masterTime: ((Double) -> Double?)?
    var onEnded: (() -> Void)?

    init(clock: PlaybackClock, renderer: VideoRenderer, nominalFrameInterval: Double) {
        self.clock = clock
        self.renderer = renderer
        statistics.nominalFrameIntervalMs = nominalFrameInterval * 1000
    }

    /// The media time the picture is at now, once playback is anchored (for aligning the sound).
    func mediaTimeNow() -> Double? {
        guard anchor != nil, !anchorIsProvisional else { return nil }
        return mediaTime(at: clock.now)
    }

    /// A frame of the current generation (after the last seek) is on screen.
    var showsCurrentGeneration: Bool { current?.generation == generation }

    /// Clock time the last frame was shown.
    var lastShownAt: Double? { lastPresentedAt }

    /// The position inside the current pass, in seconds.
    var positionInPass: Double {
        guard let current else { return 0 }
        return current.positionInPass + max(0, mediaTime(at: clock.now) - current.time)
            .clamped(to: 0...current.duration)
    }

    func setPaused(_ paused: Bool) {
        guard paused != isPaused else { return }
        let now = clock.now
        if paused {
            pausedAt = now
        } else if let pausedAt, let anchor {
            // Only the paused time after the anchor was set counts (a speed change or the first
            // frame may have re-anchored during the pause).
            self.anchor = (anchor.media, anchor.clock + (now - max(pausedAt, anchor.clock)))
        }
        if !paused { pausedAt = nil }
        isPaused = paused
        lockedToMaster = false  // the sound's pause fades out a buffer: join it again on resume
    }

    func setSpeed(_ newSpeed: Double) {
        let now = clock.now
        if anchor != nil { anchor = (mediaTime(at: now), now) }
        lockedToMaster = false
        speed = max(0, newSpeed)
    }

    /// Stops drawing (the window is going away); the current frame stays for snapshots.
    func detachRenderer() { renderer = NullRenderer() }

    /// Shows `frame` in place of the current one (the paused picture with new filters).
    func replaceCurrent(with frame: VideoFrame) {
        guard let current, frame.generation == current.generation, frame.time == current.time else { return }
        renderer.display(frame)
        self.current = frame
        onPresented?(frame)
    }

    /// Forget the clock anchor and drop frames older than `generation` (after a seek).
    func restart(generation: Int) {
        self.generation = generation
        anchor = nil
        lockedToMaster = false
        ended = false
    }

    func setLooping(_ looping: Bool) {
        self.looping = looping
        if looping && ended {
            // The next pass starts now, not when the held last frame was due.
            ended = false
            anchor = nil
        }
    }

    /// One step of presentation against `frames`.
    func step(frames: BoundedQueue<FrameItem>, stop: StopCondition) -> Step {
        while true {
            if limitReached(stop) { return .finished }
            guard let item = frames.peek() else { return ended && stop.exitAtEnd ? .finished : .waitForFrames }
            if item.generation < generation {
                _ = frames.tryPop()
                continue
            }
            // Paused, but the first frame after a seek is still shown (the new picture, the new time).
            if isPaused, let current, current.generation == generation { return .idle }
            switch item {
            case .endOfStream:
                if let wait = waitForEndOfCurrentFrame() { return wait }
                _ = frames.tryPop()
                ended = true
                onEnded?()
                return stop.exitAtEnd ? .finished : .idle
            case let .frame(frame):
                if speed == 0 && current != nil { return .idle }
                if !looping, let current, frame.pass > current.pass, frame.generation == current.generation {
                    if ended { return stop.exitAtEnd ? .finished : .idle }
                    if let wait = waitForEndOfCurrentFrame() { return wait }
                    ended = true
                    onEnded?()
                    return stop.exitAtEnd ? .finished : .idle
                }
                let now = clock.now
                if anchor == nil {
                    anchor = (frame.time, now)
                    anchorIsProvisional = true
                }
                let due = dueTime(of: frame)
                if let stopAt = deadline(for: stop), due >= stopAt {
                    if clock.isVirtual { clock.advance(to: stopAt); return .finished }
                    return now >= stopAt ? .finished : .waitUntil(stopAt)
                }
                if now < due {
                    guard clock.isVirtual else { return .waitUntil(due) }
                    clock.advance(to: due)
                }
                // `--loops N`: the first frame of pass N is not shown; the wrap still counts.
                if let current, frame.pass > current.pass, let loops = stop.loops,
                   statistics.loopsCompleted + frame.pass - current.pass >= loops {
                    countWraps(to: frame)
                    return .finished
                }
                let lateness = clock.now - due
                if !clock.isVirtual && lateness > frame.duration / max(speed, 0.01), case .frame? = frames.peek(at: 1) {
                    _ = frames.tryPop()
                    statistics.framesDropped += 1
                    continue
                }
                if !clock.isVirtual && lateness > stallThreshold {
                    anchor = (frame.time, clock.now)
                    anchorIsProvisional = true
                }
                guard let shown = prepare.map({ $0(frame) }) ?? frame else { return .waitForFrames }
                _ = frames.tryPop()
                present(shown)
                return .presented
            }
        }
    }

    /// Counts the wraps between the current frame and `frame` (once: `current` moves on right after).
    private func countWraps(to frame: VideoFrame) {
        guard let current, frame.pass > current.pass else { return }
        statistics.loopsCompleted += frame.pass - current.pass
        onLoopCompleted?(statistics.loopsCompleted)
    }

    private func present(_ frame: VideoFrame) {
        countWraps(to: frame)
        renderer.display(frame)
        let shownAt = clock.now
        if startedAt == nil { startedAt = shownAt }
        if isPaused { pausedAt = shownAt }  // a picture shown while paused (after a seek) starts the pause anew
        if anchorIsProvisional {
            anchor = (frame.time, shownAt)
            anchorIsProvisional = false
        }
        if let previous = current, frame.pass > previous.pass, frame.generation == previous.generation {
            if let lastPresentedAt { statistics.recordSeam(intervalMs: (shownAt - lastPresentedAt) * 1000) }
            if let passStartedAt { statistics.loopPeriodsMs.append((shownAt - passStartedAt) * 1000) }
            passStartedAt = shownAt
        } else if current == nil || frame.generation != current?.generation {
            passStartedAt = frame.positionInPass < frame.duration ? shownAt : nil
        }
        lastPresentedAt = shownAt
        current = frame
        statistics.framesPresented += 1
        followMaster(shownFrame: frame, at: shownAt)
        onPresented?(frame)
    }

    /// Moves the anchor toward the sound's clock; records how far the picture was from the sound.
    private func followMaster(shownFrame frame: VideoFrame, at now: Double) {
        guard let masterTime, !clock.isVirtual, !isPaused, speed > 0, let anchor, !anchorIsProvisional,
              let heard = masterTime(now) else {
            lockedToMaster = false
            return
        }
        let drift = mediaTime(at: now) - heard  // > 0: the picture is ahead of the sound
        if lockedToMaster { statistics.recordAVOffset(ms: (frame.time - heard) * 1000) }
        if !lockedToMaster || abs(drift) > 0.2 {
            lockedToMaster = true
            self.anchor = (anchor.media, anchor.clock + drift / speed)
        } else if abs(drift) > 0.0005 {
            let correction = (drift * 0.1).clamped(to: -0.001...0.001)
            self.anchor = (anchor.media, anchor.clock + correction / speed)
        }
    }

    private func dueTime(of frame: VideoFrame) -> Double {
        guard let anchor else { return clock.now }
        return anchor.clock + (frame.time - anchor.media) / max(speed, 0.01)
    }

    private func mediaTime(at time: Double) -> Double {
        guard let anchor else { return current?.time ?? 0 }
        let end = pausedAt ?? time
        return anchor.media + (end - anchor.clock) * speed
    }

    /// The end is reported once the last frame has had its full time on screen.
    private func waitForEndOfCurrentFrame() -> Step? {
        guard let current, anchor != nil else { return nil }
        let end = dueTime(of: current) + current.duration / max(speed, 0.01)
        guard clock.now < end else { return nil }
        if clock.isVirtual { clock.advance(to: end); return nil }
        return .waitUntil(end)
    }

    private func limitReached(_ stop: StopCondition) -> Bool {
        if let frames = stop.frames, statistics.framesPresented >= frames { return true }
        if let duration = stop.duration, let startedAt, clock.now - startedAt >= duration { return true }
        return false
    }

    /// When `stop.duration` runs out, for the loop's wait.
    func deadline(for stop: StopCondition) -> Double? {
        guard let duration = stop.duration, let startedAt else { return nil }
        return startedAt + duration
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
