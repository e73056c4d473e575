import Filters
import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// `PictureAlerts`: the pure watch's rules, then real clips decoded and shown untimed (the engine's
/// virtual clock: each alert's time is known exactly) — a black segment, a stalled output, a still
/// picture looping.
final class PictureAlertsTests: XCTestCase {
    private static let moving = PictureSample(isBlack: false, fingerprint: 1)

    // MARK: The watch alone

    func testBlackBeginsAfterItsThresholdAndEndsAtTheFirstLitPicture() {
        var watch = PictureWatch(thresholds: .init(black: 2))
        let black = PictureSample(isBlack: true, fingerprint: 7)
        watch.presented(Self.moving, at: 0)
        watch.presented(black, at: 1)
        XCTAssertEqual(watch.nextDeadline, 3)
        XCTAssertEqual(watch.check(at: 2.99, moving: true, starved: false), [])
        XCTAssertEqual(watch.check(at: 3, moving: true, starved: false), [.init(alert: .black, active: true)])
        XCTAssertNil(watch.nextDeadline, "an alert holding sets no deadline (a past one would spin the run loop)")
        XCTAssertEqual(watch.check(at: 4, moving: false, starved: false), [], "paused on black is still black")
        watch.presented(Self.moving, at: 5)
        XCTAssertEqual(watch.check(at: 5, moving: true, starved: false), [.init(alert: .black, active: false)])
        XCTAssertEqual(watch.raised[.black], 1)
        XCTAssertNil(watch.nextDeadline)
    }

    func testFrozenNeedsDuePicturesThatDidNotReachTheScreen() {
        var watch = PictureWatch(thresholds: .init(frozen: 2))
        watch.presented(Self.moving, at: 0)
        _ = watch.check(at: 0, moving: true, starved: false)
        // The same picture due again and again (a still picture looping): never frozen.
        for time in stride(from: 0.5, through: 10, by: 0.5) {
            watch.due(Self.moving)
            watch.presented(Self.moving, at: time)
            XCTAssertEqual(watch.check(at: time, moving: true, starved: false), [], "still at \(time)")
        }
        // A different picture due, not presented: frozen two seconds after the screen last changed.
        watch.due(PictureSample(isBlack: false, fingerprint: 2))
        XCTAssertEqual(watch.nextDeadline, 2, "the screen has not changed since 0")
        XCTAssertEqual(watch.check(at: 10, moving: true, starved: false), [.init(alert: .frozen, active: true)])
        XCTAssertNil(watch.nextDeadline, "an alert holding sets no deadline")
        // Paused: nothing is due, the alert ends.
        XCTAssertEqual(watch.check(at: 11, moving: false, starved: false), [.init(alert: .frozen, active: false)])
        // Playing again: counted from the resume.
        XCTAssertEqual(watch.check(at: 12, moving: true, starved: false), [])
        XCTAssertEqual(watch.nextDeadline, 14)
        watch.presented(PictureSample(isBlack: false, fingerprint: 2), at: 13)
        XCTAssertNil(watch.nextDeadline, "the screen shows what was due")
    }

    func testNothingComingWhilePlayingIsFrozen() {
        var watch = PictureWatch(thresholds: .init(frozen: 3))
        watch.presented(Self.moving, at: 0)
        XCTAssertEqual(watch.check(at: 1, moving: true, starved: false), [])
        XCTAssertNil(watch.nextDeadline, "a picture held while playing, nothing starving: not frozen")
        XCTAssertEqual(watch.check(at: 5, moving: true, starved: true), [])
        XCTAssertEqual(watch.nextDeadline, 8, "starved from 5")
        XCTAssertEqual(watch.check(at: 8, moving: true, starved: true), [.init(alert: .frozen, active: true)])
        watch.presented(PictureSample(isBlack: false, fingerprint: 9), at: 9)
        XCTAssertEqual(watch.check(at: 9, moving: true, starved: false), [.init(alert: .frozen, active: false)])
    }

    func testAPictureThatCannotBeSampledIsNotJudgedAndAWatchTurnedOnStartsAfresh() {
        var watch = PictureWatch(thresholds: .init(black: 1))
        watch.presented(PictureSample(isBlack: true, fingerprint: 7), at: 0)
        watch.presented(nil, at: 0.5)
        XCTAssertNil(watch.nextDeadline, "an unreadable picture is not known to be black")
        XCTAssertEqual(watch.check(at: 5, moving: true, starved: false), [])

        watch.presented(PictureSample(isBlack: true, fingerprint: 7), at: 6)
        watch.thresholds = .init()
        XCTAssertEqual(watch.check(at: 20, moving: true, starved: false), [], "not watched")
        watch.thresholds = .init(black: 1)
        XCTAssertNil(watch.nextDeadline, "what was seen before the watch was off does not count")
        watch.presented(PictureSample(isBlack: true, fingerprint: 7), at: 21)
        XCTAssertEqual(watch.nextDeadline, 22)
    }

    func testASampleTellsBlackFromALogoOnBlackAndFromAPicture() {
        XCTAssertTrue(PictureSample(lumas: [UInt8](repeating: 16, count: 1000)).isBlack)
        XCTAssertTrue(PictureSample(lumas: [UInt8](repeating: 16, count: 985) + [UInt8](repeating: 235, count: 15)).isBlack)
        XCTAssertFalse(PictureSample(lumas: [UInt8](repeating: 16, count: 900) + [UInt8](repeating: 235, count: 100)).isBlack)
        XCTAssertNotEqual(PictureSample(lumas: [1, 2, 3]).fingerprint, PictureSample(lumas: [1, 3, 2]).fingerprint)
    }

