import Foundation
import Synchronization

/// The time source the presenter schedules frames against, in seconds.
///
/// `MonotonicClock` follows real time; `VirtualClock` jumps straight to the next due frame, so a
/// test or benchmark of many loops runs as fast as decoding and is exactly reproducible.
package protocol PlaybackClock: AnyObject, Sendable {
    /// The current time in seconds (any origin; only differences matter).
    var now: Double { get }
    /// True if waiting is done by `advance(to:)` instead of sleeping.
    var isVirtual: Bool { get }
    /// Virtual clocks move to `time` (never backwards); real clocks ignore it.
    func advance(to time: Double)
}

/// Real time from `CLOCK_MONOTONIC`.
package final class MonotonicClock: PlaybackClock {
    package init() {}

    package var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    package var isVirtual: Bool { false }
    package func advance(to time: Double) {}
}

/// Time that moves only when the presenter asks: every frame is due at once (untimed playback).
package final class VirtualClock: PlaybackClock, Sendable {
    private let current: Mutex<Double>

    package init(start: Double = 0) { current = Mutex(start) }

    package var now: Double { current.withLock { $0 } }
    package var isVirtual: Bool { true }

    package func advance(to time: Double) {
        current.withLock { $0 = max($0, time) }
    }
}

/// Time that moves only when a test moves it (as swift-nio's `EmbeddedEventLoop.advanceTime`): the
/// engine waits on it as on real time — frames wait for their due time, deadlines come — but
/// nothing is due until the test advances it, and then exactly what is due by then. Unlike
/// `VirtualClock`, the engine never moves it itself.
package final class ManualClock: PlaybackClock {
    private let current: Mutex<Double>

    package init(start: Double = 0) { current = Mutex(start) }

    package var now: Double { current.withLock { $0 } }
    package var isVirtual: Bool { false }
    /// The engine's request to jump is ignored: only the test moves this clock.
    package func advance(to time: Double) {}

    /// Moves time forward by `seconds` (never backwards).
    package func advanceTime(by seconds: Double) { current.withLock { $0 += max(0, seconds) } }

    /// Moves time forward to `time` (an earlier time changes nothing).
    package func advanceTime(to time: Double) { current.withLock { $0 = max($0, time) } }
}

/// The wall clock a shared timeline is read on, in Unix seconds: unlike the monotonic clock it may
/// be stepped (someone set it, a first NTP sync after boot).
package protocol SystemClock: AnyObject, Sendable {
    var now: Double { get }
}

/// The system clock, `CLOCK_REALTIME` (chrony or PTP keep it in step across machines).
package final class RealtimeClock: SystemClock {
    package init() {}

    package var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// A system clock a test sets: it advances with the test's `ManualClock` (`advanceTime`) and can be
/// stepped alone (`step`), as `date -s` steps the real one.
package final class ManualSystemClock: SystemClock {
    private let current: Mutex<Double>

    package init(start: Double) { current = Mutex(start) }

    package var now: Double { current.withLock { $0 } }

    /// Time passing: forward only.
    package func advanceTime(by seconds: Double) { current.withLock { $0 += max(0, seconds) } }

    /// A step of the clock, either way.
    package func step(by seconds: Double) { current.withLock { $0 += seconds } }
}
