import Foundation
import LoopPlayer
import Synchronization
import XCTest

/// `--video-rotate` / `VideoRotation` (mpv's `video-rotate`): the picture turned clockwise on screen,
/// on top of the stream's own rotation, in snapshots, frames-only scenes, windows and panels. Each
/// is checked with a picture whose quadrants have four colours: where each corner's colour lands.
final class VideoRotationTests: XCTestCase {
    /// The quadrants' colours, clockwise from the top-left: red, lime, white, blue.
    static let cornerColours: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (255, 255, 255), (0, 0, 255)]
    static let cornerNames = ["top-left", "top-right", "bottom-right", "bottom-left"]

    /// A 320x180 clip: red top-left, lime top-right, white bottom-right, blue bottom-left quadrant.
    static func quadrants() throws -> String {
        try TestMedia.clip("quadrants-320x180.mp4", [
            "-f", "lavfi", "-i", "color=red:s=160x90:r=30:d=2", "-f", "lavfi", "-i", "color=lime:s=160x90:r=30:d=2",
            "-f", "lavfi", "-i", "color=blue:s=160x90:r=30:d=2", "-f", "lavfi", "-i", "color=white:s=160x90:r=30:d=2",
            "-filter_complex", "[0][1]hstack[top];[2][3]hstack[bottom];[top][bottom]vstack",
        ] + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
    }

    /// The same clip whose display matrix turns it 90° clockwise (a phone held upright).
    static func quadrantsTurnedByTheStream() throws -> String {
        try TestMedia.clip("quadrants-rotate90.mp4", ["-i", try quadrants(), "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    }

    /// Which corner's colour `pixel` shows at each screen corner, sampled an eighth of the way in;
    /// nil where a sample matches none of them.
    static func corners(width: Int, height: Int, pixel: (Int, Int) -> (Int, Int, Int)) -> [Int?] {
        let places = [(width / 8, height / 8), (width * 7 / 8, height / 8), (width * 7 / 8, height * 7 / 8), (width / 8, height * 7 / 8)]
        return places.map { x, y in
            let seen = pixel(x, y)
            return cornerColours.firstIndex { abs($0.0 - seen.0) < 50 && abs($0.1 - seen.1) < 50 && abs($0.2 - seen.2) < 50 }
        }
    }

    /// The corners a picture turned `degrees` clockwise shows: the picture's corner `i` lands at
    /// screen corner `i + quarter turns`.
    static func expectedCorners(turnedBy degrees: Int) -> [Int?] {
        let turns = degrees / 90
        return (0..<4).map { screen in (screen - turns + 8) % 4 }
    }

    private func corners(of image: RGBImage) -> [Int?] {
        Self.corners(width: image.width, height: image.height) { x, y in
            let p = image.pixel(x: x, y: y)
            return (Int(p.r), Int(p.g), Int(p.b))
        }
    }

    /// A snapshot of the first frame of `clip` turned `degrees` by the screen.
    private func snapshot(of clip: String, turned degrees: Int) throws -> RGBImage {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, untimed: true,
                                                                           stop: StopCondition(frames: 1)))
        try engine.screen.setVideoRotation(degrees)
        try engine.load(clip)
        XCTAssertEqual(engine.run(), .finished)
        XCTAssertEqual(engine.screen.videoRotation, degrees)
        return try engine.screen.snapshot()
    }

    func testASnapshotShowsThePictureTurned() throws {
        let clip = try Self.quadrants()
        for degrees in [0, 90, 180, 270] {
            let image = try snapshot(of: clip, turned: degrees)
            let portrait = degrees % 180 != 0
            XCTAssertEqual(image.width, portrait ? 180 : 320, "\(degrees)°: the area follows the turned picture")
            XCTAssertEqual(image.height, portrait ? 320 : 180, "\(degrees)°")
            XCTAssertEqual(corners(of: image), Self.expectedCorners(turnedBy: degrees), "\(degrees)°")
        }
    }

    /// The screen's turn adds to the stream's own (its display matrix turns it a quarter; ffmpeg's
    /// `rotate=90` tag shows it turned 270° clockwise, as ffmpeg's own decode does:
    /// `SnapshotTests.testRotatedPhoneVideoIsShownUpright`).
    func testTheTurnAddsToTheStreamsOwnRotation() throws {
        let clip = try Self.quadrantsTurnedByTheStream()
        let own = try snapshot(of: clip, turned: 0)
        let streamTurn = [90, 180, 270].first { corners(of: own) == Self.expectedCorners(turnedBy: $0) }
        XCTAssertEqual(streamTurn, 270, "the stream's own turn: corners \(corners(of: own))")
        XCTAssertEqual(own.width, 180)
        for degrees in [90, 180, 270] {
            let image = try snapshot(of: clip, turned: degrees)
            let total = (270 + degrees) % 360
            XCTAssertEqual(image.width, total % 180 != 0 ? 180 : 320, "\(degrees)° on top of the stream's 270°")
            XCTAssertEqual(corners(of: image), Self.expectedCorners(turnedBy: total), "\(degrees)° on top of the stream's 270°")
        }
    }

    /// The bare-video snapshot (`SnapshotContent.video`) is the picture as the screen shows it: turned.
    func testTheVideoSnapshotIsTurnedToo() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, untimed: true,
                                                                           stop: StopCondition(frames: 1)))
        try engine.screen.setVideoRotation(270)
        try engine.load(try Self.quadrants())
        XCTAssertEqual(engine.run(), .finished)
        let image = try engine.screen.snapshot(content: .video)
        XCTAssertEqual(image.width, 180)
        XCTAssertEqual(corners(of: image), Self.expectedCorners(turnedBy: 270))
    }

    /// The window surface's turn: every pixel of a 3x2 picture where it belongs, into a wider target
    /// (its pitch is not the picture's width).
    func testQuarterTurnPutsEveryPixelInItsPlace() {
        let picture: [UInt32] = [1, 2, 3,
                                 4, 5, 6]
        let expected: [Int: [UInt32]] = [0: [1, 2, 3, 4, 5, 6], 90: [4, 1, 5, 2, 6, 3], 180: [6, 5, 4, 3, 2, 1], 270: [3, 6, 2, 5, 1, 4]]
        for (degrees, want) in expected.sorted(by: { $0.key < $1.key }) {
            let (width, height) = degrees % 180 == 0 ? (3, 2) : (2, 3)
            var target = [UInt32](repeating: 0, count: height * 5)  // rows of 5 pixels
            picture.withUnsafeBufferPointer { source in
                target.withUnsafeMutableBytes { out in
                    QuarterTurn.copy(source.baseAddress!, width: 3, height: 2, turned: degrees, into: out.baseAddress!, targetPitch: 20)
                }
            }
            let shown = (0..<height).flatMap { row in target[(row * 5)..<(row * 5 + width)] }
            XCTAssertEqual(shown, want, "\(degrees)°")
            XCTAssertTrue((0..<height).allSatisfy { row in target[(row * 5 + width)..<(row * 5 + 5)].allSatisfy { $0 == 0 } },
                          "\(degrees)°: nothing past the picture's row")
        }
    }

    /// Anything but a quarter turn is `invalidSetting`, from the DSL, the engine and a command alike;
    /// the turn stays.
    func testOnlyQuarterTurnsAreTaken() throws {
        for degrees in [45, -90, 360, 1] {
            let settings = VideoSettings { SourceName("swipe"); VideoRotation(degrees) }
            XCTAssertThrowsError(try settings.validate(), "\(degrees)") { error in
                guard case .invalidSetting(name: "VideoRotation", value: String(degrees), _)? = error as? PlayerError else {
                    return XCTFail("\(degrees): \(error)")
                }
            }
        }
        XCTAssertNoThrow(try VideoSettings { SourceName("swipe"); VideoRotation(270) }.validate())
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, untimed: true))
        try engine.screen.setVideoRotation(90)
        XCTAssertThrowsError(try engine.screen.setVideoRotation(45))
        XCTAssertEqual(engine.screen.videoRotation, 90, "a refused turn leaves the turn")
        engine.close()
    }

    /// A player holding its first frame (not playing) shows a turn sent as a command at once: a new
    /// scene, laid out for the turned area, the picture turned in it; a bad turn is an error event.
    func testACommandTurnsAHeldPictureAtOnce() throws {
        let clip = try Self.quadrants()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); NotAutoPlay(); Events([.errorAny]) } }
        let errors = Mutex<[PlayerEvent]>([])
        player.onPlayerEventChange { batch in errors.withLock { $0 += batch } }
        let scenes = Mutex<[(width: Int, height: Int, corners: [Int?])]>([])
        let finished = expectation(description: "run returned")
        let thread = Thread {
            player.runScenes(timing: .untimed) { frame in
                guard let image = try? frame.image() else { return }
                let corners = Self.corners(width: image.width, height: image.height) { x, y in
                    let p = image.pixel(x: x, y: y)
                    return (Int(p.r), Int(p.g), Int(p.b))
                }
                scenes.withLock { $0.append((frame.area.width, frame.area.height, corners)) }
            }
            finished.fulfill()
        }
        thread.start()
        defer {
            player.stop()
            wait(for: [finished], timeout: 10)
        }
        XCTAssertTrue(waitFor { player.state == .ready && !scenes.withLock { $0.isEmpty } }, "the first frame is held")
        XCTAssertEqual(scenes.withLock { $0.last?.corners }, Self.expectedCorners(turnedBy: 0))
        player.send(.videoRotation(90))
        let turned = waitFor {
            scenes.withLock { $0.last.map { $0.width == 180 && $0.height == 320 && $0.corners == Self.expectedCorners(turnedBy: 90) } }
                ?? false
        }
        XCTAssertTrue(turned, "the held picture is drawn again, turned: \(scenes.withLock { $0.suffix(3) })")
        XCTAssertEqual(player.state, .ready, "it still holds the picture")
        player.send(.videoRotation(45))
        XCTAssertTrue(waitFor {
            errors.withLock { $0.contains { if case .error(.invalidSetting) = $0 { true } else { false } } }
        }, "\(errors.withLock { $0 })")
    }
}
