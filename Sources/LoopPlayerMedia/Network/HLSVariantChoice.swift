import Foundation
import LoopPlayerCore

/// The variant for each segment the HLS schedule names: the `VariantSelector`'s choice, rebuilt
/// when the preference changes and fed with each download's throughput. The first segment of a
/// stream keeps the current variant, so a seek or a new pass does not switch by itself.
package struct HLSVariantChoice {
    package private(set) var selector: VariantSelector
    private let tuning: VariantSelector.Tuning
    /// The stream being read has named its first segment.
    private var streamStarted = false

    /// `selector` has made its start choice.
    package init(selector: VariantSelector, tuning: VariantSelector.Tuning) {
        self.selector = selector
        self.tuning = tuning
    }

    /// The variant in use now.
    package var current: Int { selector.current }

    /// Still climbing from the start variant: the fetch-ahead is kept short.
    package var isClimbing: Bool { selector.isClimbing }

    /// A new stream starts: its first segment keeps the current variant.
    package mutating func restartStream() { streamStarted = false }

    /// Takes in a download that came from the network; returns the updated throughput.
    package mutating func record(bytes: Int, seconds: Double, at now: Double) -> ThroughputEstimate {
        selector.record(bytes: bytes, seconds: seconds, at: now)
        return selector.throughput
    }

    /// The variant for the next segment (`first`: the first of the stream), after taking in a
    /// new `preference` or `outputSize`.
    package mutating func next(first: Bool, preference: VariantPreference, outputSize: HLSResolution?,
                       bufferSeconds buffer: Double, now: Double) -> Int {
        if preference != selector.preference,
           let replacement = VariantSelector(variants: selector.candidates, preference: preference, outputSize: outputSize,
                                             tuning: tuning, throughput: selector.throughput) {
            selector = replacement
            _ = selector.start()
        }
        selector.setOutputSize(outputSize)
        if first && !streamStarted {
            streamStarted = true
            return selector.current
        }
        let decision = selector.next(bufferSeconds: buffer, now: now)
        if decision.switched {
            logger.info("HLS: variant #\(decision.variant) (\(selector.candidates[decision.variant].bandwidth) b/s) next: \(decision.reason.rawValue), buffer \(String(format: "%.1f", buffer)) s")
        }
        return decision.variant
    }
}
