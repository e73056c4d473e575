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
    func publish(_ output: AudioOutput, epoch: Int = 0, unlessStopped stopped: () -> Bool) -> Bool {
        state.withLock { state in
            guard !stopped() else { return false }
            state.output = output
            state.epoch = epoch
            output.apply(state.controls)
            return true
        }
    }

    /// Gives up the device for the next playlist item: this slot no longer controls it, and
    /// stopping this pipeline no longer closes it.
    func surrender() -> AudioOutput? {
        state.withLock { state in
            defer { state.output = nil }
            return state.output
        }
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
