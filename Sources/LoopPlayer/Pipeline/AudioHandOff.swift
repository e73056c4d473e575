/// How the next playlist item's sound stage gets its device: it waits here until the engine gives
/// it the current item's device (once that item's sound is all queued: the samples then follow
/// without a gap) or nil (open a device of its own). One-shot; `cancel` wakes a waiting stage when
/// its pipeline stops. A given device stays the engine's until `commit` (the item plays); after
/// that one never claimed (the item has no sound stage) is closed by `cancel`.
final class AudioHandOff: @unchecked Sendable {  // `outcome`, `claimed`, `committed` are guarded by `condition`
    enum Outcome: Sendable {
        case device(AudioOutput)
        case openOwn
        case cancelled
    }

    private let condition = MonotonicCondition()
    private var outcome: Outcome?
    private var claimed = false
    private var committed = false

    /// The first call decides; later ones change nothing. False if it was decided before.
    @discardableResult
    func give(_ device: AudioOutput?) -> Bool {
        condition.withLock {
            guard outcome == nil else { return false }
            outcome = device.map(Outcome.device) ?? .openOwn
            condition.broadcast()
            return true
        }
    }

    var isSettled: Bool { condition.withLock { outcome != nil } }

    /// The previous item's device was given (the sound controls of both items reach it).
    var gaveDevice: Bool { lentDevice != nil }

    /// The device given, if one was.
    var lentDevice: AudioOutput? {
        condition.withLock {
            if case let .device(device)? = outcome { return device }
            return nil
        }
    }

    /// The item plays: a given device is its pipeline's from now on.
    func commit() { condition.withLock { committed = true } }

    /// Blocks the sound stage until the engine decides (no deadline: the decision comes at the
    /// current item's end, or `cancel` when the pipeline stops).
    func wait() -> Outcome {
        condition.withLock {
            while outcome == nil { condition.wait() }
            claimed = true
            return outcome ?? .cancelled
        }
    }

    /// The device given and committed but never claimed (the item has no sound stage), taken away:
    /// `cancel` no longer closes it. Nil if there is none.
    func takeUnclaimed() -> AudioOutput? {
        condition.withLock {
            guard !claimed, committed, case let .device(device)? = outcome else { return nil }
            claimed = true
            return device
        }
    }

    /// The pipeline stops: a waiting stage gives up; a device nobody claimed is closed.
    func cancel() {
        let orphan = condition.withLock { () -> AudioOutput? in
            defer { condition.broadcast() }
            guard let outcome else {
                self.outcome = .cancelled
                return nil
            }
            guard !claimed, committed, case let .device(device) = outcome else { return nil }
            claimed = true
            return device
        }
        orphan?.close()  // joins SDL's audio thread: never under the lock
    }
}
