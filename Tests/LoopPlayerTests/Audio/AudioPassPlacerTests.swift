@testable import LoopPlayer
import XCTest

/// The placement rules on their own: every pass of the sound lasts exactly one loop duration.
final class AudioPassPlacerTests: XCTestCase {
    typealias Placement = AudioPassPlacer.Placement

    /// 1.9 s at 48 kHz = 91 200 samples a pass (not a multiple of AAC's 1024).
    private func placer() -> AudioPassPlacer {
        var placer = AudioPassPlacer(sampleRate: 48_000)
        placer.loopDuration = 1.9
        return placer
    }

    func testContiguousFramesPassUntouched() {
        var placer = placer()
        XCTAssertEqual(placer.place(startingAt: 0, count: 1024), Placement(silence: 0, skip: 0, keep: 1024, start: 0))
        XCTAssertEqual(placer.place(startingAt: 1024.0 / 48_000, count: 1024), Placement(silence: 0, skip: 0, keep: 1024, start: 1024))
        XCTAssertEqual(placer.cursor, 2048)
    }

    func testSamplesPastThePassEndAreCutAndTheNextPassStartsOnItsBoundary() {
        var placer = placer()
        _ = placer.place(startingAt: 0, count: 90_112)  // 88 frames
        // The 90th frame crosses 91 200: only 88 of its samples belong to pass 0.
        XCTAssertEqual(placer.place(startingAt: 90_112.0 / 48_000, count: 1024)?.keep, 1024)
        XCTAssertEqual(placer.place(startingAt: 91_136.0 / 48_000, count: 1024), Placement(silence: 0, skip: 0, keep: 64, start: 91_136))
        // Longer audio: a frame of pass 0 wholly past its end plays nothing, though its time is in pass 1's.
        XCTAssertNil(placer.place(startingAt: 92_160.0 / 48_000, count: 1024, pass: 0))
        // Pass 1 (shifted by the demuxer by 1.9 s) starts exactly at 91 200.
        XCTAssertEqual(placer.place(startingAt: 1.9, count: 1024, pass: 1), Placement(silence: 0, skip: 0, keep: 1024, start: 91_200))
    }

    func testAShortPassIsPaddedWithSilenceBeforeTheNextOne() {
        var placer = placer()
        _ = placer.place(startingAt: 0, count: 76_800)  // 1.6 s of sound in a 1.9 s pass
        XCTAssertEqual(placer.place(startingAt: 1.9, count: 1024), Placement(silence: 14_400, skip: 0, keep: 1024, start: 76_800))
    }

    /// Sound 336 samples ahead of the picture (WebM's Opus): pass 0 cuts them; every later pass's
    /// sound starts that early, in the end of the pass before, and the sound is never broken.
    func testSoundAheadOfThePictureStartsEveryLaterPassAsEarly() {
        var placer = AudioPassPlacer(sampleRate: 48_000)  // the loop's length is not known yet
        let early = -336.0 / 48_000
        placer.measureLead(startingAt: early, pass: 0)
        XCTAssertEqual(placer.leadSeconds, 336.0 / 48_000)
        XCTAssertEqual(placer.place(startingAt: early, count: 960, pass: 0), Placement(silence: 0, skip: 336, keep: 624, start: 0))
        placer.loopDuration = 1.9
        // 91 200 samples of sound in all: pass 0 plays up to 336 samples before its end.
        XCTAssertEqual(placer.place(startingAt: early + 960.0 / 48_000, count: 90_240, pass: 0)?.keep, 90_240)
        XCTAssertEqual(placer.cursor, 90_864)
        XCTAssertNil(placer.fillTowardPassEnd(), "pass 0's sound is whole")
        placer.measureLead(startingAt: 1.9 + early, pass: 1)  // every pass's first frame says it again
        XCTAssertEqual(placer.place(startingAt: 1.9 + early, count: 960, pass: 1),
                       Placement(silence: 0, skip: 0, keep: 960, start: 90_864))
        XCTAssertEqual(placer.offsetInPass(placer.cursor), 960)
        // A pass whose sound ends early is filled to where the next pass's sound starts.
        _ = placer.place(startingAt: 1.9 + early + 0.02, count: 48_000, pass: 1)
        XCTAssertEqual(placer.fillTowardPassEnd(), Placement(silence: 91_200 - 48_960, skip: 0, keep: 0, start: 90_864 + 48_960))
        XCTAssertEqual(placer.cursor, 2 * 91_200 - 336)
        // A placer made after a seek takes the lead it is given.
        var given = AudioPassPlacer(sampleRate: 48_000, startingAt: 1.0, lead: 336.0 / 48_000)
        given.loopDuration = 1.9
        XCTAssertEqual(given.pass(containing: 91_200 - 336), 1)
        // Sound that starts with the picture, or far ahead of it (cut at every pass as before), has none.
        given.measureLead(startingAt: 1.9, pass: 1)
        XCTAssertEqual(given.leadSeconds, 0)
        given.measureLead(startingAt: 1.9 - 0.5, pass: 1)
        XCTAssertEqual(given.leadSeconds, 0)
    }

