@testable import LoopPlayer
import XCTest

/// Sources that open fine and decode to no picture end with `noDecodableFrames`: never a spin, never
/// a silent end, never unbounded memory.
final class UndecodableSourceTests: XCTestCase {
    func testLoopingOverNoPictureEndsWithATypedError() throws {
        let record = try playUntimed(TestMedia.undecodablePictures(sound: false), looping: true,
                                     stop: StopCondition(loops: 3, exitAtEnd: true))
        guard case let .failed(.noDecodableFrames(_, detail)) = record.outcome else {
            return XCTFail("expected noDecodableFrames, got \(record.outcome)")
        }
        XCTAssertTrue(detail.contains("no picture"), detail)
        XCTAssertEqual(record.statistics.framesPresented, 0)
    }

    func testWithoutLoopingTheEndIsAnErrorNotAnEnd() throws {
        let record = try playUntimed(TestMedia.undecodablePictures(sound: false), stop: StopCondition(exitAtEnd: true))
        guard case .failed(.noDecodableFrames) = record.outcome else { return XCTFail("got \(record.outcome)") }
    }

    /// With a sound track that decodes, in real time: the sound does not pile up while the picture
    /// is tried (the device never plays meanwhile), then the source is opened again without its
    /// picture and its sound plays under a black one, as audio-only media do, with a warning.
    func testSoundWithoutPicturePlaysUnderABlackPicture() throws {
        let before = ProcessUsage.currentRSSBytes
        let probe = NetworkProbe { $0.audio = AudioOptions(driver: "dummy") }
        probe.run(try TestMedia.undecodablePictures(sound: true), timeout: 60) { probe in
            probe.failure != nil || probe.frames.count >= 45
        }
        XCTAssertNil(probe.failure)
        let warning = try XCTUnwrap(probe.errors.first, "a warning says the picture could not be decoded")
        XCTAssertEqual(warning.kind, "noDecodableFrames")
        XCTAssertTrue(warning.description.contains("its sound plays under a black picture"), "\(warning)")
        XCTAssertGreaterThanOrEqual(probe.frames.count, 45, "black frames, shown at the sound's pace")
        XCTAssertNotNil(probe.engine.statistics.audioDevice, "the sound plays")
        let first = try XCTUnwrap(probe.frames.first), last = try XCTUnwrap(probe.frames.last)
        XCTAssertGreaterThan(last.wall - first.wall, 1.0, "shown in real time, at the sound's pace")
        XCTAssertLessThan(ProcessUsage.currentRSSBytes - before, 64 << 20, "memory stays bounded")
    }

    func testLoopplayExitsWithTheMediaErrorCode() throws {
        let result = try LoopplayTool.run(["--headless", "--untimed", "--loop", "--loops", "3",
                                           try TestMedia.undecodablePictures(sound: false)], timeout: 30)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("no picture could be decoded"), result.stderr)
    }
}

/// SIGTERM, SIGINT and SIGHUP end loopplay within a second in every mode, with its statistics written.
final class SignalTests: XCTestCase {
    func testTerminateEndsHeadlessPlaybackPromptly() throws {
        try checkSignal(SIGTERM, arguments: ["--headless"])
    }

    /// SIGHUP (the terminal closed) ended the process by the signal, with no statistics.
    func testHangupEndsHeadlessPlaybackCleanly() throws {
        try checkSignal(SIGHUP, arguments: ["--headless"])
    }

    func testInterruptEndsHeadlessPlaybackWithSound() throws {
        try checkSignal(SIGINT, arguments: ["--headless", "--audio-driver", "dummy"],
                        source: try AudioTestMedia.sine())
    }

    func testTerminateEndsWindowPlayback() throws {
        let display = try VirtualDisplay()
        try checkSignal(SIGTERM, arguments: [], environment: ["DISPLAY": display.name])
    }

    private func checkSignal(_ signal: Int32, arguments: [String], source: String? = nil,
                             environment: [String: String?] = [:]) throws {
        let stats = FileManager.default.temporaryDirectory.appendingPathComponent("lp-signal-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let clip = try source ?? TestMedia.loopClip()
        var environment = environment
        environment["SDL_AUDIODRIVER"] = environment["SDL_AUDIODRIVER"] ?? "dummy"
        // The position published every 0.1 s: a second into the picture, about 30 frames were shown.
        let running = try LoopplayTool.start(arguments + ["--loop", "--time-publishing", "0.1", "--stats-json", stats, clip],
                                             environment: environment)
        let published = PipeText(running.stdout)
        _ = published.waitUntil(timeout: 30) { _ in published.publishedTimes.contains { $0 >= 1 } }
        XCTAssertTrue(running.process.isRunning, "still playing before the signal")
        let clock = MonotonicClock()
        let sentAt = clock.now
        kill(running.process.processIdentifier, signal)
        let ended = waitFor(timeout: 5) { !running.process.isRunning }
        let took = clock.now - sentAt
        if running.process.isRunning { running.process.terminate() }
        running.process.waitUntilExit()
        XCTAssertTrue(ended, "ended by itself after the signal (\(took) s; how soon is benchmarked)")
        XCTAssertEqual(running.process.terminationReason, .exit, "ended by itself, not killed by the signal")
        XCTAssertEqual(running.process.terminationStatus, 0)
        let report = try XCTUnwrap(LoopplayTool.json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: stats)),
                                                            as: UTF8.self)))
        XCTAssertGreaterThan(report["framesPresented"] as? Int ?? 0, 20)
    }
}
