/// A playlist's next item, preloaded. Queued while the current item plays, it opens and decodes its
/// first frames at once; at the current item's end it takes over one frame interval after the last
/// frame (like a loop wrap), and its sound follows the current item's in the same device, sample
/// for sample (`AudioHandOff`). Engine thread only.
extension PlaybackEngine {
    /// Opens `location` now and plays it when the current item ends, instead of ending. Replaces a
    /// queued item. A source the policy refuses is an error event and `PlaylistHooks.queuedItemFailed`.
    public func queueNext(_ location: MediaLocation) {
        dropQueued()
        switch SourcePlan.admit(location, network: configuration.network, controls: network) {
        case let .success(plan):
            let wantsSound = configuration.audio.track != .none && !clock.isVirtual
            upcoming = makeItem(location, plan: plan, soundHandOff: wantsSound ? AudioHandOff() : nil)
        case let .failure(refusal):
            queuedItemFailed(location, refusal)
        }
    }

    /// Forgets the queued item; its threads stop. A device the current item lent it comes back.
    public func dropQueued() {
        guard let queued = upcoming else { return }
        upcoming = nil
        guard let lent = queued.pipeline.soundHandOff?.lentDevice else { return queued.pipeline.stop() }
        // Given back before the stop (wakes its sound stage if blocked on the ring) and again after
        // it (it may have taken the device over meanwhile).
        lent.reclaim()
        queued.pipeline.stop()
        lent.reclaim()
        if let current = item {
            current.pipeline.audio.takeBack()
        } else {
            lent.close()
        }
    }

    /// The current item seeks or changes track after lending its device to the next item: the
    /// next item is dropped (its sound was queued after this one's end) and queued again.
    func takeBackLentSound() {
        guard upcoming?.pipeline.soundHandOff?.gaveDevice == true else { return }
        dropQueued()
        playlistHooks.queueDropped?()
    }

    /// The item queued to follow the current one.
    public var queuedLocation: MediaLocation? { upcoming?.location }

    /// Plays the queued item now (a skip): the current one stops, its sound fades out over one
    /// buffer, and the queued item continues loading (or plays at once if it is ready). False if
    /// nothing is queued.
    @discardableResult
    public func playQueuedNow() -> Bool {
        guard upcoming != nil else { return false }
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
        guard let next = upcoming else { return false }
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
            next.opened(info, presenter: presenter)
            // A device shared with the item before counts its underruns from before.
            next.reportedUnderruns = next.pipeline.audio.output?.underruns ?? 0
            output.prepare(for: info, title: next.displayName)
            if clock.isVirtual || configuration.stop.frames != nil { next.subtitles.prepareNow(timeout: 10) }
            hostHooks.ready?()
            reportDurationIfMeasured()
            return true
        }
    }

    /// Makes the queued item the current one; the current one stops and hands its sound device
    /// over if the queued item's sound stage still waits for one.
    private func promoteQueued() -> PlaybackItem? {
        guard let next = upcoming else { return nil }
        upcoming = nil
        if let handOff = next.pipeline.soundHandOff {
            if !handOff.isSettled {
                let device = item?.pipeline.audio.surrender()
                handOff.give(device?.isOpen == true ? device : nil)  // a failed item's device is closed
            }
            handOff.commit()
            handOff.lentDevice?.commitHandOver()
            next.pipeline.audio.keepLent()
        }
        if next.pipeline.soundHandOff?.gaveDevice != true {
            // The current device closes when the item stops: fade it out first (one buffer).
            item?.pipeline.audio.change { $0.paused = true }
        }
        // The item before stops after the new one's first frame is shown (joining its threads takes
        // a few milliseconds that would lengthen the switch).
        retireItem()
        item = next
        network.beginSource(preference: configuration.network.variant, outputSize: output.variantLimit)
        playlistHooks.advanced?(next.location)
        return next
    }

    /// Every iteration: once the current item's sound is all queued, the queued item's sound stage
    /// gets the device, so its samples follow in the same ring (no gap, no second device).
    func tendQueued() {
        guard let next = upcoming, let current = item else { return }
        if case let .failed(error) = next.pipeline.status.phase {
            dropQueued()
            queuedItemFailed(next.location, error)
            return
        }
        guard let handOff = next.pipeline.soundHandOff, !handOff.isSettled,
              case .ready = next.pipeline.status.phase, case .ready = current.pipeline.status.phase else { return }
        guard let track = next.pipeline.status.audioTrack else {
            handOff.give(nil)  // nothing to hand over to
            return
        }
        if let device = current.pipeline.audio.output {
            // Another rate or channel count: its own device, faded in as this one fades out.
            guard device.suits(rate: track.sampleRate, channels: track.channels, options: configuration.audio) else {
                handOff.give(nil)
                return
            }
            guard device.isFinished else { return }
            // The device plays on under the queued item's controls: the current item's (not paused).
            let controls = current.pipeline.audio.controls
            next.pipeline.audio.change { $0 = controls }
            handOff.give(current.pipeline.audio.surrender())
        } else if current.pipeline.status.audioTrack == nil {
            handOff.give(nil)  // the current item is silent: the next one opens its own device
        }
    }

    /// Moves the current item aside; it is stopped once the switch has settled.
    private func retireItem() {
        stopRetiredItem()
        refilter.finish()
        retired = item
        if let item { lastItem = item }
        item = nil
        // 20 ms: the new item's first frame is presented and drawn by then (measured from outside, a
        // join right after the present lengthened the switch by 2–4 ms on two cores).
        switchSettlesAt = clock.isVirtual ? clock.now : clock.now + 0.02
    }

    /// Stops the item a switch replaced (its threads are joined, its queues freed).
    func stopRetiredItem() {
        retired?.pipeline.stop()
        retired = nil
    }

    /// A new source or the end: the switch before it needs no settling; everything stops now.
    func forgetSwitch() {
        switchSettlesAt = nil
        stopRetiredItem()
        retirer.finish()
    }

    /// After a switch, once its frame is out: the old item stops (on the retirer's thread) and the
    /// playlist queues the next.
    func settleSwitchIfDue() {
        guard let settlesAt = switchSettlesAt, clock.now >= settlesAt else { return }
        switchSettlesAt = nil
        if let retired {
            retirer.retire(retired.pipeline)
            self.retired = nil
        }
        playlistHooks.switchSettled?()
    }

    private func queuedItemFailed(_ location: MediaLocation, _ error: PlayerError) {
        record(error)
        onEvent?(.error(error))
        playlistHooks.queuedItemFailed?(location, error)
    }
}
