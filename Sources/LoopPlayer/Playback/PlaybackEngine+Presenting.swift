/// Showing the due frame: the presenter picks it, the engine shows it, counts wraps, notices the
/// end (and a queued item taking over) and starvation. Engine thread only.
extension PlaybackEngine {
    /// Shows the due frame, if any; says what the presenter is waiting for.
    func presentDueFrame() -> Presenter.Step? {
        guard let item, let presenter = item.presenter, !isFailed else { return nil }
        if presenter.ended {
            switch atItemEnd(settling: false) {
            case .advance: return advanceToQueued() ? presentDueFrame() : .idle
            case .holdLastFrame: return .idle
            case .settleThenAdvance, .end:
                // The queued item failed after this one ended: this is the end after all.
                if state == .playing || state == .paused || state == .buffering {
                    perform(machine.handle(.reachedEnd))
                    return .ended
                }
            }
        }
        refreshPausedPicture(presenter)
        keepInStep()
        let step = presenter.next(from: item.pipeline.frames, stop: itemStop) { refiltered($0) }
        switch step {
        case let .show(frame):
            present(frame, item: item, presenter: presenter)
        case .ended:
            switch atItemEnd(settling: itemSwitch.settlesAt != nil) {
            case .holdLastFrame:
                return .idle
            case .settleThenAdvance:
                // An item shorter than the settling time: the one after it is queued now.
                itemSwitch.settleNow()
                settleSwitchIfDue()
                // The controller (a playlist) queues the next item first; the next iteration decides.
                if controllerMayAnswer { return .idle }
                if advanceToQueued() { return presentDueFrame() }
                if itemSwitch.queued != nil { return .idle }
                perform(machine.handle(.reachedEnd))
                updateSound()
            case .advance:
                // The next item takes over now if its first frame is ready; otherwise as soon as it
                // is (its decoder wakes the loop) or it fails.
                if advanceToQueued() { return presentDueFrame() }
                updateSound()
                return .idle
            case .end:
                if let stopped = item.loopingStopped {
                    item.loopingStopped = nil
                    note(stopped)
                }
                perform(machine.handle(.reachedEnd))
                updateSound()
            }
        case let .finished(wrapped):
            if let wrapped { loopCompleted(wrapped) }
        case .waitForFrames:
            noteStarvation(presenter)
        case .waitUntil, .idle:
            break
        }
        return step
    }

    private func present(_ frame: VideoFrame, item: PlaybackItem, presenter: Presenter) {
        let firstOfGeneration = !presenter.showsCurrentGeneration || presenter.current == nil
        show(frame)
        let heard: (Double) -> Double? = { [weak item, configuration] now in
            guard let item, !configuration.audio.muted, !item.realignPending else { return nil }
            return item.pipeline.sound.audibleMediaTime(at: now)
        }
        if let wrapped = presenter.shown(frame, heard: heard) { loopCompleted(wrapped) }
        noteSyncOffset(presenter)
        keepSoundOnTimeline(presenter)
        if item.firstFrameMs == nil {
            let firstFrameMs = (realClock.now - item.loadStartedAt) * 1000
            item.firstFrameMs = firstFrameMs
            counters.firstFrameShown(ms: firstFrameMs)
            perform(machine.handle(.frameShown))
        } else if state == .buffering {
            perform(machine.handle(.frameShown))
        }
        if firstOfGeneration { updateSound() }
        network.presented(frame.time, outputSize: output.variantLimit)
        if let variant = item.announcements.variant(of: frame) { emit(variant) }
        reportBounds()
        realignSoundIfPending()
        onFramePresented?(frame)
    }

    /// What follows the current item's end (`ItemEnd`).
    private func atItemEnd(settling: Bool) -> ItemEnd {
        ItemEnd(queued: itemSwitch.queued != nil, holdsLastFrame: replacedFile.holdsLastFrame, settling: settling)
    }

    /// Playing with an empty queue for longer than two frames (and 50 ms) is buffering.
    private func noteStarvation(_ presenter: Presenter) {
        guard let deadline = starvationDeadline(presenter), clock.now >= deadline else { return }
        perform(machine.handle(.starved))
    }

    /// When an empty queue turns into buffering; nil unless playing in real time.
    func starvationDeadline(_ presenter: Presenter) -> Double? {
        guard state == .playing, !clock.isVirtual, !presenter.isPaused, presenter.speed > 0,
              let shown = presenter.lastShownAt, let info = item?.info else { return nil }
        return shown + 2 * info.nominalFrameInterval + 0.05
    }
}

extension WakePlan.Step {
    init(_ step: Presenter.Step?) {
        switch step {
        case .show?: self = .shown
        case let .waitUntil(time)?: self = .waitUntil(time)
        case .waitForFrames?: self = .waitForFrames
        case .idle?: self = .idle
        case .ended?: self = .ended
        case .finished?: self = .finished
        case nil: self = .nothing
        }
    }
}
