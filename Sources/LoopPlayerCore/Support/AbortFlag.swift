import Synchronization

/// Set once to stop a pipeline; FFmpeg's interrupt callback polls it so blocking reads return.
/// A sleeper on it can also be nudged: woken early, without stopping, because what it waits for
/// may have changed (the HLS fetch thread waiting for the picture to make room).
package final class AbortFlag: Sendable {
    package init() {}

    private let raised = Atomic<Bool>(false)
    private let nudges = Atomic<Int>(0)
    /// Wakes `sleep(until:)` when the flag is raised or nudged.
    private let wakeup = MonotonicCondition()

    package var isRaised: Bool { raised.load(ordering: .acquiring) }

    package func raise() {
        wakeup.withLock {
            raised.store(true, ordering: .releasing)
            wakeup.broadcast()
        }
    }

    /// Taken before checking a condition, then given to `sleep(until:unlessNudgedSince:)`: a nudge
    /// in between is not lost.
    package var nudgeMark: Int { nudges.load(ordering: .acquiring) }

    /// Ends a `sleep(until:unlessNudgedSince:)` early.
    package func nudge() {
        wakeup.withLock {
            nudges.add(1, ordering: .releasing)
            wakeup.broadcast()
        }
    }

    /// Waits until `deadline` (monotonic seconds) unless the flag is raised first (a retry's
    /// backoff, a live playlist's reload time) or, with a `mark`, nudged since it was taken.
    /// Returns false if it was raised.
    @discardableResult
    package func sleep(until deadline: Double, unlessNudgedSince mark: Int? = nil) -> Bool {
        wakeup.withLock {
            while !isRaised && MonotonicCondition.now < deadline && (mark == nil || nudgeMark == mark) {
                wakeup.wait(until: deadline)
            }
            return !isRaised
        }
    }
}
