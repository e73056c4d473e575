import CFFmpeg
import Filters
import Foundation

/// Playback controls: pause, speed, loop, gravity, filters, seeking. Engine thread only.
extension PlaybackEngine {
    public var isPaused: Bool { presenter?.isPaused ?? wantsPause }

    /// True once the stream is open and frames can be presented (commands apply from here on).
    public var isReady: Bool { presenter != nil }

    public func setPaused(_ paused: Bool) {
        // A player still waiting on its first frame (`NotAutoPlay`) stays ready when paused.
        if paused && holdingFirstFrame { return }
        let changed = paused != wantsPause || state == .ready
        wantsPause = paused
        if !paused { holdingFirstFrame = false }
        presenter?.setPaused(paused)
        if [.playing, .paused, .ready, .buffering].contains(state) { state = paused ? .paused : .playing }
        if changed { onEvent?(paused ? .paused : .playing) }
        waiter.wake()
    }

    /// Whether the next source waits on its first frame (`NotAutoPlay`): state `.ready` until `play`.
    /// Call before `load`.
    public func setHoldsFirstFrame(_ hold: Bool) {
        wantsPause = hold
        holdingFirstFrame = hold
    }

    /// Playback rate: 1 is normal, 0 holds the picture (and silences the sound). Clamped to 0…16;
    /// the sound keeps its pitch (`atempo`).
    public var speed: Double { presenter?.speed ?? pendingSpeed }

    public func setSpeed(_ speed: Double) {
        let clamped = speed.isNaN ? 1 : min(max(speed, 0), 16)
        pendingSpeed = clamped
        presenter?.setSpeed(clamped)
        pipeline?.audio.change { $0.speed = clamped }
        waiter.wake()
    }

    public var isLooping: Bool { configuration.looping }

    public func setLooping(_ looping: Bool) {
        configuration.looping = looping
        pipeline?.isLooping = looping
        presenter?.setLooping(looping)
        if looping && state == .ended { state = wantsPause ? .paused : .playing }
        waiter.wake()
    }

    public func setGravity(_ gravity: VideoGravity) {
        configuration.gravity = gravity
        renderer?.gravity = gravity
        reportBounds()
    }

    /// Replaces the filter stack (and brightness/contrast). The stack is checked against the current
    /// picture first: an invalid one throws `invalidFilter` and the previous stack stays. The next
    /// decoded frame uses it; a paused picture is filtered again at once.
    public func setFilters(_ stack: FilterStack) throws(PlayerError) {
        // The decoded size: the stack applies to unfiltered pictures (a crop may be running now).
        let size = presenter?.current.map { (Int($0.unfiltered.pointee.width), Int($0.unfiltered.pointee.height)) }
            ?? videoInfo.map { ($0.width, $0.height) }
        do {
            if let size, stack.revision != filters.revision || filters.stages.isEmpty != stack.stages.isEmpty {
                try FilterChain.validate(stack, input: FilterGraph.Input(width: Int32(size.0), height: Int32(size.1),
                                                                          timeBase: videoInfo?.timeBase ?? AVRational(num: 1, den: 90_000)))
            } else {
                try stack.validate()
            }
        } catch {
            record(.invalidFilter(error))
            onEvent?(.error(.invalidFilter(error)))
            throw .invalidFilter(error)
        }
        filters = stack
        pipeline?.setFilters(stack)
        waiter.wake()  // frames already decoded, and a paused picture, are filtered again
    }

    /// `frame` as the current stack makes it, or nil while the re-filtering worker makes it.
    func refiltered(_ frame: VideoFrame) -> VideoFrame? {
        guard let info = videoInfo else { return frame }
        return refilter.current(frame, stack: filters, timeBase: info.timeBase, done: waiter.wake)
    }

    /// Position inside the current pass, in seconds.
    public var position: Double { presenter?.positionInPass ?? 0 }

    /// Length of one pass: measured once the first pass was read, announced by the container before.
    public var duration: Double? {
        pipeline?.status.loopDuration ?? videoInfo?.announcedDuration
    }

    /// Seeks inside the current pass; negative goes to the start, past the end to the last frame.
    @discardableResult
    public func seek(to position: Double) -> Double? {
        guard let pipeline, !position.isNaN else { return nil }
        var target = max(0, position)
        if let duration {
            target = min(target, max(0, duration - (videoInfo?.nominalFrameInterval ?? 0)))
        }
        guard target.isFinite else { return nil }  // "the end" of media whose length is not known yet
        let generation = pipeline.seek(to: target, inPass: presenter?.current?.pass ?? 0)
        realignPending = false  // the sound restarts where the picture does
        if let presenter { presenter.restart(generation: generation) } else { pendingSeekGeneration = generation }
        if state == .ended { state = wantsPause ? .paused : .playing }
        waiter.wake()
        return target
    }

    public func seek(by delta: Double) { seek(to: position + delta) }
}