    // MARK: Real clips, untimed

    private final class Recorded: Sendable {
        let alerts = Mutex<[(alert: DisplayAlert, active: Bool, at: Double)]>([])
    }

    /// Plays `clip` looping untimed with `alerts` until the virtual clock reaches `seconds`;
    /// `atFrame` may act at each frame shown (given the time and the session).
    private func play(_ clip: String, alerts: PictureAlerts, until seconds: Double, filters: [VideoFilter] = [],
                      atFrame: ((Double, PlayerSession) -> Void)? = nil) throws -> [(alert: DisplayAlert, active: Bool, at: Double)] {
        var settings = VideoSettings { SourceName(clip); Loop(); Events(); Filters { filters } }
        settings.pictureAlerts = alerts
        let player = ExtVideoPlayer(settings: settings)
        player.audioOutput = AudioOptions(track: .none)
        let session = try PlayerSession(player: player, output: .offscreen, timing: .untimed,
                                        stop: StopCondition(exitAtEnd: false, exitOnFailure: false))
        let engine = session.engine
        let recorded = Recorded()
        let clock = engine.clock
        player.onEachEvent { event in
            guard case let .displayAlert(alert, active) = event else { return }
            recorded.alerts.withLock { $0.append((alert, active, clock.now)) }
        }
        engine.onFramePresented = { [unowned engine, unowned session] _ in
            atFrame?(engine.clock.now, session)
            if engine.clock.now >= seconds { engine.requestQuit() }
        }
        // A failure bound, not a measure: a run that stops showing frames ends the test instead of hanging it.
        let watchdog = DispatchWorkItem { [weak player] in player?.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        XCTAssertEqual(session.run(), .quit)
        return recorded.alerts.withLock { $0 }
    }

    /// 2 s of a moving test pattern, 2 s of black, 2 s of the pattern, at 30 fps.
    static func clipWithABlackSegment() throws -> String {
        try TestMedia.clip("black-segment.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-f", "lavfi", "-i", "color=black:s=320x180:r=30:d=2",
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2",
            "-filter_complex", "[0][1][2]concat=n=3:v=1:a=0,format=yuv420p",
        ] + TestMedia.h264)
    }

    /// The black segment raises the alert one threshold after it begins, and it ends with it: every pass.
    func testABlackSegmentRaisesAndClearsTheAlert() throws {
        let alerts = try play(try Self.clipWithABlackSegment(), alerts: PictureAlerts(black: 1, frozen: 1), until: 13)
        XCTAssertEqual(alerts.map(\.alert), [.black, .black, .black, .black], "\(alerts)")
        XCTAssertEqual(alerts.map(\.active), [true, false, true, false])
        let frame = 1.0 / 30
        // Pass 1: black from 2 s (the first black frame) to 4 s; pass 2 from 8 s to 10 s.
        for (index, expected) in [3.0, 4.0, 9.0, 10.0].enumerated() where index < alerts.count {
            XCTAssertEqual(alerts[index].at, expected, accuracy: 2 * frame, "alert \(index): \(alerts)")
        }
    }

    /// A flipped picture (FFmpeg's vflip walks its rows with a negative line size) is sampled as
    /// any other: its black segment is seen.
    func testAFlippedPictureIsSampled() throws {
        let alerts = try play(try Self.clipWithABlackSegment(), alerts: PictureAlerts(black: 1), until: 5,
                              filters: [.flipVertical])
        XCTAssertEqual(alerts.map(\.active), [true, false], "\(alerts)")
        XCTAssertEqual(alerts.first?.at ?? 0, 3, accuracy: 2.0 / 30)
    }

    /// The output stalled (the frames due no longer reach it) is frozen one threshold later; it
    /// clears when pictures reach the screen again.
    func testAStalledOutputIsFrozen() throws {
        let hold = AbortFlag()
        hold.raise()
        let clip = try TestMedia.testPattern("alerts-moving.mp4", frames: 90, codec: TestMedia.h264)
        var heldAt: Double?
        var released = false
        let alerts = try play(clip, alerts: PictureAlerts(frozen: 2), until: 10) { now, session in
            if now >= 3, heldAt == nil {
                heldAt = now  // this frame reached the screen; the next ones do not
                session.engine.screen.composer.presentationHold = hold
            } else if now >= 7, !released {
                released = true
                session.engine.screen.composer.presentationHold = nil
            }
        }
        XCTAssertEqual(alerts.map(\.alert), [.frozen, .frozen], "\(alerts)")
        XCTAssertEqual(alerts.map(\.active), [true, false])
        let held = try XCTUnwrap(heldAt)
        XCTAssertEqual(alerts.first?.at ?? 0, held + 2, accuracy: 1.0 / 30 + 1e-6, "2 s after the last picture reached the screen")
        XCTAssertEqual(alerts.last?.at ?? 0, 7, accuracy: 2.0 / 30, "cleared with the next picture shown")
    }

    /// A still picture looping (every frame alike) is neither frozen nor black.
    func testAStillPictureLoopingIsNotFrozen() throws {
        let still = try TestMedia.clip("alerts-still.mp4", ["-f", "lavfi", "-i", "color=red:s=320x180:r=30:d=1",
                                                           "-pix_fmt", "yuv420p"] + TestMedia.h264)
        XCTAssertEqual(try play(still, alerts: PictureAlerts(black: 1, frozen: 1), until: 8).count, 0)
    }
}
