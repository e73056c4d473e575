import LoopPlayerCore
import XCTest

/// `SoundDriftCorrector` against a simulated sound card: its clock runs `drift` faster than the
/// shared timeline, the correction reaches the sound after `delay` (the ring), readings come with
/// every frame (30 a second).
final class SoundDriftCorrectorTests: XCTestCase {
    private struct Run {
        var corrector = SoundDriftCorrector()
        /// The sound heard minus the timeline, in seconds.
        var offset = 0.0
        var now = 0.0
        var largestAfter: [Double: Double] = [:]

        /// `seconds` of playback with the card `drift` fast; the rate set reaches the sound `delay` later.
        mutating func play(_ seconds: Double, drift: Double, delay: Double = 0.2) -> [SoundDriftCorrector.Action] {
            let step = 1.0 / 30
            var pending: [(at: Double, rate: Double)] = []
            var applied = corrector.rate
            var actions: [SoundDriftCorrector.Action] = []
            for _ in 0..<Int(seconds * 30) {
                now += step
                while let first = pending.first, first.at <= now {
                    applied = first.rate
                    pending.removeFirst()
                }
                offset += step * ((1 + drift) * applied - 1)
                let action = corrector.update(offset: offset, at: now)
                actions.append(action)
                switch action {
                case let .resample(rate): pending.append((now + delay, rate))
                case let .realign(seconds): offset += seconds
                case .hold: break
                }
            }
            return actions
        }
    }

    func testACardThatDriftsIsKeptOnTheTimeline() {
        for drift in [-0.0005, -0.0001, 0.00005, 0.0002, 0.001] {
            var run = Run()
            _ = run.play(60, drift: drift)
            // The drift is learnt: the rate undoes it, and the offset is gone.
            XCTAssertEqual(run.corrector.rate, 1 / (1 + drift), accuracy: 0.00003, "drift \(drift)")
            XCTAssertLessThan(abs(run.offset), 0.0002, "drift \(drift)")
            // Never more than the drift over one time constant (3.7 ms at 0.1 %, the largest here).
            var largest = 0.0
            for _ in 0..<600 {
                _ = run.play(1, drift: drift)
                largest = max(largest, abs(run.offset))
            }
            XCTAssertLessThan(largest, 0.0002, "ten more minutes, drift \(drift)")
        }
    }

    func testAnOffsetIsTakenUpSmoothlyWithinTheRateLimit() {
        var run = Run()
        run.offset = 0.03  // ahead by 30 ms: under the realign limit
        let actions = run.play(40, drift: 0)
        for action in actions {
            guard case let .resample(rate) = action else { return XCTFail("no realign under 50 ms: \(action)") }
            XCTAssertLessThanOrEqual(abs(rate - 1), SoundDriftCorrector.largestCorrection + 1e-12)
        }
        XCTAssertLessThan(abs(run.offset), 0.001, "taken up within 40 s")
    }

    func testACardBeyondTheLimitIsCorrectedAtTheLimitAndMovedWhenFarOff() {
        var run = Run()
        var actions = run.play(20, drift: -0.003)
        XCTAssertEqual(run.corrector.rate, 1 + SoundDriftCorrector.largestCorrection, accuracy: 1e-12)
        actions += run.play(20, drift: -0.003)
        XCTAssertTrue(actions.contains { if case .realign = $0 { true } else { false } }, "1.75 ms a second: moved past 50 ms")
        XCTAssertLessThanOrEqual(abs(run.offset), SoundDriftCorrector.realignBeyond)
    }

    func testALargeOffsetIsMovedAtOnceThenLeftToSettle() {
        var corrector = SoundDriftCorrector()
        XCTAssertEqual(corrector.update(offset: -0.08, at: 10), .realign(seconds: 0.08))
        // The ring still plays sound from before the move: readings wait.
        XCTAssertEqual(corrector.update(offset: -0.08, at: 10.2), .hold)
        XCTAssertEqual(corrector.update(offset: 0, at: 10 + SoundDriftCorrector.settleAfterRealign), .resample(rate: 1))
        guard case let .resample(rate) = corrector.update(offset: 0.01, at: 10.6) else { return XCTFail() }
        XCTAssertLessThan(rate, 1, "ahead: slower")
    }

    func testAGapIntegratesNothing() {
        var corrector = SoundDriftCorrector()
        _ = corrector.update(offset: 0.002, at: 0)
        let first = corrector.rate
        corrector.interrupt()
        _ = corrector.update(offset: 0.002, at: 0.5)  // after a pause: nothing integrated over it
        XCTAssertEqual(corrector.rate, first, accuracy: 1e-12)
        XCTAssertEqual(corrector.drift, 0)
        _ = corrector.update(offset: 0.002, at: 0.6)
        XCTAssertLessThan(corrector.drift, 0, "readings in a row integrate")
        XCTAssertEqual(corrector.update(offset: .nan, at: 1), .hold)
    }

    func testAMoveWaitsThenIntegratesOnlyFromTheNextReading() {
        var corrector = SoundDriftCorrector()
        _ = corrector.update(offset: 0.001, at: 0)
        corrector.moved(at: 0.1)
        XCTAssertEqual(corrector.update(offset: 0.03, at: 0.3), .hold, "the ring still holds the sound before the move")
        _ = corrector.update(offset: 0.001, at: 0.7)
        XCTAssertEqual(corrector.drift, 0, "no interval across the wait")
    }
}
