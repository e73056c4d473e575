import Synchronization

/// The sound controls the engine sets, and the device once the audio stage has opened it (or taken
/// it over from the previous playlist item). Controls set before the device exists are applied when
/// it is published, under the same lock, so a change made meanwhile reaches the device either way.
/// Lock order: slot, then the device's own lock.
final class AudioSlot: Sendable {
    struct Controls: Equatable, Sendable {
        var volume: Float = 1
        var muted = false
        var paused = true
        var speed = 1.0
    }

    private struct State {
        var controls: Controls
        var output: AudioOutput?
        /// This slot's writer epoch on `output`.
        var epoch = 0
        /// `output` is the previous playlist item's device, lent until this item plays: stopping
        /// this pipeline does not close it (the engine gives it back).
        var lent = false
        /// The item plays: a device lent to it is its own, also when published from now on.
        var keepsLent = false
        /// The device given up for the next item (`surrender`), and this slot's epoch on it.
        var surrendered: (output: AudioOutput, epoch: Int)?
    }

    private let state: Mutex<State>

    init(controls: Controls) { state = Mutex(State(controls: controls)) }

    var output: AudioOutput? { state.withLock { $0.output } }
    var controls: Controls { state.withLock { $0.controls } }

    func change(_ body: (inout Controls) -> Void) {
        state.withLock { state in
            body(&state.controls)
            state.output?.apply(state.controls)
        }
    }

    /// The audio stage opened (or took over) its device; false if the pipeline stopped meanwhile
    /// (the stage then closes or leaves it).
    func publish(_ output: AudioOutput, epoch: Int = 0, lent: Bool = false, unlessStopped stopped: () -> Bool) -> Bool {
        state.withLock { state in
            guard !stopped() else { return false }
            state.output = output
            state.epoch = epoch
            state.lent = lent && !state.keepsLent
            output.apply(state.controls)
            return true
        }
    }

    /// Gives up the device for the next playlist item: this slot no longer controls it, and
    /// stopping this pipeline no longer closes it.
    func surrender() -> AudioOutput? {
        state.withLock { state in
            defer { state.output = nil }
            if let output = state.output { state.surrendered = (output, state.epoch) }
            return state.output
        }
    }

    /// The next item was dropped before it played: this slot controls the device again (the device
    /// itself is given back with `AudioOutput.reclaim`).
    func takeBack() {
        state.withLock { state in
            guard let surrendered = state.surrendered else { return }
            state.surrendered = nil
            state.output = surrendered.output
            state.epoch = surrendered.epoch
            surrendered.output.apply(state.controls)
        }
    }

    /// The lent device is this item's for good (it plays now).
    func keepLent() {
        state.withLock {
            $0.keepsLent = true
            $0.lent = false
        }
    }

    /// The pipeline stops: its own device closes (waking a writer blocked on a full ring); a lent
    /// one stays open for the engine; a surrendered one only stops waiting for this writer.
    func release() {
        let (owned, surrendered) = state.withLock { state -> (AudioOutput?, (output: AudioOutput, epoch: Int)?) in
            (state.lent ? nil : state.output, state.surrendered)
        }
        surrendered?.output.abandon(epoch: surrendered?.epoch ?? 0)
        owned?.close()  // joins SDL's audio thread: never under the lock
    }

    /// The timeline time of this slot's sound being heard at `now` (nil while another item's is).
    func audibleMediaTime(at now: Double) -> Double? {
        let (output, epoch) = state.withLock { ($0.output, $0.epoch) }
        return output?.audibleMediaTime(at: now, epoch: epoch)
    }
}

extension AudioOutput {
    func apply(_ controls: AudioSlot.Controls) {
        setVolume(controls.volume, muted: controls.muted)
        setPaused(controls.paused || controls.speed == 0)
    }
}
