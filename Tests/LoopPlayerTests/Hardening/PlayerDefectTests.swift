@testable import LoopPlayer
import Synchronization
import XCTest

/// The API and CLI defects of the hardening issue that a new user hit.
final class PlayerDefectTests: XCTestCase {
    /// `NotAutoPlay`: the source loads and shows its first frame; the events that say so arrive
    /// although nothing plays.
    func testNotAutoPlayDeliversTheLoadingEvents() throws {
        let clip = try TestMedia.loopClip()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); NotAutoPlay(); Events() } }
        let events = Mutex<[PlayerEvent]>([])
        player.onPlayerEventChange { batch in events.withLock { $0 += batch } }
        let finished = expectation(description: "run returned")
        Thread { player.runHeadless(until: StopCondition()); finished.fulfill() }.start()
        // Ready (however long the load took), then 30 passes of its loop (a third of a second at
        // least) in which it must not start; the run's end delivers what is pending.
        XCTAssertTrue(waitFor(timeout: 30) { player.state == .ready }, "\(player.state)")
        let passes = player.probeRunLoop()
        XCTAssertTrue(waitFor(timeout: 20) { player.probeRunLoop() >= passes + 30 }, "the loop runs")
        player.stop()
        wait(for: [finished], timeout: 30)
        let received = events.withLock { $0 }
        XCTAssertTrue(received.contains(.currentItemChanged), "\(received)")
        XCTAssertTrue(received.contains(.itemStatusChanged(.readyToPlay)), "\(received)")
        XCTAssertTrue(received.contains { if case .duration = $0 { true } else { false } }, "\(received)")
        XCTAssertFalse(received.contains(.playing), "it waits for play")
    }

    /// A 1 s clip published every second reports positions inside the pass, never the clip's length.
    func testTimePublishingReportsThePositionInsideThePass() throws {
        let clip = try TestMedia.testPattern("one-second.mp4", frames: 30, codec: TestMedia.h264)
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); TimePublishing(1) } }
        let times = Mutex<[Double]>([])
        player.onPlayerTimeChange { time in times.withLock { $0.append(time) } }
        // On the virtual clock (the publishing follows the player's clock): 3.6 s of media.
        player.runHeadless(timing: .untimed, until: StopCondition(duration: 3.6))
        let published = times.withLock { $0 }
        XCTAssertGreaterThanOrEqual(published.count, 3)
        for time in published { XCTAssertLessThan(time, 1, "positions are inside the pass: \(published)") }
    }

    /// An arrow key seeks like the API does, and says so with a `seek` event.
    func testArrowKeySeekEmitsASeekEvent() throws {
        let display = try VirtualDisplay()
        let title = "lptest-seek-key"
        let player = try LoopplayTool.start(["--loop", "--events", "--title", title, "--window-size", "320x180",
                                             try TestMedia.loopClip()],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        let events = PipeText(player.stdout)
        _ = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        _ = events.waitUntil { $0.contains("\"type\":\"playing\"") }
        try display.press(["Right"], window: title)
        _ = events.waitUntil { $0.contains("\"type\":\"seek\"") }  // in the next one-second batch
        player.process.terminate()
        player.process.waitUntilExit()
        let stdout = events.whole()
        XCTAssertTrue(stdout.contains("\"type\":\"seek\""), stdout)
    }

    /// Without a window manager a fullscreen request changes nothing: the picture stays laid out in the
    /// window's real size (it used to be laid out for the whole screen and cropped), and again after
    /// toggling back.
    func testFullscreenWithoutAWindowManagerFollowsTheRealWindowSize() throws {
        let display = try VirtualDisplay()
        let title = "lptest-fullscreen"
        // --events: a key that says so (9, the volume) typed after f tells when f was acted on.
        let player = try LoopplayTool.start(["--loop", "--events", "--title", title, "--window-size", "320x180",
                                             try TestMedia.loopClip()],
                                            environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let events = PipeText(player.stdout)
        let window = try display.window(titled: title, shownBy: player.process, stderr: player.stderr)
        for (index, toggle) in ["into fullscreen", "back"].enumerated() {
            // What is checked is where the picture settles: read the window until it shows the bars
            // where they belong, for up to 20 s (a frame drawn while the request is under way may not).
            var left = (0, 0, 0), right = (0, 0, 0)
            func settled() -> Bool {
                guard let pixels = try? display.capture(x: window.x, y: window.y, width: 320, height: 180) else { return false }
                // testsrc2's colour bars: red on the left, cyan on the right, across the middle.
                func color(_ x: Int, _ y: Int) -> (Int, Int, Int) {
                    let i = (y * 320 + x) * 3
                    return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
                }
                left = color(20, 150)
                right = color(300, 150)
                return left.0 > 180 && left.1 < 80 && left.2 < 80 && right.0 < 80 && right.1 > 180 && right.2 > 180
            }
            if index == 0 { _ = waitFor(timeout: 10, settled) }  // the picture is on screen before f
            try display.press(["f", "9"], window: title)
            _ = events.waitUntil { _ in events.count(ofEvent: "volumeChanged") > index }
            _ = waitFor(timeout: 20, settled)
            XCTAssertTrue(left.0 > 180 && left.1 < 80 && left.2 < 80, "\(toggle): red bar on the left, got \(left)")
            XCTAssertTrue(right.0 < 80 && right.1 > 180 && right.2 > 180, "\(toggle): cyan bar on the right, got \(right)")
        }
    }

    /// Without a sound card ALSA prints eight lines of its own on stderr; they go to the logger and
    /// loopplay says once, in its own line, that there is no sound.
    func testNoSoundCardIsOneLineNotALSAsNoise() throws {
        let result = try LoopplayTool.run(["--headless", "--frames", "5", try AudioTestMedia.sine()],
                                          environment: ["SDL_AUDIODRIVER": "alsa", "ALSA_CONFIG_PATH": nil])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("ALSA lib"), result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertLessThanOrEqual(lines.count, 1, result.stderr)
        for line in lines { XCTAssertTrue(line.hasPrefix("loopplay: "), String(line)) }
    }
}

/// Looping switched on while a source plays that was opened without it (`L`, `.loop`): it loops,
/// with no `ended` on the way (it sent a false `ended` with `loopCompleted(1)`), and the time is
/// still published after the wrap.
final class LoopingSwitchedOnTests: XCTestCase {
    func testLoopingSwitchedOnNearTheEndLoopsWithoutEnding() throws {
        let probe = NetworkProbe({ $0.looping = false }, untimed: true)
        var switched = false
        probe.run(try TestMedia.loopClip(), timeout: 30) { probe in
            // Near the end: the demuxer (seconds ahead) has already reached it and said so.
            if !switched, probe.frames.count >= 110 {
                switched = true
                probe.engine.setLooping(true)
            }
            return probe.ended || probe.frames.count >= 300
        }
        XCTAssertFalse(probe.ended, "looping on: no end")
        XCTAssertFalse(probe.events.contains(.ended))
        XCTAssertGreaterThanOrEqual(probe.frames.count, 300)
        XCTAssertEqual(probe.frames.last?.pass, 2)
        XCTAssertTrue(probe.events.contains(.loopCompleted(1)), "\(probe.events)")
    }
}

/// `StopCondition(duration:)` counts from the start of the run, not from the first frame: a source
/// that never shows a frame still ends the run, and a new source does not start the time again.
final class RunDurationTests: XCTestCase {
    func testDurationEndsARunWhoseSourceNeverPlays() throws {
        var configuration = EngineConfiguration(output: .offscreen, looping: true,
                                                stop: StopCondition(duration: 0.5, exitOnFailure: false))
        configuration.audio.track = .none
        let engine = try PlaybackEngine(configuration: configuration)
        try? engine.load("/nonexistent/missing.mp4")
        let outcome = ThreadResult<RunOutcome>()
        // Run on another thread only to bound the wait; the test touches it again after the run.
        nonisolated(unsafe) let running = engine
        let runner = Thread { outcome.set(running.run()) }
        runner.start()
        // A guard against a hang, not a speed bound: it used to never return.
        let result = try XCTUnwrap(outcome.wait(timeout: 60), "the run never ended")
        XCTAssertEqual(result, .finished)
        engine.close()
    }

    func testANewSourceDoesNotRestartTheTime() throws {
        var script = FrameSchedulerTests.Script(FrameSchedulerTests.frames(0..<100), stop: StopCondition(duration: 1))
        script.scheduler.runStartedAt = 99.5  // the run began half a second before the first frame
        script.run([.at(100, .show), .at(100.5, .finished)])
    }
}

/// `--fullscreen` (and `f`) without a window manager did nothing, silently: it is said, once.
final class FullscreenWithoutWindowManagerTests: XCTestCase {
    func testFullscreenWithoutAWindowManagerIsSaid() throws {
        let display = try VirtualDisplay()
        let result = try LoopplayTool.run(["--fullscreen", "--frames", "10", try TestMedia.loopClip()],
                                          environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let said = result.stderr.split(separator: "\n").filter { $0.contains("no window manager is running to make the window fill the screen") }
        XCTAssertEqual(said.count, 1, result.stderr)
    }
}

/// An RGB source (full range, as RGB always is) converted to YUV for display keeps its black and
/// white: swscale writes limited-range BT.601, and the copy said the source's range (black showed
/// at 16, white at 235).
final class RGBSourceLevelsTests: XCTestCase {
    func testBlackAndWhiteOfAnRGBSourceStayBlackAndWhite() throws {
        let clip = try TestMedia.clip("black-white-bgr0.mkv", ["-f", "lavfi", "-i",
            "color=c=black:s=64x32:r=10:d=1[a];color=c=white:s=64x32:r=10:d=1[b];[a][b]hstack",
            "-pix_fmt", "bgr0", "-c:v", "ffv1"])
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip) } }
        var pixels: (black: [UInt8], white: [UInt8])?
        player.runScenes(timing: .untimed, until: StopCondition(frames: 1)) { composed in
            guard pixels == nil, let image = try? composed.image() else { return }
            func rgb(_ x: Int, _ y: Int) -> [UInt8] { (0..<3).map { image.pixels[(y * image.width + x) * 3 + $0] } }
            pixels = (rgb(image.width / 4, image.height / 2), rgb(image.width * 3 / 4, image.height / 2))
        }
        let seen = try XCTUnwrap(pixels)
        XCTAssertTrue(seen.black.allSatisfy { $0 <= 3 }, "black: \(seen.black)")
        XCTAssertTrue(seen.white.allSatisfy { $0 >= 252 }, "white: \(seen.white)")
    }
}
