import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// Network faults while playing, from a real server on loopback: a server killed and restarted
/// (HLS and progressive mp4), never back, stalled, 404/403/500, a truncated body; `retry()` after
/// a failure. Give-up times are short here; the default is 30 s.
final class NetworkFaultTests: XCTestCase {
    private var fixture: NetworkFixture!

    override func setUpWithError() throws { fixture = try NetworkFixture() }
    override func tearDown() { fixture = nil }

    /// Segments fetched just ahead (nothing cached), slower than the loopback would.
    private func slowHLS(timeout: Double = 8, stall: Double = 1) -> NetworkProbe {
        NetworkProbe { configuration in
            configuration.network.variant = .minBitrate
            configuration.network.bufferAhead = 1.5
            configuration.network.segmentCacheBytes = 0
            configuration.network.timeout = timeout
            configuration.network.stallTimeout = stall
        }
    }

    /// Nothing lost from the stream, nothing repeated (see `assertNoFrameLostOrRepeated`).
    private func assertContinuous(_ probe: NetworkProbe, file: StaticString = #filePath, line: UInt = #line) {
        assertNoFrameLostOrRepeated(probe, file: file, line: line)
    }

    func testServerKilledAndRestartedWithinTheGiveUpTimeResumes() throws {
        try fixture.server.setFaults([FaultRule(throttle: 100_000)])
        let probe = slowHLS()
        var restart: ThreadResult<Double>?
        var killedAt = 0.0
        // The server comes back once the player has run out of picture and waits for it.
        let comeBack = ThreadResult<Bool>()
        var statesBeforeKill = 0
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 20) { probe in
            if restart == nil, probe.frames.count >= 30 {
                killedAt = probe.now
                statesBeforeKill = probe.states.count
                restart = self.fixture.restart(when: comeBack)
            }
            guard let coming = restart else { return false }
            if probe.states[statesBeforeKill...].contains(.buffering) { comeBack.set(true) }
            guard let back = coming.wait(timeout: 0) else { return false }
            return probe.frames(after: killedAt + back).count >= 60
        }
        let back = try XCTUnwrap(restart?.wait(timeout: 10), "the server came back")
        let resumed = try XCTUnwrap(probe.frames(after: killedAt + back).first, "frames advance again")
        print("HLS resume: server back \(String(format: "%.2f", back)) s after the kill, first frame \(String(format: "%.3f", resumed.wall - killedAt - back)) s later")
        XCTAssertNil(probe.failure)
        XCTAssertFalse(probe.ended)
        XCTAssertTrue(probe.states.contains(.buffering), "\(probe.states)")
        XCTAssertTrue(probe.events.contains(.waitingToPlayAtSpecifiedRate))
        XCTAssertGreaterThan(probe.states.lastIndex(of: .playing) ?? -1, probe.states.lastIndex(of: .buffering) ?? 0, "\(probe.states)")
        assertContinuous(probe)
    }

    func testServerNeverBackIsANetworkErrorWithinTheGiveUpTime() throws {
        try fixture.server.setFaults([FaultRule(throttle: 100_000)])
        let probe = slowHLS(timeout: 2)
        var killedAt: Double?
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 20) { probe in
            if killedAt == nil, probe.frames.count >= 30 {
                self.fixture.server.stop()
                killedAt = probe.now
            }
            return probe.failure != nil
        }
        let failedAt = probe.now
        let error = try XCTUnwrap(probe.failure)
        guard case let .networkError(url, reason) = error else { return XCTFail("\(error)") }
        print("HLS give-up: failed \(String(format: "%.2f", failedAt - (killedAt ?? 0))) s after the kill (give-up 2 s): \(error)")
        XCTAssertTrue(url.contains("127.0.0.1"), url)
        XCTAssertTrue(reason.contains("connect"), reason)
        XCTAssertLessThan(failedAt - (killedAt ?? 0), 2 + 5)
        XCTAssertTrue(probe.states.contains(.buffering))
        XCTAssertFalse(probe.ended, "a lost network is never the end")
        XCTAssertTrue(probe.errors.contains { $0.kind == "networkError" })
    }

    /// The player API: a failed source shows its error and `retry()` plays it once the server is back.
    func testRetryAfterANetworkFailure() throws {
        let url = fixture.url("/hls/master-low-first.m3u8")
        fixture.server.stop()
        let player = ExtVideoPlayer { VideoSettings { SourceName(url); Loop(); NetworkTimeout(1); Events() } }
        let states = Mutex<[PlayerState]>([])
        let server = fixture.server
        player.onStateChange { [weak player] state in
            states.withLock { $0.append(state) }
            if case .failed = state, let player {
                Thread {
                    try? server.restart()
                    player.retry()
                }.start()
            }
            if state == .playing { player?.stop() }
        }
        player.runHeadless(until: StopCondition(duration: 20, exitOnFailure: false))
        let seen = states.withLock { $0 }
        guard let failed = seen.firstIndex(where: { if case .failed = $0 { return true } else { return false } }) else {
            return XCTFail("never failed: \(seen)")
        }
        if case let .failed(error) = seen[failed] { XCTAssertEqual(error.kind, "networkError", "\(error)") }
        XCTAssertTrue(seen[failed...].contains(.playing), "plays after retry(): \(seen)")
    }

    /// A server that accepts and never answers: each attempt ends at the stall limit, and the whole
    /// at the give-up time.
    func testStalledServerIsBounded() throws {
        try fixture.server.setFaults([FaultRule(pattern: "seg00[23]", stall: true)])
        let probe = slowHLS(timeout: 2, stall: 0.5)
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 20) { $0.failure != nil }
        let error = try XCTUnwrap(probe.failure)
        guard case let .networkError(url, reason) = error else { return XCTFail("\(error)") }
        let lastFrame = probe.frames.last?.wall ?? 0
        print("HLS stall: \(error); failed \(String(format: "%.2f", probe.now - lastFrame)) s after the last frame")
        XCTAssertTrue(url.hasSuffix("/v240/seg002.ts"), url)
        XCTAssertTrue(reason.contains("sent nothing"), reason)
        XCTAssertGreaterThanOrEqual(probe.frames.count, 50, "what was read plays first (less what the decoder holds)")
        XCTAssertLessThanOrEqual(probe.frames.count, 60)
        XCTAssertTrue(probe.states.contains(.buffering))
        XCTAssertFalse(probe.ended)
        XCTAssertLessThan(probe.now - lastFrame, 2 + 5)
    }

    /// 404 and 403 are final at once and name the URL and the status; a 500 that passes is retried
    /// and playback goes on; a 500 that stays ends at the give-up time.
    func testHTTPErrors() throws {
        let master = fixture.url("/hls/master-low-first.m3u8")
        for (rule, url, status) in [(FaultRule(pattern: "v240/seg002", status: 404), "/hls/v240/seg002.ts", "404 Not Found"),
                                    (FaultRule(pattern: "master", status: 403), "/hls/master-low-first.m3u8", "403 Forbidden")] {
            try fixture.server.setFaults([rule])
            let probe = slowHLS()
            probe.run(master, timeout: 60) { $0.failure != nil }
            XCTAssertEqual(probe.failure, .networkError(url: fixture.url(url), reason: "HTTP \(status)"))
            XCTAssertEqual(probe.failure?.description, "\(fixture.url(url)): HTTP \(status)")
            // Final at once: asked once, never retried (not a time: a loaded machine is slow).
            let code = Int(status.prefix(3)) ?? 0
            let asked = try fixture.server.requestLog().filter { $0.path.hasSuffix(url) && $0.status == code }.count
            XCTAssertEqual(asked, 1, "a final status is not retried")
            // Shown or dropped on a loaded machine, the frames read before play first.
            let played = Double(probe.frames.count + probe.engine.statistics.framesDropped)
            XCTAssertEqual(played, url.contains("seg002") ? 55 : 0, accuracy: 5, "what was read plays first")
        }
        try fixture.server.setFaults([FaultRule(pattern: "v240/seg001", status: 500, times: 2)])
        let passing = slowHLS()
        passing.run(master, timeout: 15) { $0.frames.count >= 100 }
        XCTAssertNil(passing.failure)
        assertContinuous(passing)
        try fixture.server.setFaults([FaultRule(pattern: "v240/seg001", status: 500)])
        let staying = slowHLS(timeout: 1.5)
        staying.run(master, timeout: 15) { $0.failure != nil }
        XCTAssertEqual(staying.failure, .networkError(url: fixture.url("/hls/v240/seg001.ts"), reason: "HTTP 5xx server error"))
    }

    /// A body cut short is taken up again with a Range request: every frame once.
    func testTruncatedBodyIsResumed() throws {
        try fixture.server.setFaults([FaultRule(pattern: "v240/seg001", truncateAfter: 20_000, times: 1)])
        let probe = slowHLS()
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 15) { $0.frames.count >= 100 }
        XCTAssertNil(probe.failure)
        assertContinuous(probe)
        let ranges = try fixture.server.requestLog().filter { $0.path.hasSuffix("v240/seg001.ts") }.compactMap(\.range)
        XCTAssertEqual(ranges.last, "bytes=20000-", "\(ranges)")
        XCTAssertEqual(ranges.count, 2)
    }

    /// mp4 over http (FFmpeg's http): the server killed mid-body and back within the give-up time;
    /// the input is reopened at the lost position and the decoder sees the exact continuation.
    func testProgressiveMP4ResumesAfterALostConnection() throws {
        let clip = try TestMedia.clip("loop-120-faststart.mp4", ["-i", TestMedia.loopClip(), "-c", "copy", "-movflags", "+faststart"])
        try FileManager.default.copyItem(atPath: clip, toPath: fixture.root.appendingPathComponent("clip.mp4").path)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        try fixture.server.setFaults([FaultRule(throttle: size / 3)])   // three seconds for four of video
        let probe = NetworkProbe { $0.network.timeout = 8 }
        var restart: ThreadResult<Double>?
        var killedAt = 0.0
        // The server comes back once the player has run out of picture and waits for it.
        let comeBack = ThreadResult<Bool>()
        var statesBeforeKill = 0
        probe.run(fixture.url("/clip.mp4"), timeout: 20) { probe in
            if restart == nil, probe.frames.count >= 20 {
                killedAt = probe.now
                statesBeforeKill = probe.states.count
                restart = self.fixture.restart(when: comeBack)
            }
            if restart != nil, probe.states[statesBeforeKill...].contains(.buffering) { comeBack.set(true) }
            return probe.engine.statistics.loopsCompleted >= 1 && probe.frames.count >= 150
        }
        let back = try XCTUnwrap(restart?.wait(timeout: 10))
        print("progressive resume: server back after \(String(format: "%.2f", back)) s; first frame after it \(String(format: "%.3f", (probe.frames(after: killedAt + back).first?.wall ?? 0) - killedAt - back)) s later")
        XCTAssertNil(probe.failure)
        XCTAssertFalse(probe.ended)
        assertContinuous(probe)
        XCTAssertGreaterThan(probe.frames(after: killedAt + back).count, 60, "frames advance again")
    }

    // MARK: Servers without byte ranges (issue 35, item 2)

    /// An mp4 with its `moov` at the end, from a server that ignores Range (like `python3 -m
    /// http.server`): FFmpeg reads to the end to find `moov` and cannot go back to the first
    /// sample, so every reconnect "succeeds" and brings nothing. That is no progress: the give-up
    /// time passes and loopplay says so in one line naming the URL and the timeout (exit 65).
    func testProgressiveWithoutRangesThatNeverProgressesGivesUp() throws {
        let url = try serveMoovAtTheEnd(as: "/late-moov.mp4")
        let result = try LoopplayTool.run(["--headless", "--loops", "1", "--network-timeout", "2", url],
                                          environment: ["SDL_AUDIODRIVER": "dummy"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains(url) && result.stderr.contains("2.0 s"), result.stderr)
        let requests = try fixture.server.requestLog().filter { $0.path == "/late-moov.mp4" }
        XCTAssertGreaterThan(requests.count, 1, "reconnected before giving up")
        XCTAssertTrue(requests.allSatisfy { $0.status == 200 }, "every answer whole: \(requests)")
    }

    /// The same source in a looping player: a networkError event and the failed state, never an end.
    func testProgressiveWithoutRangesFailsInALoopingPlayer() throws {
        let url = try serveMoovAtTheEnd(as: "/late-moov.mp4")
        let probe = NetworkProbe { $0.network.timeout = 2 }
        probe.run(url, timeout: 60) { $0.failure != nil }
        let error = try XCTUnwrap(probe.failure, "gave up")
        guard case let .networkError(failed, reason) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(failed, url)
        XCTAssertTrue(reason.contains("2.0 s"), reason)
        XCTAssertTrue(probe.errors.contains { $0.kind == "networkError" })
        XCTAssertEqual(probe.frames.count, 0)
        XCTAssertFalse(probe.ended, "a lost network is never the end")
    }

    /// A segment that trickles (a byte every 1/8 s: never a stall) from a server that answers every
    /// request, Range or not, with 200 and the whole body: the retry cannot resume, and starting
    /// over is bounded like any attempt, so the give-up time ends it (one line, exit 65).
    func testTricklingSegmentWithoutRangesGivesUp() throws {
        try fixture.server.setFaults([FaultRule(pattern: "seg001", throttle: 8)], acceptRanges: false)
        let master = fixture.url("/hls/master-low-first.m3u8")
        let result = try LoopplayTool.run(["--headless", "--network-timeout", "2", master], environment: ["SDL_AUDIODRIVER": "dummy"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("/seg001.ts") && result.stderr.contains("2.0 s"), result.stderr)
        let asked = try fixture.server.requestLog().filter { $0.path.hasSuffix("/seg001.ts") && $0.range != nil }
        XCTAssertTrue(asked.contains { $0.status == 200 }, "a Range request answered whole: \(asked)")
    }

    /// The trickle in a looping player: what was read plays, then buffering, then a networkError
    /// naming the segment and the give-up time; never an end.
    func testTricklingSegmentWithoutRangesFailsInALoopingPlayer() throws {
        try fixture.server.setFaults([FaultRule(pattern: "v240/seg002", throttle: 8)], acceptRanges: false)
        let probe = slowHLS(timeout: 2, stall: 0.5)
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 60) { $0.failure != nil }
        let error = try XCTUnwrap(probe.failure, "gave up")
        guard case let .networkError(url, reason) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(url.hasSuffix("/v240/seg002.ts"), url)
        XCTAssertTrue(reason.contains("2.0 s"), reason)
        // Shown or, on a loaded machine, dropped late: what was read plays first.
        XCTAssertGreaterThanOrEqual(probe.frames.count + probe.engine.statistics.framesDropped, 50, "what was read plays first")
        XCTAssertTrue(probe.states.contains(.buffering), "\(probe.states)")
        XCTAssertTrue(probe.errors.contains { $0.kind == "networkError" })
        XCTAssertFalse(probe.ended)
    }

    /// Serves the loop clip as ffmpeg writes it (`moov` after `mdat`) at `path`, Range ignored.
    private func serveMoovAtTheEnd(as path: String) throws -> String {
        let clip = try TestMedia.loopClip()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let moov = try XCTUnwrap(bytes.range(of: Data("moov".utf8))), mdat = try XCTUnwrap(bytes.range(of: Data("mdat".utf8)))
        XCTAssertGreaterThan(moov.lowerBound, mdat.lowerBound, "moov at the end")
        try bytes.write(to: fixture.root.appendingPathComponent(String(path.dropFirst())))
        try fixture.server.setFaults([], acceptRanges: false)
        return fixture.url(path)
    }

    func testProgressiveMP4NotFoundAndNeverBack() throws {
        let missing = NetworkProbe()
        missing.run(fixture.url("/none.mp4"), timeout: 10) { $0.failure != nil }
        XCTAssertEqual(missing.failure, .networkError(url: fixture.url("/none.mp4"), reason: "HTTP 404 Not Found"))
        let url = fixture.url("/gone.mp4")
        fixture.server.stop()
        let started = MonotonicCondition.now
        let down = NetworkProbe { $0.network.timeout = 1.5 }
        down.run(url, timeout: 10) { $0.failure != nil }
        let waited = MonotonicCondition.now - started
        XCTAssertEqual(down.failure?.kind, "networkError", "\(String(describing: down.failure))")
        XCTAssertGreaterThan(waited, 1.4, "tried again until the give-up time")
        XCTAssertLessThan(waited, 1.5 + 5)
    }
}
