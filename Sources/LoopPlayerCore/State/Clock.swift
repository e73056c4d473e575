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
