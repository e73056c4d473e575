/// Showing the due frame: the presenter picks it, the engine shows it, counts wraps, notices the
/// end (and a queued item taking over) and starvation. Engine thread only.
extension PlaybackEngine {
    /// Shows the due frame, if any; says what the presenter is waiting for. After a queued item
    /// took over, its first frame is shown in the same call (once: that item has not ended).
    /// `hostDeadline`: a virtual clock moved to a frame's time stops there first, so that what the
    /// controller planned for then (a schedule's change) happens before the frame.
    /// `holdingClock`: a virtual clock stands still (the controller waits for something of its own).
    func presentDueFrame(hostDeadline: Double? = nil, holdingClock: Bool = false) -> Presenter.Step? {
        // A virtual clock runs as fast as frames are shown: it would pass the instant the controller
        // waits for (a schedule's change whose item is still decoding) before that is ready.
        if holdingClock, clock.isVirtual { return .waitForFrames }
        guard let item, let presenter = item.presenter, !isFailed else { return nil }
        if presenter.ended {
            switch atItemEnd(settling: false) {
            case .advance: return advanceToQueued() ? presentDueFrame(hostDeadline: hostDeadline) : waitingForQueued
            case .holdLastFrame: return .idle
            case .settleThenAdvance, .end:
                // The queued item failed after this one ended: this is the end after all.
                if state == .playing || state == .paused || state == .buffering {
                    apply(.reachedEnd)
                    return .ended
                }
            }
        }
        if let refreshed = filterControl.refreshedPausedPicture(presenter) { screen.show(refreshed) }
        keepInStep()
        let step = presenter.next(from: item.pipeline.frames, stop: itemStop, hostDeadline: hostDeadline) { filterControl.current($0) }
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
                itemSwitch.settleIfDue()
                // The controller (a playlist) queues the next item first; the next iteration decides.
                if outbox.awaitsController { return .idle }
                if advanceToQueued() { return presentDueFrame(hostDeadline: hostDeadline) }
                if itemSwitch.queued != nil { return .idle }
                apply(.reachedEnd)
                updateSound()
            case .advance:
                // The next item takes over now if its first frame is ready; otherwise as soon as it
                // is (its decoder wakes the loop) or it fails.
                if advanceToQueued() { return presentDueFrame(hostDeadline: hostDeadline) }
                updateSound()
                return waitingForQueued
            case .end:
                if let stopped = item.takeLoopingStopped() { outbox.note(stopped) }
                apply(.reachedEnd)
                updateSound()
            }
        case let .finished(wrapped):
            if let wrapped { outbox.emit(.loopCompleted(wrapped)) }
        case .waitForFrames:
            // Playing with an empty queue for longer than two frames (and 50 ms) is buffering.
            if let due = starvationDeadline(presenter), clock.now >= due { apply(.starved) }
        case .waitUntil, .idle:
            break
        }
        return step
    }

    private func present(_ frame: VideoFrame, item: PlaybackItem, presenter: Presenter) {
        let firstOfGeneration = !presenter.showsCurrentGeneration || presenter.current == nil
        screen.showDue(frame)
        let heard: (Double) -> Double? = { [weak item, muted = soundControl.isMuted] now in
            guard let item, !muted, !item.realignPending else { return nil }
            return item.pipeline.sound.audibleMediaTime(at: now)
        }
        if let wrapped = presenter.shown(frame, heard: heard) { outbox.emit(.loopCompleted(wrapped)) }
        timelineSync.frameShown(by: presenter, frameInterval: item.info?.nominalFrameInterval ?? 0)
        timelineSync.keepSoundOnTimeline(item, presenter: presenter)
        let firstFrameMs = item.firstFrameShown(now: realClock.now)
        if let firstFrameMs { counters.firstFrameShown(ms: firstFrameMs) }
        if firstFrameMs != nil || state == .buffering { apply(.frameShown) }
        if firstOfGeneration { updateSound() }
        network.presented(frame.time, outputSize: output.variantLimit)
        if let variant = item.announcements.variant(of: frame) { outbox.emit(variant) }
        screen.reportBounds()
        soundControl.realignIfPending()
        onFramePresented?(frame)
    }

    /// What follows the current item's end (`ItemEnd`).
    /// At the end, the queued item's first frame still decoding: its decoder wakes the loop. A
    /// virtual clock stands still meanwhile (it would jump to the next deadline, past the switch).
    private var waitingForQueued: Presenter.Step { clock.isVirtual ? .waitForFrames : .idle }

    private func atItemEnd(settling: Bool) -> ItemEnd {
        ItemEnd(queued: itemSwitch.queued != nil, holdsLastFrame: replacedFile.holdsLastFrame, settling: settling)
    }

    /// When an empty queue turns into buffering (`Presenter.starvationDeadline`); playing in real time only.
    func starvationDeadline(_ presenter: Presenter) -> Double? {
        state == .playing && !clock.isVirtual ? presenter.starvationDeadline : nil
    }
}
