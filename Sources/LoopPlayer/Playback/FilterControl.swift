import CFFmpeg
import Filters

/// The filters and brightness/contrast applied to every frame of the item playing, kept across
/// sources, and the frames decoded before a change filtered again off the main thread
/// (`FrameRefilter`). The engine says which item plays (`item`). Engine thread only.
package final class FilterControl {
    package private(set) var stack = FilterStack()
    /// The item whose frames are filtered (the engine's current item).
    weak var item: PlaybackItem?
    private let refilter = FrameRefilter()
    private let outbox: EngineOutbox
    private let wake: @Sendable () -> Void

    init(outbox: EngineOutbox, wake: @escaping @Sendable () -> Void) {
        self.outbox = outbox
        self.wake = wake
    }

    /// Replaces the stack (and brightness/contrast). It is checked against the current picture first
    /// (`FrameRefilter.check`): an invalid one throws `invalidFilter` (also an error event) and the
    /// previous stack stays. The next decoded frame uses it; a paused picture is filtered again at once.
    package func setFilters(_ stack: FilterStack) throws(PlayerError) {
        let size = item?.presenter?.current.map { (Int($0.unfiltered.pointee.width), Int($0.unfiltered.pointee.height)) }
            ?? item?.info.map { ($0.width, $0.height) }
        try outbox.noting(FrameRefilter.check(stack, replacing: self.stack, size: size, timeBase: item?.info?.timeBase))
        self.stack = stack
        item?.pipeline.setFilters(stack)
        wake()  // frames already decoded, and a paused picture, are filtered again
    }

    /// The decode thread went back to `stack`, the last that worked: that is what runs now.
    func fellBack(to stack: FilterStack) {
        self.stack = stack
        item?.pipeline.setFilters(stack)
    }

    /// `frame` as the stack makes it, or nil while the worker makes it (its end wakes the engine).
    func current(_ frame: VideoFrame) -> VideoFrame? {
        guard let info = item?.info else { return frame }
        return refilter.current(frame, stack: stack, timeBase: info.timeBase, done: wake)
    }

    /// A paused or held picture filtered again after the stack changed, once made: the presenter
    /// shows it from now on, and the engine draws it.
    func refreshedPausedPicture(_ presenter: Presenter) -> VideoFrame? {
        guard presenter.isPaused || presenter.speed == 0, let current = presenter.current,
              let refreshed = self.current(current), refreshed !== current, presenter.replaceCurrent(with: refreshed)
        else { return nil }
        return refreshed
    }

    /// Waits for a running worker (a new source, the end) and forgets its result.
    func finish() { refilter.finish() }
}
