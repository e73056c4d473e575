import Synchronization

/// What the engine tells a network source while it plays, and what outlives one source: the
/// counterpart of `AudioSlot` for HLS. The engine sets the output's size in pixels and the
/// timeline time on screen (the buffer level is measured against it) and may change the variant
/// preference; the HLS session reads them at every segment. The throughput measured by one source
/// seeds the next one (a retry, a new source), so it does not start blind. A leaf lock.
final class NetworkControls: Sendable {
    private struct State {
        var outputSize: PixelSize?
        var presentedTime: Double?
        var preference: VariantPreference
        var throughput = ThroughputEstimate()
        /// The HLS fetch thread waiting for the picture to reach `time` (its buffer is full).
        var roomWaiter: (flag: AbortFlag, time: Double)?
    }

    private let state: Mutex<State>

    init(preference: VariantPreference = .automatic) {
        state = Mutex(State(preference: preference))
    }

    var outputSize: PixelSize? { state.withLock { $0.outputSize } }
    /// Timeline seconds of the frame on screen; nil before the first frame of a source.
    var presentedTime: Double? { state.withLock { $0.presentedTime } }
    var preference: VariantPreference { state.withLock { $0.preference } }
    var throughput: ThroughputEstimate { state.withLock { $0.throughput } }

    /// A new source starts: nothing of it is on screen yet.
    func beginSource(preference: VariantPreference, outputSize: PixelSize?) {
        state.withLock {
            $0.presentedTime = nil
            $0.preference = preference
            $0.outputSize = outputSize
            $0.roomWaiter = nil
        }
    }

    /// A frame is on screen (engine thread, every frame).
    func presented(_ time: Double, outputSize: PixelSize?) {
        let reached = state.withLock { state -> AbortFlag? in
            state.presentedTime = time
            state.outputSize = outputSize
            guard let waiter = state.roomWaiter, time >= waiter.time else { return nil }
            state.roomWaiter = nil
            return waiter.flag
        }
        reached?.nudge()
    }

    /// Nudges `flag` once a frame at or after timeline `time` is on screen: an untimed or fast
    /// picture frees the HLS buffer much faster than the wall clock says.
    func nudge(_ flag: AbortFlag, whenPresented time: Double) {
        state.withLock { $0.roomWaiter = (flag, time) }
    }

    /// `flag` no longer waits.
    func stopNudging(_ flag: AbortFlag) {
        state.withLock { if $0.roomWaiter?.flag === flag { $0.roomWaiter = nil } }
    }

    func setPreference(_ preference: VariantPreference) { state.withLock { $0.preference = preference } }

    /// The session's latest estimate (kept for the next source).
    func remember(_ throughput: ThroughputEstimate) { state.withLock { $0.throughput = throughput } }
}
