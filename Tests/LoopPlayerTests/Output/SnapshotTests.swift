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
        try engine.screen.writeSnapshot(to: output)
        return (try engine.screen.snapshot(), output)
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

    /// A `.jpg` or `.jpeg` name is written as JPEG (it got PNG bytes), close to FFmpeg's decode.
    func testAJPGNameIsWrittenAsJPEG() throws {
        let clip = try TestMedia.loopClip()
        let (_, png) = try snapshot(of: clip, at: 1.0)
        defer { try? FileManager.default.removeItem(atPath: png) }
        for name in ["snap.jpg", "SNAP.JPEG"] {
            let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, untimed: true, stop: StopCondition(frames: 1)))
            try engine.load(clip)
            engine.seek(to: 1.0)
            XCTAssertEqual(engine.run(), .finished)
            let jpeg = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
            defer { try? FileManager.default.removeItem(atPath: jpeg) }
            try engine.screen.writeSnapshot(to: jpeg)
            XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)).prefix(3)), [0xFF, 0xD8, 0xFF], name)
            XCTAssertGreaterThan(try TestMedia.psnr(jpeg, TestMedia.reference(clip, frame: 30)), 35, name)
        }
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4)), [0x89, 0x50, 0x4E, 0x47], "PNG otherwise")
    }

    /// A FIFO, a directory or a missing folder is refused at once with a line that says which file
    /// and why (a FIFO held the writer until someone read it; an error was NSCocoaErrorDomain's).
    func testWhatCannotBeWrittenIsRefusedAtOnceAndSaysWhy() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, untimed: true, stop: StopCondition(frames: 1)))
        try engine.load(try TestMedia.loopClip())
        XCTAssertEqual(engine.run(), .finished)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snap-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("ff.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let missing = folder.appendingPathComponent("absent/x.png").path
        let cases = [(fifo, "cannot write \(fifo): it is a FIFO (named pipe), not a regular file"),
                     (folder.path, "cannot write \(folder.path): it is a directory"),
                     (missing, "cannot write \(missing): No such file or directory")]
        let box = EngineBox(engine)
        for (path, message) in cases {
            // On a thread of its own, waited for with a hang guard: before, the FIFO's write never returned.
            let result = ThreadResult<String>()
            Thread {
                do { try box.engine.screen.writeSnapshot(to: path); result.set("written") } catch { result.set("\(error)") }
            }.start()
            let said = result.wait(timeout: 60)
            if said == nil, path == fifo { close(open(fifo, O_RDONLY | O_NONBLOCK)) }  // let the stuck writer go
            XCTAssertEqual(said, message)
        }
    }
}

/// An engine handed to another thread while the test waits (it is used by one thread at a time).
private final class EngineBox: @unchecked Sendable {
    let engine: PlaybackEngine
    init(_ engine: PlaybackEngine) { self.engine = engine }
}
