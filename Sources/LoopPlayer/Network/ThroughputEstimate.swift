import Foundation

/// Network throughput from finished downloads: two exponentially weighted averages, weighted by
/// download time, a fast one (reacts within a couple of segments) and a slow one (ignores a lucky
/// burst). The estimate is the lower of the two, so it falls quickly and rises slowly.
///
/// ```swift
/// var estimate = ThroughputEstimate()
/// estimate.add(bytes: 400_000, seconds: 0.5)
/// estimate.bitsPerSecond   // 6 400 000
/// ```
public struct ThroughputEstimate: Sendable, Equatable {
    /// Downloads smaller than this measure latency rather than throughput and are ignored.
    public var minimumBytes: Int
    private var fast: WeightedAverage
    private var slow: WeightedAverage

    public init(fastHalfLife: Double = 2, slowHalfLife: Double = 8, minimumBytes: Int = 16_000) {
        self.minimumBytes = minimumBytes
        fast = WeightedAverage(halfLife: fastHalfLife)
        slow = WeightedAverage(halfLife: slowHalfLife)
    }

    /// Adds one download of `bytes` that took `seconds`.
    public mutating func add(bytes: Int, seconds: Double) {
        guard bytes >= minimumBytes, seconds.isFinite else { return }
        // A download faster than the clock can tell is still finite: cap at 1 ms.
        let duration = max(seconds, 0.001)
        let rate = Double(bytes) * 8 / duration
        fast.add(rate, weight: duration)
        slow.add(rate, weight: duration)
    }

    /// Bits per second; nil until a download large enough was added.
    public var bitsPerSecond: Double? {
        guard let a = fast.value, let b = slow.value else { return nil }
        return min(a, b)
    }

    /// An exponentially weighted moving average whose weights are seconds: a sample's influence
    /// halves every `halfLife` seconds of later downloads. Divided by the weight gathered so far,
    /// so the first samples are not pulled toward zero.
    private struct WeightedAverage: Sendable, Equatable {
        let halfLife: Double
        private var average = 0.0
        private var totalWeight = 0.0

        init(halfLife: Double) { self.halfLife = halfLife }

        mutating func add(_ value: Double, weight: Double) {
            let keep = pow(0.5, weight / halfLife)
            average = value * (1 - keep) + keep * average
            totalWeight += weight
        }

        var value: Double? {
            guard totalWeight > 0 else { return nil }
            return average / (1 - pow(0.5, totalWeight / halfLife))
        }
    }
}
