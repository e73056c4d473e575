import Synchronization

/// Set once to stop a pipeline; FFmpeg's interrupt callback polls it so blocking reads return.
final class AbortFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    /// Wakes `sleep(until:)` when the flag is raised.
    private let wakeup = MonotonicCondition()

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    func raise() {
        wakeup.withLock {
            raised.store(true, ordering: .releasing)
            wakeup.broadcast()
        }
    }

    /// Waits until `deadline` (monotonic seconds) unless the flag is raised first (a retry's
    /// backoff, a live playlist's reload time). Returns false if it was raised.
    @discardableResult
    func sleep(until deadline: Double) -> Bool {
        wakeup.withLock {
            while !isRaised && MonotonicCondition.now < deadline { wakeup.wait(until: deadline) }
            return !isRaised
        }
    }
}
