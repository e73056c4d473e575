import CFFmpeg
import Filters

/// Playback controls: pause, speed, loop, gravity, filters, seeking. Engine thread only.
extension PlaybackEngine {
    package var isPaused: Bool { item?.presenter?.isPaused ?? machine.wantsPause }

    /// True once the stream is open and frames can be presented (commands apply from here on).
    package var isReady: Bool { item?.presenter != nil }

    package func setPaused(_ paused: Bool) {
        perform(machine.handle(paused ? .pause : .play))
        waiter.wake()
    }

    /// Playback rate: 1 is normal, 0 holds the picture (and silences the sound). Clamped to
    /// `speedRange`; the sound keeps its pitch (`atempo`).
    package var speed: Double { item?.presenter?.speed ?? pendingSpeed }

    /// The playback rates the engine takes (loopplay's `--speed` checks against it).
    package static let speedRange = PropertyLimits.speed

    package func setSpeed(_ speed: Double) {
        let clamped = speed.isNaN ? 1 : speed.clamped(to: Self.speedRange)
        pendingSpeed = clamped
        item?.presenter?.setSpeed(clamped)
        sound.playbackSpeed = clamped
        updateSound()
        waiter.wake()
    }

    package var isLooping: Bool { configuration.looping }

    package func setLooping(_ looping: Bool) {
        let changed = looping != configuration.looping
        configuration.looping = looping
        item?.pipeline.isLooping = looping
        itemSwitch.queued?.pipeline.isLooping = looping
        item?.presenter?.setLooping(looping)
        if looping { perform(machine.handle(.resumed)) }
        if changed { report(.loopingChanged(looping)) }
        waiter.wake()
    }

    /// Network options for the sources loaded from now on; the HLS variant preference also applies
    /// to the source playing, from its next segment.
    package func setNetworkOptions(_ options: NetworkOptions) {
        configuration.network = options
        network.setPreference(options.variant)
    }

    /// The frame cache's budget (`FrameCache`) for the sources loaded from now on.
    package func setFrameCache(bytes: Int) { configuration.frameCacheBytes = max(0, bytes) }

    package func setGravity(_ gravity: VideoGravity) {
        configuration.gravity = gravity
        redraw()
    }

    /// Replaces the filter stack (and brightness/contrast). The stack is checked against the current
    /// picture first (`FrameRefilter.check`): an invalid one throws `invalidFilter` and the previous
    /// stack stays. The next decoded frame uses it; a paused picture is filtered again at once.
    package func setFilters(_ stack: FilterStack) throws(PlayerError) {
        let size = item?.presenter?.current.map { (Int($0.unfiltered.pointee.width), Int($0.unfiltered.pointee.height)) }
            ?? videoInfo.map { ($0.width, $0.height) }
        try noting(FrameRefilter.check(stack, replacing: filters, size: size, timeBase: videoInfo?.timeBase))
        filters = stack
        item?.pipeline.setFilters(stack)
        waiter.wake()  // frames already decoded, and a paused picture, are filtered again
    }

    /// `frame` as the current stack makes it, or nil while the re-filtering worker makes it.
    func refiltered(_ frame: VideoFrame) -> VideoFrame? {
        guard let info = videoInfo else { return frame }
        return refilter.current(frame, stack: filters, timeBase: info.timeBase, done: waiter.wake)
    }

    /// A paused or held picture is filtered again when the stack changes.
    func refreshPausedPicture(_ presenter: Presenter) {
        guard presenter.isPaused || presenter.speed == 0, let current = presenter.current,
              let refreshed = refiltered(current), refreshed !== current, presenter.replaceCurrent(with: refreshed) else { return }
        show(refreshed)
    }

    /// Position inside the current pass, in seconds: from 0 up to (not including) the pass's length.
    package var position: Double { pictureSpot?.position ?? 0 }

    /// Where the picture is (`PlaybackPosition`).
    private var playbackPosition: PlaybackPosition {
        PlaybackPosition(presenter: item?.presenter, measuredLength: item?.pipeline.status.loopDuration)
    }

    /// The pass the picture is in and its position in it (`PlaybackPosition.spot`).
    var pictureSpot: (pass: Int, position: Double)? { playbackPosition.spot }

    /// Length of one pass: measured once the first pass was read, announced by the container before.
    package var duration: Double? {
        item?.pipeline.status.loopDuration ?? videoInfo?.announcedDuration
    }

    /// Seeks inside the current pass; negative goes to the start, past the end to the last frame.
    /// Returns where it goes (nil when it cannot seek) and emits `seek(success, currentTime:)`.
    /// `announce: false` for the player's own seeks (joining a shared timeline): no `seek` event.
    @discardableResult
    package func seek(to position: Double, inPass pass: Int? = nil, announce: Bool = true) -> Double? {
        guard let item, let target = PlaybackPosition.seekTarget(position, duration: duration,
                                                                 lastFrame: videoInfo?.nominalFrameInterval ?? 0) else {
            if announce { emit(.seek(false, currentTime: self.position)) }
            return nil
        }
        takeBackSound()
        item.restart(generation: item.pipeline.seek(to: target, inPass: pass ?? pictureSpot?.pass ?? 0))
        item.realignPending = false  // the sound restarts where the picture does
        perform(machine.handle(.resumed))
        if announce { emit(.seek(true, currentTime: target)) }
        waiter.wake()
        return target
    }

    package func seek(by delta: Double) { seek(to: position + delta) }

    /// The time in the pass of the picture on screen (`PlaybackPosition.shown`).
    package var shownPosition: Double { playbackPosition.shown }

    /// A seek is under way: its first picture is not on screen yet.
    package var isSeeking: Bool { !isFailed && playbackPosition.isSeeking }
}
