@testable import LoopPlayer
import XCTest

/// Real-world timestamps: decode-order pts, none at all, jumps. Each plays at the right speed.
final class RealWorldTimestampTests: XCTestCase {
    /// pts = dts with B-frames: frames leave the decoder with pts going backwards. Best-effort
    /// timestamps and a presenter that never drops a frame for going backwards: in real time, every
    /// frame is shown in order or counted as dropped (only a late one is, on a loaded machine).
    func testDecodeOrderTimestampsPlayWithoutDrops() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: true, stop: StopCondition(frames: 90), audio: AudioOptions(track: .none)))
        var times: [Double] = []
        var places: [Int] = []  // the frame's number counted from the start, over the passes (120 frames each)
        engine.onFramePresented = {
            times.append($0.time)
            places.append($0.pass * 120 + Int(($0.positionInPass * 30).rounded()))
        }
        try engine.load(TestMedia.decodeOrderTimestamps())
        XCTAssertEqual(engine.run(), .finished)
        let statistics = engine.statistics
        XCTAssertEqual(statistics.framesPresented, 90)
        XCTAssertEqual(times.count, 90)
        // None lost: of the frames the stream's own timestamps give (played on the virtual clock,
        // where nothing is late), those from the first shown to the last are the ones shown and the
        // ones dropped late (which only a loaded machine does).
        let reference = try playUntimed(TestMedia.decodeOrderTimestamps(), looping: true, stop: StopCondition(frames: 360))
        let expected = zip(reference.passes, reference.positions).map { $0 * 120 + Int(($1 * 30).rounded()) }
        if let first = places.first, let last = places.last {
            XCTAssertEqual(Set(places).count, places.count, "no frame shown twice: \(places)")
            XCTAssertTrue(Set(places).isSubset(of: expected), "only the stream's frames: \(places)")
            XCTAssertEqual(expected.filter { (first...last).contains($0) }.count, statistics.framesPresented + statistics.framesDropped,
                           "shown \(statistics.framesPresented), dropped \(statistics.framesDropped): \(places)")
        }
        let backwards = zip(times, times.dropFirst()).filter { $1 < $0 && abs($1 - $0) < 1 }.count
        XCTAssertLessThanOrEqual(backwards, 2, "the best-effort timestamps put the frames in order")
    }

    /// No container timestamps: the frames follow one another at the stream's frame rate.
    func testRawStreamWithoutTimestampsPlaysAtItsFrameRate() throws {
        let record = try playUntimed(TestMedia.rawH264(), looping: true, stop: StopCondition(loops: 2, exitAtEnd: true))
        XCTAssertEqual(record.statistics.framesPresented, 180)
        let steps = zip(record.times, record.times.dropFirst()).map { $1 - $0 }
        XCTAssertEqual(steps.min() ?? 0, 1.0 / 30, accuracy: 0.001)
        XCTAssertEqual(steps.max() ?? 0, 1.0 / 30, accuracy: 0.001, "every step one frame, the wrap too")
    }

    /// A 100 s jump in an MPEG-TS stream is a discontinuity: the picture goes on one frame later
    /// instead of freezing for 100 s.
    func testTimestampJumpInMPEGTSKeepsTheFrameRate() throws {
        let record = try playUntimed(TestMedia.timestampJump(), stop: StopCondition(exitAtEnd: true))
        XCTAssertEqual(record.statistics.framesPresented, 120)
        let steps = zip(record.times, record.times.dropFirst()).map { $1 - $0 }
        XCTAssertLessThan(steps.max() ?? 1, 0.05, "no step longer than a frame (largest \(steps.max() ?? 0) s)")
        XCTAssertEqual((record.times.last ?? 0) - (record.times.first ?? 0), 119.0 / 30, accuracy: 0.01)
    }
}
