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

    func testSnapshotMatchesFFmpegsDecode() throws {
        let clip = try TestMedia.loopClip()
        let (image, png) = try snapshot(of: clip, at: 1.0)
        XCTAssertEqual(image.width, 320)
        XCTAssertEqual(image.height, 180)
        XCTAssertGreaterThan(try TestMedia.psnr(png, TestMedia.reference(clip, frame: 30)), 40)
        XCTAssertLessThan(try TestMedia.psnr(png, TestMedia.reference(clip, frame: 45)), 40, "a different frame must not match")
    }

    func testRotatedPhoneVideoIsShownUpright() throws {
        let clip = try TestMedia.loopClip()
        let rotated = try TestMedia.clip("rotated-90.mp4", ["-i", clip, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let (image, png) = try snapshot(of: rotated, at: 0)
        XCTAssertEqual(image.width, 180)
        XCTAssertEqual(image.height, 320)
        // ffmpeg's own decode applies the display matrix (autorotate) too.
        XCTAssertGreaterThan(try TestMedia.psnr(png, TestMedia.reference(rotated, frame: 0)), 40)
    }

    func testAnamorphicVideoIsWidened() throws {
        let clip = try TestMedia.clip("anamorphic.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "10",
                                                         "-vf", "setsar=4/3"] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
        let (image, _) = try snapshot(of: clip, at: 0)
        XCTAssertEqual(image.width, 427)
        XCTAssertEqual(image.height, 180)
    }
}
