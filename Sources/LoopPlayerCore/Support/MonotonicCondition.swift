import Foundation

/// A mutex with a condition variable whose timed waits run on `CLOCK_MONOTONIC`.
///
/// `NSCondition.wait(until:)` takes a wall-clock `Date`, which NTP can step (a wait could last an
/// hour or return at once); every timed wait in the player goes through this type instead.
package final class MonotonicCondition: @unchecked Sendable {  // owns one pthread mutex + cond; used only through its methods
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

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

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    package func withLock<R: ~Copyable, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a signal (the lock must be held; it is held again on return).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal until `deadline` (seconds on `CLOCK_MONOTONIC`). False if the time ran out.
    @discardableResult
    package func wait(until deadline: Double) -> Bool {
        guard deadline.isFinite else {
            wait()
            return true
        }
        let whole = deadline.rounded(.down)
        var spec = timespec(tv_sec: Int(whole), tv_nsec: Int(((deadline - whole) * 1e9).rounded()).clamped(to: 0...999_999_999))
        return pthread_cond_timedwait(condition, mutex, &spec) == 0
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
    let whole = deadline.rounded(.down)
    var spec = timespec(tv_sec: Int(whole), tv_nsec: Int(((deadline - whole) * 1e9).rounded()).clamped(to: 0...999_999_999))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
}
