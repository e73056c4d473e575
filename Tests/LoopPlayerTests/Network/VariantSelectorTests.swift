import LoopPlayer
import XCTest

/// The variant selector, path by path, on the fixtures' three variants (and a 4K one), with
/// explicit times: start, output-size cap, fixed preferences, down on throughput and on buffer,
/// up with hysteresis, and the throughput estimate itself.
final class VariantSelectorTests: XCTestCase {
    private let low = VariantSelector.Candidate(bandwidth: 510_400, resolution: HLSResolution(width: 426, height: 240))
    private let mid = VariantSelector.Candidate(bandwidth: 1_170_400, resolution: HLSResolution(width: 640, height: 360))
    private let high = VariantSelector.Candidate(bandwidth: 3_370_400, resolution: HLSResolution(width: 1280, height: 720))
    private let uhd = VariantSelector.Candidate(bandwidth: 16_000_000, resolution: HLSResolution(width: 3840, height: 2160))

    private var lowFirst: [VariantSelector.Candidate] { [low, mid, high] }
    private var highFirst: [VariantSelector.Candidate] { [high, mid, low] }

    /// A selector whose estimate is `bitsPerSecond` (one 1 s download); `climbs`: the start's climb
    /// (the other tests look at the settled rules).
    private func selector(_ candidates: [VariantSelector.Candidate], _ preference: VariantPreference = .automatic,
                          output: HLSResolution? = nil, measured bitsPerSecond: Double? = nil,
                          climbs: Bool = false) -> VariantSelector {
        var tuning = VariantSelector.Tuning.standard
        tuning.climbsAtStart = climbs
        var selector = VariantSelector(variants: candidates, preference: preference, outputSize: output, tuning: tuning)!
        if let bitsPerSecond { selector.record(bytes: Int(bitsPerSecond / 8), seconds: 1) }
        return selector
    }

    /// (candidates, output size, measured bits/s, expected start candidate)
    func testStartTable() {
        let size360 = HLSResolution(width: 640, height: 360)
        let cases: [(String, [VariantSelector.Candidate], HLSResolution?, Double?, VariantSelector.Candidate)] = [
            ("nothing measured: the lowest", lowFirst, nil, nil, low),
            ("nothing measured, high first: still the lowest", highFirst, nil, nil, low),
            ("2 Mb/s: 0.7 × 2 M fits 360p", lowFirst, nil, 2_000_000, mid),
            ("2 Mb/s, high first", highFirst, nil, 2_000_000, mid),
            ("10 Mb/s: 720p", lowFirst, nil, 10_000_000, high),
            ("10 Mb/s into 640x360: capped at 360p", lowFirst, size360, 10_000_000, mid),
            ("100 Mb/s with 4K into 640x360: 360p", [low, mid, high, uhd], size360, 100_000_000, mid),
            ("100 Mb/s with 4K into 1280x720: 720p", [uhd, high, mid, low], HLSResolution(width: 1280, height: 720), 100_000_000, high),
            ("700x400 is covered by 720p only", lowFirst, HLSResolution(width: 700, height: 400), 10_000_000, high),
            ("a window larger than every variant: no cap", [low, mid, high, uhd], HLSResolution(width: 7680, height: 4320), 100_000_000, uhd),
            ("too slow for anything: the lowest", lowFirst, nil, 300_000, low),
        ]
        for (name, candidates, output, measured, expected) in cases {
            var selector = selector(candidates, output: output, measured: measured)
            let decision = selector.start()
            XCTAssertEqual(candidates[decision.variant], expected, name)
            XCTAssertEqual(decision.reason, .start, name)
            XCTAssertEqual(selector.current, decision.variant, name)
        }
    }

