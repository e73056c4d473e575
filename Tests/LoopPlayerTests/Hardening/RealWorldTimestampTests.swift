@testable import LoopPlayer
import XCTest

/// Real-world timestamps: decode-order pts, none at all, jumps. Each plays at the right speed.
final class RealWorldTimestampTests: XCTestCase {
    /// pts = dts with B-frames: frames leave the decoder with pts going backwards. Best-effort
    /// timestamps and a presenter that never drops a frame for going backwards: 0 drops in real time.
    func testDecodeOrderTimestampsPlayWithoutDrops() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: true, stop: StopCondition(duration: 3), audio: AudioOptions(track: .none)))
        var times: [Double] = []
        engine.onFramePresented = { times.append($0.time) }
        try engine.load(TestMedia.decodeOrderTimestamps())
        XCTAssertEqual(engine.run(), .finished)
        let statistics = engine.statistics
        XCTAssertEqual(statistics.framesDropped, 0)
        XCTAssertGreaterThanOrEqual(statistics.framesPresented, 85, "3 s at 30 fps")
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
