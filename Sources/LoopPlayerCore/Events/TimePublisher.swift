/// Says when the playback position is due to be published: every `interval` seconds of clock time
/// after `start`. Missed ticks (a stalled loop) are skipped, not delivered in a burst. Pure.
package struct TimePublisher {
    package private(set) var interval: Double?
    private var next: Double?

    package init(interval: Double?) { self.interval = interval }

    /// Starts (or restarts) the cadence at `time`; the first publication is one interval later.
    package mutating func start(at time: Double, interval: Double?) {
        self.interval = interval
        next = interval.map { time + $0 }
    }

    package mutating func stop() { next = nil }

    package var isRunning: Bool { next != nil }

    /// True once per crossed tick.
    package mutating func isDue(at now: Double) -> Bool {
        guard let interval, let due = next, now + 1e-9 >= due else { return false }
        let missed = ((now - due) / interval + 1e-9).rounded(.down)
        next = due + (missed + 1) * interval
        return true
    }

    package var nextDeadline: Double? { next }
}
