import Synchronization

/// The threads of one pipeline: started while it runs, all joined by `closeAndJoin()`. A thread
/// asked for after closing is still started and joined at once (its body sees the closed queues
/// and returns), so no thread is ever left behind. `pthread_create` runs outside the lock.
final class ThreadGroup: Sendable {
    private let state = Mutex<(threads: [WorkerThread], closed: Bool)>(([], false))

    /// Starts `body` on a new thread named `name`. False if the group was already closed or the OS
    /// refused the thread.
    @discardableResult
    func launch(_ name: String, _ body: sending @escaping () -> Void) -> Bool {
        let thread = WorkerThread(name: name, body: body)
        let kept = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.threads.append(thread)
            return true
        }
        if !kept { thread.join() }
        return kept && thread.started
    }

    func isRunning(_ name: String) -> Bool {
        state.withLock { $0.threads.contains { $0.name == name } }
    }

    /// Closes the group and waits for every thread. The caller must first make them return
    /// (abort flag, closed queues). Idempotent.
    func closeAndJoin() {
        let threads = state.withLock { state in
            defer { state = ([], true) }
            return state.threads
        }
        threads.forEach { $0.join() }
    }
}
