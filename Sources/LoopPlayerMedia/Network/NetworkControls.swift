import Synchronization
import LoopPlayerCore

/// What the engine tells a network source while it plays, and what outlives one source: the
/// counterpart of the sound controls for HLS. The engine sets the output's size in pixels and the
/// timeline time on screen (the buffer level is measured against it) and may change the variant
/// preference; the HLS session reads them at every segment. The throughput measured by one source
/// seeds the next one (a retry, a new source), so it does not start blind. A leaf lock.
package final class NetworkControls: Sendable {
    private struct State {
        var outputSize: PixelSize?
        var presentedTime: Double?
        var preference: VariantPreference
        var throughput = ThroughputEstimate()
        /// HLS fetch threads waiting for the picture to reach a time (their buffer is full): the
        /// current item's and, while it plays, the next playlist item's.
        var roomWaiters: [ObjectIdentifier: (flag: AbortFlag, time: Double)] = [:]
    }

    private let state: Mutex<State>

    package init(preference: VariantPreference = .automatic) {
        state = Mutex(State(preference: preference))
    }

    package var outputSize: PixelSize? { state.withLock { $0.outputSize } }
    /// Timeline seconds of the frame on screen; nil before the first frame of a source.
    package var presentedTime: Double? { state.withLock { $0.presentedTime } }
    package var preference: VariantPreference { state.withLock { $0.preference } }
    package var throughput: ThroughputEstimate { state.withLock { $0.throughput } }

    /// A new source starts: nothing of it is on screen yet.
    package func beginSource(preference: VariantPreference, outputSize: PixelSize?) {
        state.withLock {
            $0.presentedTime = nil
            $0.preference = preference
            $0.outputSize = outputSize
            $0.roomWaiters.removeAll()
        }
    }

    /// A frame is on screen (engine thread, every frame).
    package func presented(_ time: Double, outputSize: PixelSize?) {
        let reached = state.withLock { state -> [AbortFlag] in
            state.presentedTime = time
            state.outputSize = outputSize
            guard !state.roomWaiters.isEmpty else { return [] }
            let reached = state.roomWaiters.filter { time >= $0.value.time }
            for key in reached.keys { state.roomWaiters[key] = nil }
            return reached.values.map(\.flag)
        }
        for flag in reached { flag.nudge() }
    }

    /// Nudges `flag` once a frame at or after timeline `time` is on screen: an untimed or fast
    /// picture frees the HLS buffer much faster than the wall clock says.
    /// At once if that frame is on screen already.
    package func nudge(_ flag: AbortFlag, whenPresented time: Double) {
        let reached = state.withLock { state in
            if let presented = state.presentedTime, presented >= time { return true }
            state.roomWaiters[ObjectIdentifier(flag)] = (flag, time)
            return false
        }
        if reached { flag.nudge() }
    }

    /// `flag` no longer waits.
    package func stopNudging(_ flag: AbortFlag) {
        _ = state.withLock { $0.roomWaiters.removeValue(forKey: ObjectIdentifier(flag)) }
    }

    package func setPreference(_ preference: VariantPreference) { state.withLock { $0.preference = preference } }

    /// The session's latest estimate (kept for the next source).
    package func remember(_ throughput: ThroughputEstimate) { state.withLock { $0.throughput = throughput } }
}
