import LoopPlayer
import XCTest

/// Snapshots show what FFmpeg's own decode shows (PSNR), upright and at the display aspect.
final class SnapshotTests: XCTestCase {
    private func snapshot(of path: String, at position: Double) throws -> (RGBImage, String) {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, untimed: true, stop: StopCondition(frames: 1)))
        try engine.load(path)
        engine.seek(to: position)
        XCTAssertEqual(engine.run(), .finished)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("snap-\(UUID().uuidString).png").path
        try engine.writeSnapshot(to: output)
        return (try engine.snapshot(), output)
    }

    /// PSNR of two images, measured by ffmpeg's psnr filter.
    private func psnr(_ a: String, _ b: String) throws -> Double {
        let result = try TestMedia.run("ffmpeg", ["-hide_banner", "-nostdin", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"])
        guard let range = result.output.range(of: "average:") else { throw TestMediaError.ffmpegFailed("psnr", result.output) }
        let value = result.output[range.upperBound...].prefix { !$0.isWhitespace }
        return value == "inf" ? .infinity : Double(value) ?? 0
    }

    /// FFmpeg's own decode of frame `frame`, converted to RGB with accurate rounding and full chroma
    /// interpolation (the CLI's default conversion is cruder: about 28 dB from either).
    private func reference(_ path: String, frame: Int) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("ref-\(UUID().uuidString).png").path
        let result = try TestMedia.run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-i", path,
                                                  "-vf", "select=eq(n\\,\(frame)),scale=flags=bicubic+accurate_rnd+full_chroma_int", "-frames:v", "1", output])
        XCTAssertEqual(result.status, 0, result.output)
        return output
    }

    func testSnapshotMatchesFFmpegsDecode() throws {
        let clip = try TestMedia.loopClip()
        let (image, png) = try snapshot(of: clip, at: 1.0)
        XCTAssertEqual(image.width, 320)
        XCTAssertEqual(image.height, 180)
        XCTAssertGreaterThan(try psnr(png, reference(clip, frame: 30)), 40)
        XCTAssertLessThan(try psnr(png, reference(clip, frame: 45)), 40, "a different frame must not match")
    }

    func testRotatedPhoneVideoIsShownUpright() throws {
        let clip = try TestMedia.loopClip()
        let rotated = try TestMedia.clip("rotated-90.mp4", ["-i", clip, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let (image, png) = try snapshot(of: rotated, at: 0)
        XCTAssertEqual(image.width, 180)
        XCTAssertEqual(image.height, 320)
        // ffmpeg's own decode applies the display matrix (autorotate) too.
        XCTAssertGreaterThan(try psnr(png, reference(rotated, frame: 0)), 40)
    }

    func testAnamorphicVideoIsWidened() throws {
        let clip = try TestMedia.clip("anamorphic.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "10",
                                                         "-vf", "setsar=4/3"] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
        let (image, _) = try snapshot(of: clip, at: 0)
        XCTAssertEqual(image.width, 427)
        XCTAssertEqual(image.height, 180)
    }
}