    /// At the start the level climbs at each download that shows a higher one fits, with a short
    /// buffer and no hold (the first segment was the safe level), and settles when nothing higher
    /// fits; a step down ends the climb too.
    func testClimbAtTheStart() {
        var climbing = selector(lowFirst, output: HLSResolution(width: 1280, height: 720), climbs: true)
        XCTAssertEqual(climbing.start(), VariantSelector.Decision(variant: 0, reason: .start, switched: false))
        XCTAssertTrue(climbing.isClimbing)
        XCTAssertEqual(climbing.next(bufferSeconds: 0.5, now: 1).reason, .stay, "nothing measured yet")
        climbing.record(bytes: 250_000, seconds: 1, at: 1)   // 2 Mb/s: 0.7 × 2 M fits 360p
        XCTAssertEqual(climbing.next(bufferSeconds: 1, now: 1.1), VariantSelector.Decision(variant: 1, reason: .throughputHigh, switched: true),
                       "up at once, with one second buffered")
        climbing.record(bytes: 5_000_000, seconds: 1, at: 2.1)
        XCTAssertEqual(climbing.next(bufferSeconds: 1.2, now: 2.2).variant, 2, "and again")
        XCTAssertEqual(climbing.next(bufferSeconds: 1.5, now: 2.3).reason, .stay)
        XCTAssertFalse(climbing.isClimbing, "at the top that fits: settled")

        var falling = selector(lowFirst, climbs: true)
        _ = falling.start()
        falling.record(bytes: 1_000_000, seconds: 1, at: 1)
        XCTAssertEqual(falling.next(bufferSeconds: 1, now: 1).variant, 2)
        falling.record(bytes: 20_000, seconds: 1, at: 2)
        falling.record(bytes: 20_000, seconds: 1, at: 3)
        XCTAssertEqual(falling.next(bufferSeconds: 1, now: 3).reason, .throughputLow)
        XCTAssertFalse(falling.isClimbing, "a step down ends the climb")
    }

    /// Playlist-sized downloads measure latency: they do not count.
    func testSmallDownloadsDoNotCount() {
        var selector = selector(lowFirst)
        selector.record(bytes: 400, seconds: 0.0001)   // 32 Mb/s "measured" on a playlist
        XCTAssertNil(selector.throughput.bitsPerSecond)
        XCTAssertEqual(lowFirst[selector.start().variant], low)
    }

    /// mpv's --hls-bitrate: fixed whatever the throughput, the size or the buffer.
    func testPreferencesTable() {
        let cases: [(VariantPreference, VariantSelector.Candidate)] = [
            (.maxBitrate, high), (.minBitrate, low), (.bitrate(1_200_000), mid), (.bitrate(1_170_400), mid),
            (.bitrate(1_170_399), low), (.bitrate(100), low), (.bitrate(50_000_000), high),
        ]
        for candidates in [lowFirst, highFirst] {
            for (preference, expected) in cases {
                var selector = selector(candidates, preference, output: HLSResolution(width: 320, height: 180), measured: 100_000)
                let start = selector.start()
                XCTAssertEqual(candidates[start.variant], expected, "\(preference)")
                XCTAssertEqual(start.reason, .preference)
                selector.record(bytes: 10_000_000, seconds: 1)
                let later = selector.next(bufferSeconds: 0.1, now: 100)
                XCTAssertEqual(later, VariantSelector.Decision(variant: start.variant, reason: .preference, switched: false), "\(preference)")
            }
        }
    }

    func testDownWhenThroughputFallsBelowTheVariant() {
        var selector = selector(highFirst, measured: 10_000_000)
        XCTAssertEqual(highFirst[selector.start().variant], high)
        XCTAssertEqual(selector.next(bufferSeconds: 8, now: 1).reason, .stay)
        // The link drops to 1.5 Mb/s for a few segments.
        for _ in 0..<4 { selector.record(bytes: 187_500, seconds: 1) }
        let estimate = selector.throughput.bitsPerSecond ?? 0
        XCTAssertLessThan(estimate, Double(high.bandwidth))
        let decision = selector.next(bufferSeconds: 8, now: 2)
        XCTAssertTrue(decision.switched)
        XCTAssertEqual(decision.reason, .throughputLow)
        XCTAssertEqual(highFirst[decision.variant], estimate * 0.85 >= Double(mid.bandwidth) ? mid : low)
    }

    func testDownOneStepWhenTheBufferDrains() {
        var selector = selector(lowFirst, measured: 10_000_000)
        XCTAssertEqual(lowFirst[selector.start().variant], high)
        let decision = selector.next(bufferSeconds: 1.0, now: 1)
        XCTAssertEqual(decision, VariantSelector.Decision(variant: 1, reason: .bufferLow, switched: true))
        // Still draining: down again, to the lowest; then nothing lower.
        XCTAssertEqual(selector.next(bufferSeconds: 0.5, now: 1.5), VariantSelector.Decision(variant: 0, reason: .bufferLow, switched: true))
        XCTAssertEqual(selector.next(bufferSeconds: 0.2, now: 2), VariantSelector.Decision(variant: 0, reason: .stay, switched: false))
    }

