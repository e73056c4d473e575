/// The gapless switch between playlist items: the queued next item, the sound device the current
/// item lends it, and the item a switch replaced until the switch has settled.
///
/// The queued item opens and decodes its first frames while the current one plays. Once the current
/// item's sound is all queued, its device is lent to the queued item's sound stage (`tendSound`), so
/// the next item's samples follow in the same ring. At the current item's end the engine promotes the
/// queued item (`promote`); the replaced item keeps its threads until the switch has *settled*
/// (`settleIfDue`). Replaced and dropped items stop on the retirer's thread, not the engine's. The
/// engine owns the items' roles (current, last) and everything the user sees; this type owns the
/// switch's state. Engine thread only.
final class ItemSwitch {
    /// How long after a switch the replaced item's pipeline is left alone: the new item's first
    /// frame is presented and drawn by then (measured from outside, a join right after the present
    /// lengthened the switch by 2–4 ms on two cores).
    static let settlingTime = 0.02

    /// The next item: opened and decoding its first frames while the current one plays.
    private(set) var queued: PlaybackItem?
    /// The item the last switch replaced, stopped once the switch has settled.
    private var retired: PlaybackItem?
    /// When the last switch settles: its first frame is out and the display has drawn it. Work that
    /// would compete with that for the CPU (joining the old item's threads, opening the next item)
    /// waits until then.
    private(set) var settlesAt: Double?
    /// Stops replaced items off the engine's thread.
    private let retirer = PipelineRetirer()
    /// The sound device of the last item that had sound, kept while items without sound play: the
    /// next item with sound plays into it (SDL's disk and dummy drivers open one device only, and
    /// a second open of the disk driver's file empties it).
    private var parked: AudioOutput?
    private let clock: PlaybackClock

    init(clock: PlaybackClock) {
        self.clock = clock
    }

    /// Queues `item` to follow the current one; a queued item must have been dropped first.
    func queue(_ item: PlaybackItem) {
        precondition(queued == nil, "drop the queued item before queueing another")
        queued = item
    }

    /// Whether the current item has lent its sound device to the queued item: the sound controls of
    /// both then reach that one device, and a seek in the current item must take it back.
    var queuedHoldsLentSound: Bool { queued?.pipeline.soundHandOff?.gaveDevice == true }

    /// Forgets the queued item; its threads stop (off this thread, unless it holds a device
    /// `current` lent it: that device comes back to `current`, or is closed when there is none).
    func dropQueued(current: PlaybackItem?) {
        guard let dropped = queued else { return }
        queued = nil
        guard let lent = dropped.pipeline.soundHandOff?.lentDevice else { return retirer.retire(dropped.pipeline) }
        // Stopped here, between two reclaims: given back before the stop (wakes its sound stage if
        // blocked on the ring) and again after it (it may have taken the device over meanwhile).
        lent.reclaim()
        dropped.pipeline.stop()
        lent.reclaim()
        if lent === parked {
            lent.park()
        } else if let current {
            current.pipeline.audio.takeBack()
        } else {
            lent.close()
        }
    }

    /// Every iteration while both items exist: once `current`'s sound is all queued, the queued
    /// item's sound stage gets its device, so its samples follow in the same ring (no gap, no second
    /// device). Returns the queued item if it failed (it is dropped: the engine reports it).
    func tendSound(current: PlaybackItem?) -> (item: PlaybackItem, error: PlayerError)? {
        keepDeviceOfSilent(current)
        guard let next = queued, let current else { return nil }
        if case let .failed(error) = next.pipeline.status.phase {
            dropQueued(current: current)
            return (next, error)
        }
        guard let handOff = next.pipeline.soundHandOff, !handOff.isSettled,
              case .ready = next.pipeline.status.phase, case .ready = current.pipeline.status.phase else { return nil }
        guard next.pipeline.status.audioTrack != nil else {
            handOff.give(nil)  // nothing to hand over to
            return nil
        }
        if current.pipeline.audio.output == nil, current.pipeline.status.audioTrack == nil, let parked, parked.isOpen {
            // The current item is silent: the next one plays into the device kept for it, paused
            // until it is current.
            next.pipeline.audio.change { $0.paused = true }
            handOff.give(parked)
        } else if let device = current.pipeline.audio.output {
            // Whatever its rate and channels: the sound stage converts to the device's format
            // (reopening it would stop the sound between the items, and SDL's single-device
            // drivers cannot open a second).
            guard device.isFinished else { return nil }
            // The device plays on under the queued item's controls: the current item's (not paused).
            let controls = current.pipeline.audio.controls
            next.pipeline.audio.change { $0 = controls }
            handOff.give(current.pipeline.audio.surrender())
        } else if current.pipeline.status.audioTrack == nil {
            handOff.give(nil)  // the current item is silent: the next one opens its own device
        }
        return nil
    }

