import CThreadName
import Foundation
import LoopPlayerCore
import Synchronization

/// A dedicated OS thread for blocking work (FFmpeg reads and decodes), joined on `join()`.
///
/// Blocking calls never run on the Swift concurrency pool; each pipeline stage owns one of these.
package final class WorkerThread: Sendable {
    /// The thread until it is joined or detached (nil: never started, or already joined).
    private let handle: Mutex<pthread_t?>
    package let name: String
    /// False if the OS refused the thread: `body` will never run.
    package let started: Bool

    /// `body` is handed to the thread (`sending`): what it captures, a stage and its state, is the
    /// thread's alone from here on, so it needs no `Sendable` of its own.
    package init(name: String, body: sending @escaping () -> Void) {
        self.name = name
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }  // never: the box below is always passed
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            // Named for `top -H`, perf and the tests' thread checks.
            lp_name_this_thread(body.name)
            body.run()
            return nil
        }, box)
        started = status == 0
        handle = Mutex(status == 0 ? thread : nil)
        if status != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            logger.error("could not start thread \(name): errno \(status)")
        }
    }

    /// Waits for the thread to finish. Idempotent. From the thread itself (its owner released by
    /// its own body, as an HLS stream's fetch thread may be) it cannot wait: it is detached instead,
    /// so its resources go back when it ends rather than never (TSan's "thread leak").
    package func join() {
        guard let thread = handle.withLock({ held in defer { held = nil }; return held }) else { return }
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// A thread never joined is detached: nothing waits for it, and its stack is not kept forever.
    deinit {
        if let thread = handle.withLock({ $0 }) { pthread_detach(thread) }
    }

    private final class Body {
        let name: String
        let run: () -> Void
        init(name: String, run: @escaping () -> Void) { self.name = name; self.run = run }
    }
}
