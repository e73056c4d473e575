@testable import LoopPlayer
import Synchronization
import XCTest

/// Subtitles in playback, read back from what the player shows: embedded and external tracks, the
/// choice by language, forced tracks, the loop, seeks, and bad files.
final class SubtitlePlaybackTests: XCTestCase {
    /// Seven seconds of black (text is easy to find on it) with the SRT as English (white, cues at
    /// 1–2.5, 3–4, 5–6.25 s) and the ASS as German, forced (a red cue at 1–2 s).
    private func media() throws -> String {
        let srt = try SubtitleTestMedia.srtFile(), ass = try SubtitleTestMedia.assFile()
        return try TestMedia.clip("subtitles-on-black-360.mkv", ["-f", "lavfi", "-i", "color=c=black:s=640x360:r=10:d=7",
            "-i", srt, "-i", ass, "-map", "0:v", "-map", "1:s", "-map", "2:s",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:s:0", "srt", "-c:s:1", "ass",
            "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=ger", "-disposition:s:1", "forced"])
    }

    private func black() throws -> String {
        try TestMedia.clip("black-7s-360.mp4", ["-f", "lavfi", "-i", "color=c=black:s=640x360:r=10:d=7",
                                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
    }

    /// What was on screen at some frames: (pass, position in the pass, white pixels, red pixels).
    private struct Seen {
        var pass: Int
        var position: Double
        var white: Int
        var red: Int
    }

    /// Plays `source` untimed for `loops` passes and looks at the frames `sample` picks; `during` may
    /// send commands at a frame.
    private func play(_ settings: @escaping () -> [any Setting], loops: Int = 1,
                      sample: @escaping (VideoFrame) -> Bool,
                      during: ((ExtVideoPlayer, VideoFrame) -> Void)? = nil) throws -> (seen: [Seen], events: [PlayerEvent]) {
        let player = ExtVideoPlayer { VideoSettings { Events(); Loop(); settings() } }
        let events = Mutex<[PlayerEvent]>([])
        player.onPlayerEventChange { batch in events.withLock { $0 += batch } }
        var seen: [Seen] = []
        var lastFrame: VideoFrame?
        player.runScenes(timing: .untimed, until: StopCondition(loops: loops, exitAtEnd: true)) { composed in
            guard let frame = composed.video, frame !== lastFrame else { return }
            lastFrame = frame
            during?(player, frame)
            guard sample(frame), let image = try? composed.image() else { return }
            var white = 0, red = 0
            for pixel in 0..<(image.width * image.height) {
                let r = Int(image.pixels[pixel * 3]), g = Int(image.pixels[pixel * 3 + 1]), b = Int(image.pixels[pixel * 3 + 2])
                if r > 200 && g > 200 && b > 200 { white += 1 }
                if r > 180 && g < 80 && b < 80 { red += 1 }
            }
            seen.append(Seen(pass: frame.pass, position: frame.positionInPass, white: white, red: red))
        }
        return (seen, events.withLock { $0 })
    }

    private func at(_ seen: Seen, _ position: Double) -> Bool { abs(seen.position - position) < 0.05 }

    private func near(_ times: [Double]) -> (VideoFrame) -> Bool {
        { frame in times.contains { abs(frame.positionInPass - $0) < 0.05 } }
    }

    func testEnglishTrackShowsDuringItsCuesInEveryPass() throws {
        let source = try media()
        let (seen, _) = try play({ [SourceName(source), Subtitles("en")] }, loops: 3, sample: near([0.5, 1.5, 2.8, 3.5]))
        for pass in 0..<3 {
            let inCue = seen.filter { $0.pass == pass && (at($0, 1.5) || at($0, 3.5)) }
            let outside = seen.filter { $0.pass == pass && (at($0, 0.5) || at($0, 2.8)) }
            XCTAssertEqual(inCue.count, 2, "pass \(pass): \(seen)")
            XCTAssertEqual(outside.count, 2)
            for frame in inCue { XCTAssertGreaterThan(frame.white, 40, "text during a cue in pass \(pass)") }
            for frame in outside { XCTAssertEqual(frame.white, 0, "no text outside the cues in pass \(pass)") }
        }
    }

    func testForcedTrackShowsByDefaultInItsStyleColour() throws {
        let source = try media()
        let (seen, _) = try play({ [SourceName(source)] }, sample: near([1.5]))
        let frame = try XCTUnwrap(seen.first)
        XCTAssertGreaterThan(frame.red, 40, "the forced German ASS line, in its red style")
        XCTAssertEqual(frame.white, 0, "and not the English track")
    }

    func testLanguageSwitchOffAndAnUnknownLanguage() throws {
        let source = try media()
        let (seen, events) = try play({ [SourceName(source), Subtitles("eng")] }, loops: 3, sample: near([1.5])) { player, frame in
            guard abs(frame.positionInPass - 3.0) < 0.05 else { return }
            switch frame.pass {
            case 0: player.send(.subtitles("de"))  // German: red in pass 1
            case 1: player.send(.subtitles("fr")); player.send(.subtitles(nil))  // unknown, then off
            default: break
            }
        }
        let byPass = Dictionary(grouping: seen, by: \.pass)
        XCTAssertGreaterThan(byPass[0]?.first?.white ?? 0, 40, "English first")
        XCTAssertGreaterThan(byPass[1]?.first?.red ?? 0, 40, "German after the switch")
        XCTAssertEqual(byPass[2]?.first?.white, 0, "off")
        XCTAssertEqual(byPass[2]?.first?.red, 0, "off")
        XCTAssertTrue(events.contains { if case .error(.subtitleTrackNotFound(language: "fr", _)) = $0 { true } else { false } },
                      "\(events)")
    }

    /// A choice at the start that matches no track (`Subtitles("fr")`, `--slang fr`, `--sid 9`) is a
    /// `subtitleTrackNotFound` event once the tracks are known (it was silent); the video plays.
    func testAnUnmatchedChoiceAtTheStartIsReported() throws {
        let source = try media()
        let (seen, events) = try play({ [SourceName(source), Subtitles("fr")] }, sample: near([1.5]))
        XCTAssertEqual(seen.first?.white, 0, "nothing shown")
        let errors = events.compactMap { if case let .error(error) = $0 { error } else { nil } }
        guard case let .subtitleTrackNotFound(language, available)? = errors.first else { return XCTFail("\(events)") }
        XCTAssertEqual(language, "fr")
        XCTAssertEqual(available.count, 2, "the source's English and German tracks: \(available)")
        XCTAssertEqual(errors.count, 1, "said once")

        let cli = try LoopplayTool.run(["--headless", "--untimed", "--frames", "5", "--sid", "9", source])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertTrue(cli.stderr.contains("#9"), "tracks counted from 1, as --sid does: \(cli.stderr)")
    }

    func testExternalFileAndACueSpanningTheWrap() throws {
        let srt = try SubtitleTestMedia.file("wrap.srt", """
            1
            00:00:01,000 --> 00:00:02,000
            Early

            2
            00:00:06,500 --> 00:00:09,000
            Across the wrap

            """)
        let source = try black()
        let (seen, _) = try play({ [SourceName(source), Subtitles(srt)] }, loops: 2, sample: near([0.5, 1.5, 6.8]))
        for pass in 0..<2 {
            XCTAssertGreaterThan(seen.first { $0.pass == pass && at($0, 1.5) }?.white ?? 0, 40, "pass \(pass)")
            XCTAssertGreaterThan(seen.first { $0.pass == pass && at($0, 6.8) }?.white ?? 0, 40, "pass \(pass)")
        }
        XCTAssertEqual(seen.first { $0.pass == 1 && at($0, 0.5) }?.white, 0, "the cue ended at the wrap")
    }

    func testSeekIntoACueShowsIt() throws {
        let source = try media()
        let player = ExtVideoPlayer { VideoSettings { SourceName(source); Subtitles("en") } }
        player.send(.seek(to: 3.5, play: false))
        player.runHeadless(timing: .untimed, until: StopCondition(frames: 1))
        let image = try player.snapshot()
        let white = (0..<(image.width * image.height)).filter { pixel in
            image.pixels[pixel * 3] > 200 && image.pixels[pixel * 3 + 1] > 200 && image.pixels[pixel * 3 + 2] > 200
        }.count
        XCTAssertGreaterThan(white, 40, "the snapshot of the picture at 3.5 s shows its cue")
    }

    func testBadSubtitleFilesAreErrorsAndTheVideoPlays() throws {
        let source = try black()
        for (file, kind) in [("/nonexistent/none.srt", "fileNotFound"), (try TestMedia.loopClip(), "notSubtitles")] {
            let player = ExtVideoPlayer { VideoSettings { SourceName(source); Subtitles(file); Events() } }
            let events = Mutex<[PlayerEvent]>([])
            player.onPlayerEventChange { batch in events.withLock { $0 += batch } }
            XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(exitAtEnd: true)), .finished)
            XCTAssertEqual(player.statistics.framesPresented, 70, "the video plays on")
            let errors = events.withLock { $0 }.compactMap { event -> String? in
                if case let .error(.invalidSubtitles(error)) = event { return error.kind }
                return nil
            }
            XCTAssertEqual(errors, [kind])
        }
    }
}