    /// Takes the queued item to make it current (`retire` the current one next). The current item's
    /// sound device goes to it if its sound stage still waits for a device (a skip); otherwise that
    /// device fades out over one buffer before it closes with its item.
    func promote(replacing current: PlaybackItem?) -> PlaybackItem? {
        guard let next = queued else { return nil }
        queued = nil
        if let handOff = next.pipeline.soundHandOff {
            if !handOff.isSettled {
                let device = current?.pipeline.audio.surrender() ?? parked
                handOff.give(device?.isOpen == true ? device : nil)  // a failed item's device is closed
            }
            handOff.commit()
            handOff.lentDevice?.commitHandOver()
            next.pipeline.audio.keepLent()
            if handOff.lentDevice === parked { parked = nil }
        }
        if next.pipeline.soundHandOff?.gaveDevice != true {
            current?.pipeline.audio.change { $0.paused = true }
            // The next item has no sound: the device waits for a later one instead of closing.
            if case .ready = next.pipeline.status.phase, next.pipeline.status.audioTrack == nil,
               let device = current?.pipeline.audio.surrender(), device.isOpen {
                device.park()
                parked.map(closeParked)
                parked = device
            }
        }
        return next
    }

    /// A skip promoted an item before it opened, with the device of the item before: if it turns out
    /// to have no sound, that device is parked (paused, its queue dropped) for a later item instead
    /// of playing the old item's rest and closing with it.
    private func keepDeviceOfSilent(_ current: PlaybackItem?) {
        guard let current, case .ready = current.pipeline.status.phase, current.pipeline.status.audioTrack == nil,
              current.pipeline.audio.output == nil, let device = current.pipeline.soundHandOff?.takeUnclaimed() else { return }
        device.park()
        parked.map(closeParked)
        parked = device
    }

    /// A device kept for no later item closes off the engine's thread (the close joins SDL's
    /// audio thread).
    private func closeParked(_ device: AudioOutput) {
        retirer.close(device)
    }

    /// The item a switch replaced: it stops once the switch has settled (joining its threads takes a
    /// few milliseconds that would lengthen the switch).
    func retire(_ item: PlaybackItem?) {
        retireNow()
        retired = item
        settlesAt = clock.isVirtual ? clock.now : clock.now + Self.settlingTime
    }

    /// Settles the last switch now (an item shorter than the settling time has ended).
    func settleNow() {
        guard settlesAt != nil else { return }
        settlesAt = clock.now
    }

    /// Once the last switch is due to settle, the item it replaced stops on the retirer's thread.
    /// True when a switch settled now.
    func settleIfDue() -> Bool {
        guard let due = settlesAt, clock.now >= due else { return false }
        settlesAt = nil
        retireNow()
        return true
    }

    /// A new source, or the end: the last switch needs no settling; everything it kept stops now.
    func forget() {
        settlesAt = nil
        retireNow()
        if let parked { closeParked(parked) }
        parked = nil
        retirer.finish()
    }

    /// Applies a sound change to the queued item: all of it once it holds the current item's device
    /// (both items control that one device alike); otherwise all but the pause, so its own device
    /// does not play before it is current.
    func changeQueuedSound(_ body: (inout AudioSlot.Controls) -> Void) {
        guard let queued = queued?.pipeline else { return }
        // A parked device lent to it plays nothing of the current item: it stays paused until the
        // queued item is current.
        if queued.soundHandOff?.gaveDevice == true, queued.soundHandOff?.lentDevice !== parked {
            queued.audio.change(body)
        } else {
            queued.audio.change { controls in
                let paused = controls.paused
                body(&controls)
                controls.paused = paused
            }
        }
    }

    /// The replaced item stops on the retirer's thread.
    private func retireNow() {
        guard let retired else { return }
        retirer.retire(retired.pipeline)
        self.retired = nil
    }
}
