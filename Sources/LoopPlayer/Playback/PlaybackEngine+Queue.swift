import Foundation

/// A playlist's next item, preloaded. Queued while the current item plays, it opens and decodes its
/// first frames at once; at the current item's end it takes over one frame interval after the last
/// frame (like a loop wrap), and its sound follows the current item's in the same device, sample
/// for sample. `ItemSwitch` owns the switch's state; the engine shows the result. Engine thread only.
extension PlaybackEngine {
    /// Opens `location` now and plays it when the current item ends, instead of ending. Replaces a
    /// queued item. A source the policy refuses is an error event and `EngineEvent.queuedItemFailed`.
    package func queueNext(_ location: MediaLocation) {
        itemSwitch.dropQueued()
        switch items.admit(location) {
        case let .success(plan):
            itemSwitch.queue(items.make(location, plan: plan, queued: true))  // its sound waits for the device
        case let .failure(refusal):
            queuedItemFailed(location, refusal)
        }
    }

    /// The item queued to follow the current one.
    package var queuedLocation: MediaLocation? { itemSwitch.queued?.location }

    /// Plays the queued item now (a skip): the current one stops, its sound fades out over one
    /// buffer, and the queued item continues loading (or plays at once if it is ready). False if
    /// nothing is queued. `firstFrameAt` (the engine's clock): a ready item's first frame is shown
    /// then (a schedule's change at its instant), the current one's last frame until then.
    /// `reporting`: false when the caller knows of the switch by the answer and wants no `advanced`
    /// event (a schedule's change: the list it starts is not told of it).
    @discardableResult
    package func playQueuedNow(firstFrameAt: Double? = nil, reporting: Bool = true) -> Bool {
        guard itemSwitch.queued != nil else { return false }
        if advanceToQueued(firstFrameAt: firstFrameAt, reporting: reporting) { return true }
        guard promoteQueued(reporting: reporting) != nil else { return false }
        startLoading()
        openIfReady()
        return true
    }

    /// At the current item's end: the queued item takes over if its first frame is decoded.
    /// A queued item that failed is reported and dropped (the playlist may queue another).
    func advanceToQueued(firstFrameAt: Double? = nil, reporting: Bool = true) -> Bool {
        switch itemSwitch.readiness {
        case .nothingQueued, .notYet:
            return false
        case let .failed(next, error):
            itemSwitch.dropQueued()
            queuedItemFailed(next.location, error)
            return false
        case let .ready(next, info):
            let previous = item?.presenter
            let isReplacement = promoteQueued(reporting: reporting)?.isReplacement == true
            // The state first: a `NotAutoPlay` hold ends with the first item (the presenter follows).
            apply(.advanced)
            let presenter = makePresenter(info, item: next, paused: machine.wantsPause)
            if let previous {
                presenter.continueRun(from: previous, firstFrameAt: firstFrameAt)
            } else if let firstFrameAt {
                presenter.showFirstFrame(at: firstFrameAt)  // after a failed item: nothing shown before
            }
            // A replaced file's new content follows at a wrap: it counts as one.
            if isReplacement {
                screen.clearError(redrawing: false)  // a failed version's text, if one was shown
                if previous != nil { outbox.emit(.loopCompleted(presenter.countSwitchAsWrap())) }
            }
            // The device counts the underruns of the items before.
            next.announcements.takesOver(underruns: sound.underruns)
            next.opened(info, presenter: presenter, in: output, subtitlesNow: framesCannotWait)
            outbox.report(.opened)
            reportDurationIfMeasured()
            return true
        }
    }

    /// Makes the queued item the current one; the current one is retired (stopped once the switch
    /// has settled) and hands its sound device over if the queued item's sound stage still waits.
    private func promoteQueued(reporting: Bool = true) -> ItemSwitch.Promotion? {
        guard let promoted = itemSwitch.promote() else { return nil }
        let (next, afterEnd) = (promoted.item, item?.presenter?.ended == true)
        filterControl.finish()
        itemSwitch.retire(item)
        makeCurrent(next)
        if let index = promoted.scheduleItem { timelineSync.scheduleAdvanced(to: index) }
        network.beginSource(preference: configuration.network.variant, outputSize: output.variantLimit)
        if !promoted.isReplacement, reporting { outbox.report(.advanced(next.location, afterEnd: afterEnd)) }
        return promoted
    }

    /// Every iteration: a replaced file's new content is queued once the file has settled (and
    /// takes over at once if the current item's pipeline already failed on the old content).
    func tendReplacement() {
        guard let item, itemSwitch.queued == nil, replacedFile.isDue(now: realClock.now) else { return }
        switch items.admit(item.location) {
        case let .success(plan):
            itemSwitch.queue(items.make(item.location, plan: plan, queued: true), isReplacement: true)
            replacedFile.queued()
        case let .failure(refusal):
            outbox.note(refusal)
            replacedFile.queueFailed()
        }
        if replacedFile.takesOverAtOnce { playQueuedNow() }
    }

    /// Every iteration: the sound hand-off to the queued item, and a queued item that failed.
    func tendQueued() {
        guard let failed = itemSwitch.tendSound(current: item) else { return }
        queuedItemFailed(failed.item.location, failed.error)
    }

    private func queuedItemFailed(_ location: MediaLocation, _ error: PlayerError) {
        outbox.note(error)
        // A replaced file's new content that cannot be opened: the last frame stays (and the error
        // is shown) until the file changes again; it is no playlist item.
        if replacedFile.isQueued {
            replacedFile.queueFailed()
            screen.showError(error)
            return
        }
        outbox.report(.queuedItemFailed(location, error))
    }
}