    /// 0.123 456 7 s at 44.1 kHz is 5444.44 samples a pass: passes of 5444 and 5445 samples whose
    /// sum after 1000 passes is the exact 5 444 444, not 1000 × a rounded pass.
    func testPassBoundariesDoNotAccumulateRounding() {
        var placer = AudioPassPlacer(sampleRate: 44_100)
        let length = 0.123_456_7
        placer.loopDuration = length
        var lengths = Set<Int>()
        var total = 0
        for pass in 0..<1000 {
            // Each pass's sound is longer than the pass; the cut makes it exactly one pass.
            guard let placement = placer.place(startingAt: Double(pass) * length, count: 6000, pass: pass) else {
                return XCTFail("pass \(pass) placed nothing")
            }
            lengths.insert(placement.silence + placement.keep)
            total += placement.silence + placement.keep
        }
        XCTAssertEqual(total, Int((1000 * length * 44_100).rounded()))
        XCTAssertEqual(lengths, [5444, 5445])
    }

    func testOverlapIsDroppedAndOneSampleOfJitterIsNotAGap() {
        var placer = placer()
        _ = placer.place(startingAt: 0, count: 1000)
        // Starts 10 samples early: those 10 were already played.
        XCTAssertEqual(placer.place(startingAt: 990.0 / 48_000, count: 100), Placement(silence: 0, skip: 10, keep: 90, start: 1000))
        // One sample late (container rounding): played contiguously.
        XCTAssertEqual(placer.place(startingAt: 1091.0 / 48_000, count: 10), Placement(silence: 0, skip: 0, keep: 10, start: 1090))
    }

    /// Matroska stamps in milliseconds: a 1024-sample AAC frame is "21 ms" then "43 ms", not a gap
    /// or an overlap of a few dozen samples each time.
    func testMillisecondTimestampsAreContiguous() {
        var placer = AudioPassPlacer(sampleRate: 48_000, timestampPrecision: 0.001)
        XCTAssertEqual(placer.place(startingAt: 0, count: 1024)?.start, 0)
        XCTAssertEqual(placer.place(startingAt: 0.021, count: 1024), Placement(silence: 0, skip: 0, keep: 1024, start: 1024))
        XCTAssertEqual(placer.place(startingAt: 0.043, count: 1024), Placement(silence: 0, skip: 0, keep: 1024, start: 2048))
        // A real gap is still filled.
        XCTAssertEqual(placer.place(startingAt: 0.1, count: 1024)?.silence, 4800 - 3072)
    }

    func testRestartAfterASeekDropsEarlierSamplesAndPadsToALaterStart() {
        var placer = placer()
        placer.restart(at: 1.0)
        XCTAssertEqual(placer.place(startingAt: 0.99, count: 1024), Placement(silence: 0, skip: 480, keep: 544, start: 48_000))
        placer.restart(at: 0.5)
        XCTAssertEqual(placer.place(startingAt: 0.51, count: 100), Placement(silence: 480, skip: 0, keep: 100, start: 24_000))
    }

    func testWithoutALoopDurationNothingIsCut() {
        var placer = AudioPassPlacer(sampleRate: 48_000)
        XCTAssertEqual(placer.place(startingAt: 100, count: 1024)?.keep, 1024)
    }
}
