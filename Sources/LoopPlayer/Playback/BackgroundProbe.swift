import Foundation
import Synchronization

/// Work that blocks (opening files) done once on a thread of its own, for the run loop: it picks the
/// outcome up when woken. Cancelling does not wait for the thread (a read stuck on a network file
/// system must not hold the run loop): it ends on its own, sharing nothing but its outcome.
final class BackgroundProbe<Outcome: Sendable>: Sendable {
    /// What the probe's thread and the run loop share.
    private final class Shared: Sendable {
        let outcome = Mutex<Outcome?>(nil)
        let abort = AbortFlag()
    }

    private let shared = Shared()
    private let thread = Mutex<WorkerThread?>(nil)

    /// Runs `work` on a thread named `name`, then `wake`s the loop; `noThread` is the outcome when no
    /// thread could be started.
    init(name: String, noThread: Outcome, wake: @escaping @Sendable () -> Void,
         work: @escaping @Sendable (AbortFlag) -> Outcome) {
        let worker = WorkerThread(name: name) { [shared] in
            let result = work(shared.abort)
            shared.outcome.withLock { $0 = result }
            wake()
        }
        if !worker.started { shared.outcome.withLock { $0 = noThread } }
        thread.withLock { $0 = worker }
    }

    /// The outcome; nil while the work runs.
    var result: Outcome? { shared.outcome.withLock { $0 } }

    /// Stops the work (at its next check of the abort flag) without waiting for it.
    func cancel() {
        shared.abort.raise()
        thread.withLock { $0 = nil }  // detached
    }
}
