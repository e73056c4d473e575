import LoopPlayer
import XCTest

/// The wrap: later passes continue the same timeline, one frame interval after the last frame.
final class SeamlessLoopTests: XCTestCase {
    private let interval = 1.0 / 30

    /// 10 passes of 120 frames: exactly 1200 frames, every step one frame interval, 10 wraps; the same
    /// when later passes replay the first from the frame cache.
    private func assertTenSeamlessPasses(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try assertTenSeamlessPasses(path, frameCacheBytes: 0, file: file, line: line)
        try assertTenSeamlessPasses(path, frameCacheBytes: 64 << 20, file: file, line: line)
    }

    private func assertTenSeamlessPasses(_ path: String, frameCacheBytes: Int, file: StaticString, line: UInt) throws {
        let record = try playUntimed(path, looping: true, stop: StopCondition(loops: 10), frameCacheBytes: frameCacheBytes)
        if frameCacheBytes > 0 {
            XCTAssertEqual(record.statistics.framesDecoded, 120, "decoded once", file: file, line: line)
            XCTAssertGreaterThanOrEqual(record.statistics.framesReplayed, 1080, file: file, line: line)
        }
        let stats = record.statistics
        XCTAssertEqual(record.outcome, .finished, file: file, line: line)
        XCTAssertEqual(stats.framesPresented, 1200, file: file, line: line)
        XCTAssertEqual(stats.loopsCompleted, 10, file: file, line: line)
        XCTAssertEqual(stats.framesDropped, 0, file: file, line: line)
        XCTAssertEqual(stats.loopDurationMs ?? 0, 4000, accuracy: 0.01, file: file, line: line)
        XCTAssertEqual(stats.seamIntervalsMs.count, 9, file: file, line: line)
        XCTAssertLessThan(stats.seamMaxDeviationMs, 0.01, file: file, line: line)
        XCTAssertEqual(stats.loopPeriodsMs.count, 9, file: file, line: line)
        for period in stats.loopPeriodsMs { XCTAssertEqual(period, 4000, accuracy: 0.01, file: file, line: line) }
        let worst = zip(record.times, record.times.dropFirst()).map { abs($1 - $0 - interval) }.max() ?? 1
        XCTAssertLessThan(worst, 1e-6, "largest deviation from one frame interval", file: file, line: line)
        XCTAssertEqual(record.passes.first, 0, file: file, line: line)
        XCTAssertEqual(record.passes.last, 9, file: file, line: line)
        for pass in 0..<10 {
            XCTAssertEqual(record.passes.filter { $0 == pass }.count, 120, "frames in pass \(pass)", file: file, line: line)
        }
        XCTAssertEqual(record.positions.min() ?? -1, 0, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(record.positions.max() ?? 0, 4 - interval, accuracy: 1e-6, file: file, line: line)
    }

    func testVideoOnlyMP4() throws {
        try assertTenSeamlessPasses(TestMedia.loopClip())
    }

    func testAudioTrackLongerThanTheVideo() throws {
        let path = try TestMedia.clip("loop-120-audio-longer.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=4.05",
            "-frames:v", "120"] + TestMedia.h264 + ["-pix_fmt", "yuv420p", "-c:a", "aac"])
        try assertTenSeamlessPasses(path)
    }

    func testMPEGTSWithNonZeroStartTime() throws {
        let path = try TestMedia.clip("loop-120.ts", [
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "120"] + TestMedia.h264 + ["-pix_fmt", "yuv420p", "-bf", "2"])
        let probe = try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", path])
        XCTAssertGreaterThan(Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 0.5, "TS starts late")
        try assertTenSeamlessPasses(path)
    }

    func testVariableFrameRateIntervalsFollowTheTimestamps() throws {
        // 60 frames at 30 fps, then 60 at 15 fps.
        let path = try TestMedia.clip("vfr.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30,setpts='if(lt(N,60),N/30,2+(N-60)/15)/TB'",
            "-frames:v", "120", "-fps_mode", "passthrough", "-video_track_timescale", "90000"] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
        // The file's own presentation timestamps and last frame duration, as FFmpeg's tools read them.
        let probe = try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "frame=pts,pkt_duration", "-of", "csv=p=0", path])
        let rows = probe.output.split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }
        let fileTimes = rows.map { $0[0] / 90_000 }
        let lastDuration = rows.last![1] / 90_000
        XCTAssertEqual(fileTimes.count, 120)
        let fileSteps = zip(fileTimes, fileTimes.dropFirst()).map { $1 - $0 }
        XCTAssertGreaterThan(fileSteps.max()! - fileSteps.min()!, 0.03, "the clip really is variable")

        for cache in [0, 64 << 20] {
            let record = try playUntimed(path, looping: true, stop: StopCondition(loops: 3), frameCacheBytes: cache)
            XCTAssertEqual(record.statistics.framesPresented, 360)
            XCTAssertEqual(record.statistics.framesReplayed > 0, cache > 0)
            let passLength = fileTimes.last! + lastDuration - fileTimes.first!
            XCTAssertEqual(record.statistics.loopDurationMs ?? 0, passLength * 1000, accuracy: 0.01)
            let expected = Array(repeating: fileSteps + [lastDuration], count: 3).joined().dropLast()
            let steps = zip(record.times, record.times.dropFirst()).map { $1 - $0 }
            XCTAssertEqual(steps.count, expected.count)
            let worst = zip(steps, expected).map { abs($0 - $1) }.max() ?? 1
            XCTAssertLessThan(worst, 1e-6, "presentation steps follow the file's timestamps across wraps")
        }
    }

    func testWithoutLoopPlaybackEndsAfterOnePassAndHoldsTheLastFrame() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, untimed: true, stop: StopCondition(exitAtEnd: true)))
        try engine.load(TestMedia.loopClip())
        XCTAssertEqual(engine.run(), .finished)
        XCTAssertEqual(engine.state, .ended)
        XCTAssertEqual(engine.statistics.framesPresented, 120)
        XCTAssertEqual(engine.statistics.loopsCompleted, 0)
        XCTAssertEqual(engine.screen.currentFrame?.positionInPass ?? 0, 4 - interval, accuracy: 1e-6)
    }

    func testSeekLandsOnTheRequestedFrame() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: true, untimed: true, stop: StopCondition(frames: 1)))
        try engine.load(TestMedia.loopClip())
        engine.seek(to: 2.5)
        XCTAssertEqual(engine.run(), .finished)
        XCTAssertEqual(engine.screen.currentFrame?.positionInPass ?? 0, 2.5, accuracy: 1e-6)
    }
}
