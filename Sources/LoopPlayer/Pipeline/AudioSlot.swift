import Synchronization

/// The sound controls the engine sets, and the device once the audio stage has opened it. Controls
/// set before the device exists are applied when it is published, under the same lock, so a change
/// made meanwhile reaches the device either way. Lock order: slot, then the device's own lock.
final class AudioSlot: Sendable {
    struct Controls: Equatable, Sendable {
        var volume: Float = 1
        var muted = false
        var paused = true
        var speed = 1.0
    }

    private let state: Mutex<(controls: Controls, output: AudioOutput?)>

    init(controls: Controls) { state = Mutex((controls, nil)) }

    var output: AudioOutput? { state.withLock { $0.output } }
    var controls: Controls { state.withLock { $0.controls } }

    func change(_ body: (inout Controls) -> Void) {
        state.withLock { state in
            body(&state.controls)
            state.output?.apply(state.controls)
        }
    }

    /// The audio stage opened its device; false if the pipeline stopped meanwhile (the stage closes it).
    func publish(_ output: AudioOutput, unlessStopped stopped: () -> Bool) -> Bool {
        state.withLock { state in
            guard !stopped() else { return false }
            state.output = output
            output.apply(state.controls)
            return true
        }
    }
}

extension AudioOutput {
    func apply(_ controls: AudioSlot.Controls) {
        setVolume(controls.volume, muted: controls.muted)
        setPaused(controls.paused || controls.speed == 0)
    }
}