    /// Up only after the room has lasted `upHoldSeconds`, with enough buffer, and not sooner
    /// than `minSwitchInterval` after the last switch.
    func testUpWithHysteresis() {
        var selector = selector(lowFirst)
        XCTAssertEqual(selector.start().variant, 0)
        selector.record(bytes: 1_250_000, seconds: 1)   // 10 Mb/s
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 10).reason, .stay, "the room starts being seen")
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 12).reason, .stay)
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 14), VariantSelector.Decision(variant: 2, reason: .throughputHigh, switched: true))

        // Down at 20 (buffer), then room again at once: up waits for a new hold.
        XCTAssertEqual(selector.next(bufferSeconds: 1, now: 20).reason, .bufferLow)
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 20.5).reason, .stay)
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 23).reason, .stay, "hold not over")
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 24.5).reason, .throughputHigh)
    }

    /// With a short hold, the minimum interval between switches is what waits.
    func testMinimumIntervalBetweenSwitches() {
        var tuning = VariantSelector.Tuning()
        tuning.upHoldSeconds = 1
        tuning.minSwitchInterval = 10
        tuning.climbsAtStart = false
        var selector = VariantSelector(variants: lowFirst, tuning: tuning)!
        selector.record(bytes: 1_250_000, seconds: 1)   // 10 Mb/s
        XCTAssertEqual(selector.start().variant, 2)
        XCTAssertEqual(selector.next(bufferSeconds: 1, now: 0).reason, .bufferLow)
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 1).reason, .stay)
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 5).reason, .stay, "held long enough, but 5 s since the last switch")
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 9.9).reason, .stay)
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 10), VariantSelector.Decision(variant: 2, reason: .throughputHigh, switched: true))
    }

    func testUpNeedsBufferAndAnUnbrokenHold() {
        var selector = selector(lowFirst)
        _ = selector.start()
        selector.record(bytes: 1_250_000, seconds: 1)
        XCTAssertEqual(selector.next(bufferSeconds: 3, now: 0).reason, .stay, "buffer below upBufferSeconds")
        XCTAssertEqual(selector.next(bufferSeconds: 3, now: 10).reason, .stay, "still below: no hold accumulated")
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 11).reason, .stay, "the hold starts now")
        XCTAssertEqual(selector.next(bufferSeconds: 3, now: 13).reason, .stay, "broken")
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 14).reason, .stay, "starts again")
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 18).reason, .throughputHigh)
    }

    /// Up goes to the highest variant that fits, not only one step, within the size cap.
    func testUpRespectsTheOutputSize() {
        var selector = selector([low, mid, high, uhd], output: HLSResolution(width: 1280, height: 720))
        _ = selector.start()
        selector.record(bytes: 12_500_000, seconds: 1)   // 100 Mb/s
        _ = selector.next(bufferSeconds: 6, now: 0)
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 5), VariantSelector.Decision(variant: 2, reason: .throughputHigh, switched: true))
        // The window shrinks: down to the variant covering it at the next boundary.
        selector.setOutputSize(HLSResolution(width: 426, height: 240))
        XCTAssertEqual(selector.next(bufferSeconds: 6, now: 6), VariantSelector.Decision(variant: 0, reason: .outputSize, switched: true))
    }

    func testNoCandidates() {
        XCTAssertNil(VariantSelector(variants: []))
    }

    func testThroughputEstimate() throws {
        var estimate = ThroughputEstimate()
        XCTAssertNil(estimate.bitsPerSecond)
        estimate.add(bytes: 500_000, seconds: 1)
        XCTAssertEqual(try XCTUnwrap(estimate.bitsPerSecond), 4_000_000, accuracy: 1, "one sample is exact")
        estimate.add(bytes: 1000, seconds: 1)
        XCTAssertEqual(try XCTUnwrap(estimate.bitsPerSecond), 4_000_000, accuracy: 1, "too small to count")
        // A drop to 1 Mb/s pulls the estimate down within a few seconds of downloads…
        for _ in 0..<3 { estimate.add(bytes: 125_000, seconds: 1) }
        let fallen = try XCTUnwrap(estimate.bitsPerSecond)
        XCTAssertLessThan(fallen, 1_700_000)
        // …while one quick download (20 Mb/s for 50 ms) barely lifts it: samples weigh by their time.
        estimate.add(bytes: 125_000, seconds: 0.05)
        XCTAssertLessThan(try XCTUnwrap(estimate.bitsPerSecond), fallen * 1.5)
    }
}
