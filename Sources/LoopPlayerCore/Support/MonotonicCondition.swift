import Foundation
import Synchronization

/// A mutex with a condition variable whose timed waits run on `CLOCK_MONOTONIC`.
///
/// `NSCondition.wait(until:)` takes a wall-clock `Date`, which NTP can step (a wait could last an
/// hour or return at once); every timed wait in the player goes through this type instead.
package final class MonotonicCondition: @unchecked Sendable {  // owns one pthread mutex + cond; used only through its methods
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    #if DEBUG
    /// The thread holding the lock (0: none), so that a `…Locked` call made without it traps in tests.
    private let owner = Atomic<UInt>(0)
    #endif

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(mutex)
        noteOwner(pthread_self())
    }

    package func unlock() {
        noteOwner(0)
        pthread_mutex_unlock(mutex)
    }

    /// Whether this thread holds the lock (debug builds; always true in release builds).
    package var isHeldByCurrentThread: Bool {
        #if DEBUG
        owner.load(ordering: .relaxed) == pthread_self()
        #else
        true
        #endif
    }

    private func noteOwner(_ thread: UInt) {
        #if DEBUG
        owner.store(thread, ordering: .relaxed)
        #endif
    }

    package func withLock<R: ~Copyable, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a signal (the lock must be held; it is held again on return).
    package func wait() {
        noteOwner(0)
        pthread_cond_wait(condition, mutex)
        noteOwner(pthread_self())
    }

    /// Waits for a signal until `deadline` (seconds on `CLOCK_MONOTONIC`). False if the time ran out.
    @discardableResult
    package func wait(until deadline: Double) -> Bool {
        // Past a century from now is never (a deadline from a huge setting does not overflow).
        guard deadline.isFinite, deadline < Self.now + Self.century else {
            wait()
            return true
        }
        var spec = Self.absoluteTime(deadline)
        noteOwner(0)
        defer { noteOwner(pthread_self()) }
        return pthread_cond_timedwait(condition, mutex, &spec) == 0
    }

    private static let century = 100 * 365.25 * 86_400

    /// `deadline` (seconds, at most a century from now) as a `timespec`.
    fileprivate static func absoluteTime(_ deadline: Double) -> timespec {
        let whole = max(0, deadline).rounded(.down)
        return timespec(tv_sec: Int(whole),
                              tv_nsec: Int(((max(0, deadline) - whole) * 1e9).rounded()).clamped(to: 0...999_999_999))
    }

    package func signal() { pthread_cond_signal(condition) }
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Seconds on `CLOCK_MONOTONIC`, the clock of every deadline.
    package static var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// Sleeps until `deadline` on `CLOCK_MONOTONIC` (an absolute deadline: no drift from early wakeups).
package func sleep(untilMonotonic deadline: Double) {
    guard deadline > MonotonicCondition.now else { return }
    var spec = MonotonicCondition.absoluteTime(min(deadline, MonotonicCondition.now + 100 * 365.25 * 86_400))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
}
