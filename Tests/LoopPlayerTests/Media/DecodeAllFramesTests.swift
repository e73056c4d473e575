import LoopPlayer
import XCTest

/// Every frame of real encodes in several codecs and containers is decoded and presented, in order.
final class DecodeAllFramesTests: XCTestCase {
    private let frames = 48

    /// `tick`: the container's timestamp resolution (Matroska stores milliseconds).
    private func assertPlaysEveryFrame(_ path: String, tick: Double = 1e-6,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        let record = try playUntimed(path)
        XCTAssertEqual(record.outcome, .finished, file: file, line: line)
        XCTAssertEqual(record.statistics.framesPresented, frames, file: file, line: line)
        XCTAssertEqual(record.statistics.framesDecoded, frames, file: file, line: line)
        XCTAssertEqual(record.statistics.decodeErrors, 0, file: file, line: line)
        XCTAssertEqual(record.statistics.framesDropped, 0, file: file, line: line)
        let steps = zip(record.times, record.times.dropFirst()).map { $1 - $0 }
        let worst = steps.map { abs($0 - 1.0 / 30) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, tick + 1e-9, "frame steps \(steps)", file: file, line: line)
    }

    func testH264InMP4() throws {
        try assertPlaysEveryFrame(TestMedia.testPattern("h264.mp4", frames: frames, codec: TestMedia.h264 + ["-bf", "2"]))
    }

    func testHEVCInMatroska() throws {
        try require(TestMedia.hasEncoder("libx265"), "no libx265 encoder")
        try assertPlaysEveryFrame(TestMedia.testPattern("hevc.mkv", frames: frames, codec: [
            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error"]), tick: 1e-3)
    }

    func testVP9InWebM() throws {
        try require(TestMedia.hasEncoder("libvpx-vp9"), "no libvpx-vp9 encoder")
        try assertPlaysEveryFrame(TestMedia.testPattern("vp9.webm", frames: frames, codec: [
            "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"]), tick: 1e-3)
    }

    func testMPEG4PartTwoInAVI() throws {
        try assertPlaysEveryFrame(TestMedia.testPattern("mpeg4.avi", frames: frames, codec: [
            "-c:v", "mpeg4", "-q:v", "4", "-bf", "2"]))
    }

    func testAV1() throws {
        let encoder = ["libsvtav1", "libaom-av1"].first(where: TestMedia.hasEncoder)
        try require(encoder != nil, "no AV1 encoder")
        let options = encoder == "libsvtav1" ? ["-preset", "12"] : ["-cpu-used", "8", "-row-mt", "1"]
        try assertPlaysEveryFrame(TestMedia.testPattern("av1.mkv", frames: frames, codec: ["-c:v", encoder!] + options), tick: 1e-3)
    }

    func testTenBitVideoIsConvertedAndShown() throws {
        let path = try TestMedia.clip("h264-10bit.mkv", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "\(frames)",
                                                          "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p10le"])
        try assertPlaysEveryFrame(path, tick: 1e-3)
    }
}
