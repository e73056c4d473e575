/// A playlist's next item, preloaded. Queued while the current item plays, it opens and decodes its
/// first frames at once; at the current item's end it takes over one frame interval after the last
/// frame (like a loop wrap), and its sound follows the current item's in the same device, sample
/// for sample. `ItemSwitch` owns the switch's state; the engine shows the result. Engine thread only.
extension PlaybackEngine {
    /// Opens `location` now and plays it when the current item ends, instead of ending. Replaces a
    /// queued item. A source the policy refuses is an error event and `EngineEvent.queuedItemFailed`.
    package func queueNext(_ location: MediaLocation) {
        dropQueued()
        switch admit(location) {
        case let .success(plan):
            itemSwitch.queue(makeQueuedItem(location, plan: plan))
        case let .failure(refusal):
            queuedItemFailed(location, refusal)
        }
    }

    /// An item to follow the current one: its sound stage waits for the sound device.
    private func makeQueuedItem(_ location: MediaLocation, plan: SourcePlan) -> PlaybackItem {
        makeItem(location, plan: plan, queued: true)
    }

    /// Forgets the queued item; its threads stop. The sound device, if it was handed over to it,
    /// comes back to the current item.
    package func dropQueued() {
        itemSwitch.dropQueued()
        queuedScheduleItem = nil
    }

    /// The current item seeks or changes track after the sound device went to the next item: the
    /// next item is dropped (its sound was queued after this one's end) and queued again.
    func takeBackSound() {
        guard itemSwitch.queuedHasSound else { return }
        dropQueued()
        report(.queueDropped)
    }

    /// The item queued to follow the current one.
    package var queuedLocation: MediaLocation? { itemSwitch.queued?.location }

    /// Plays the queued item now (a skip): the current one stops, its sound fades out over one
    /// buffer, and the queued item continues loading (or plays at once if it is ready). False if
    /// nothing is queued.
    @discardableResult
    package func playQueuedNow() -> Bool {
        guard itemSwitch.queued != nil else { return false }
        if advanceToQueued() { return true }
        guard promoteQueued() != nil else { return false }
        isClosed = false
        perform(machine.handle(.load(autoplay: !holdsFirstFrame)))
        openIfReady()
        return true
    }

    /// At the current item's end: the queued item takes over if its first frame is decoded.
    /// A queued item that failed is reported and dropped (the playlist may queue another).
    func advanceToQueued() -> Bool {
        guard let next = itemSwitch.queued else { return false }
        switch next.pipeline.status.phase {
        case .opening:
            return false
        case let .failed(error):
            dropQueued()
            queuedItemFailed(next.location, error)
            return false
        case let .ready(info):
            guard next.pipeline.frames.peek() != nil else { return false }
            let previous = item?.presenter
            _ = promoteQueued()
            // The state first: a `NotAutoPlay` hold ends with the first item (the presenter follows).
            perform(machine.handle(.advanced))
            let presenter = makePresenter(info, item: next, paused: machine.wantsPause)
            if let previous { presenter.continueRun(from: previous) }
            // A replaced file's new content follows at a wrap: it counts as one.
            if next.isReplacement {
                scene.overlays.clearError()  // a failed version's text, if one was shown
                if previous != nil { loopCompleted(presenter.countSwitchAsWrap()) }
            }
            // The device counts the underruns of the items before.
            next.reportedUnderruns = sound.underruns
            startPresenting(next, info: info, presenter: presenter)
            report(.opened)
            reportDurationIfMeasured()
            return true
        }
    }

    /// Makes the queued item the current one; the current one is retired (stopped once the switch
    /// has settled) and hands its sound device over if the queued item's sound stage still waits.
    private func promoteQueued() -> PlaybackItem? {
        guard let next = itemSwitch.promote() else { return nil }
        refilter.finish()
        itemSwitch.retire(item)
        if let item {
            lastItem = item
            let status = item.pipeline.status
            earlierItems.decoded += status.framesDecoded
            earlierItems.replayed += status.framesReplayed
            earlierItems.errors += status.decodeErrors
        }
        item = next
        if let index = queuedScheduleItem { syncSchedule?.item = index }
        queuedScheduleItem = nil
        network.beginSource(preference: configuration.network.variant, outputSize: output.variantLimit)
        if !next.isReplacement { report(.advanced(next.location)) }
        return next
    }

    /// Every iteration: a replaced file's new content is queued once the file has settled (and
    /// takes over at once if the current item's pipeline already failed on the old content).
    func tendReplacement() {
        guard let item, var replacement = item.replacement, itemSwitch.queued == nil else { return }
        guard replacement.isReady(now: realClock.now) else {
            item.replacement = replacement  // what it saw of the file
            return
        }
        switch admit(item.location) {
        case let .success(plan):
            let next = makeQueuedItem(item.location, plan: plan)
            next.isReplacement = true
            itemSwitch.queue(next)
            replacement.isQueued = true
        case let .failure(refusal):
            record(refusal)
            emit(.error(refusal))
            replacement.queuedFailed()
        }
        item.replacement = replacement
        if item.failedBeforeReplacement { playQueuedNow() }
    }

    /// Every iteration: the sound hand-off to the queued item, and a queued item that failed.
    func tendQueued() {
        guard let failed = itemSwitch.tendSound(current: item) else { return }
        queuedItemFailed(failed.item.location, failed.error)
    }

    /// A new source or the end: the switch before it needs no settling; everything stops now.
    func forgetSwitch() {
        itemSwitch.forget()
    }

    /// After a switch, once its frame is out: the old item stops (on the retirer's thread) and the
    /// playlist queues the next.
    func settleSwitchIfDue() {
        if itemSwitch.settleIfDue() { report(.switchSettled) }
    }

    private func queuedItemFailed(_ location: MediaLocation, _ error: PlayerError) {
        record(error)
        emit(.error(error))
        // A replaced file's new content that cannot be opened: the last frame stays (and the error
        // is shown) until the file changes again; it is no playlist item.
        if let item, item.replacement?.isQueued == true {
            item.replacement?.queuedFailed()
            scene.overlays.showError(error.description, style: OverlayStack.ErrorStyle(
                color: configuration.errorColor, fontSize: configuration.errorFontSize))
            redraw()
            return
        }
        report(.queuedItemFailed(location, error))
    }
}
