import Foundation

/// Network throughput from finished downloads: the bytes downloaded divided by the time they took,
/// over two windows that forget at different speeds — a fast one (reacts within a couple of
/// segments) and a slow one (ignores a lucky burst). The estimate is the lower of the two, so it
/// falls quickly and rises slowly.
///
/// Each window keeps decayed sums of bytes and of seconds (a download's share halves every
/// `halfLife` seconds: of clock time when downloads say when they ended, else of later downloads)
/// and divides them: a ratio of sums, not an average of rates. An average of rates lets a few near-instant downloads (a fast link, a cache next door)
/// weigh nothing against one slow one, or, weighted the other way, lets their huge rates swamp it;
/// the ratio counts every byte and every second once.
///
/// ```swift
/// var estimate = ThroughputEstimate()
/// estimate.add(bytes: 400_000, seconds: 0.5)
/// estimate.bitsPerSecond   // 6 400 000
/// ```
package struct ThroughputEstimate: Sendable, Equatable {
    /// Downloads smaller than this measure latency rather than throughput and are ignored.
    package var minimumBytes: Int
    private var fast: Window
    private var slow: Window
    /// When the last download ended (monotonic seconds), if downloads say.
    private var lastSampleAt: Double?

    package init(fastHalfLife: Double = 2, slowHalfLife: Double = 8, minimumBytes: Int = 16_000) {
        self.minimumBytes = minimumBytes
        fast = Window(halfLife: fastHalfLife)
        slow = Window(halfLife: slowHalfLife)
    }

    /// Adds one download of `bytes` that took `seconds` and ended at `now` (monotonic seconds; nil:
    /// what came before fades by the download's own time only). With `now`, a slow spell fades
    /// with the clock after the link recovers, however quick the new downloads are.
    package mutating func add(bytes: Int, seconds: Double, at now: Double? = nil) {
        guard bytes >= minimumBytes, seconds.isFinite else { return }
        // A download faster than the clock can tell is still finite: cap at 1 ms.
        let duration = max(seconds, 0.001)
        var elapsed = duration
        if let now, let last = lastSampleAt { elapsed = max(duration, now - last) }
        if let now { lastSampleAt = now }
        fast.add(bytes: Double(bytes), seconds: duration, elapsed: elapsed)
        slow.add(bytes: Double(bytes), seconds: duration, elapsed: elapsed)
    }

    /// Bits per second; nil until a download large enough was added.
    package var bitsPerSecond: Double? {
        guard let a = fast.bitsPerSecond, let b = slow.bitsPerSecond else { return nil }
        return min(a, b)
    }

    /// Decayed sums of bytes and seconds: what came before a download keeps `0.5^(elapsed /
    /// halfLife)` of its weight.
    private struct Window: Sendable, Equatable {
        let halfLife: Double
        private var bytes = 0.0
        private var seconds = 0.0

        init(halfLife: Double) { self.halfLife = halfLife }

        mutating func add(bytes added: Double, seconds taken: Double, elapsed: Double) {
            let keep = pow(0.5, elapsed / halfLife)
            bytes = bytes * keep + added
            seconds = seconds * keep + taken
        }

        var bitsPerSecond: Double? { seconds > 0 ? bytes * 8 / seconds : nil }
    }
}
