import Foundation
@testable import LoopPlayer
import XCTest

/// A headless engine playing a network source in real time (or untimed), recording what a viewer
/// would see: every frame shown with the wall time, every event, every state. `until` is asked on
/// the engine's thread after each frame, event and loop iteration; returning true ends the run.
final class NetworkProbe {
    struct Shown {
        /// Seconds since the run started (monotonic).
        var wall: Double
        var time: Double
        var pass: Int
        var width: Int
        var variant: Int?
    }

    let engine: PlaybackEngine
    private(set) var frames: [Shown] = []
    private(set) var events: [PlayerEvent] = []
    private(set) var states: [PlayerState] = []
    private let started = MonotonicCondition.now

    /// `area`: a fixed player area (limits the HLS variants like a window of that size).
    init(_ configure: (inout EngineConfiguration) -> Void = { _ in }, area: PixelSize? = nil, untimed: Bool = false) {
        var configuration = EngineConfiguration(output: .offscreen, looping: true, untimed: untimed,
                                                stop: StopCondition(exitOnFailure: false))
        configuration.network.timeout = 5
        configuration.network.stallTimeout = 1
        configure(&configuration)
        engine = PlaybackEngine(configuration: configuration, output: OffscreenOutput(area: area))
    }

    var now: Double { MonotonicCondition.now - started }

    /// Plays `source` until `until` says so or `timeout` seconds pass.
    @discardableResult
    func run(_ source: String, timeout: Double, until: @escaping (NetworkProbe) -> Bool) -> RunOutcome {
        let deadline = MonotonicCondition.now + timeout
        let check = { [unowned self] in
            if until(self) || MonotonicCondition.now >= deadline { engine.requestQuit() }
        }
        engine.onFramePresented = { [unowned self] frame in
            frames.append(Shown(wall: now, time: frame.time, pass: frame.pass, width: frame.width, variant: frame.variant?.index))
            check()
        }
        let controller = TestController()
        controller.onEvent = { [unowned self] event in
            switch event {
            case let .player(event):
                events.append(event)
                check()
            case let .stateChanged(state): states.append(state)
            default: break
            }
        }
        controller.tick = check
        // The loop must wake to look at the clock even when nothing happens.
        controller.deadline = { [unowned self] in engine.clock.isVirtual ? nil : engine.clock.now + 0.05 }
        try? engine.load(source)
        let outcome = engine.run(controller: controller)
        engine.close()
        return outcome
    }

    /// The frames shown at or after `wall` seconds.
    func frames(after wall: Double) -> [Shown] { frames.filter { $0.wall >= wall } }

    /// The longest time between two frames shown (wall clock), from `wall` on.
    func longestGap(after wall: Double = 0) -> Double {
        let shown = frames(after: wall).map(\.wall)
        return zip(shown, shown.dropFirst()).map { $1 - $0 }.max() ?? 0
    }

    var errors: [PlayerError] {
        events.compactMap { if case let .error(error) = $0 { return error } else { return nil } }
    }

    var variantChanges: [(bandwidth: Int, size: PixelSize)] {
        events.compactMap { if case let .variantChanged(bandwidth, size) = $0 { return (bandwidth, size) } else { return nil } }
    }

    var ended: Bool { events.contains(.ended) || states.contains(.ended) }

    var failure: PlayerError? {
        if case let .failed(error) = engine.state { return error }
        return nil
    }
}

/// A folder served by a `FaultServer` holding the HLS fixtures (`/hls`, `/fmp4`) and whatever a
/// test writes into it.
final class NetworkFixture {
    let root: URL
    let server: FaultServer

    /// `tls`: the server speaks https.
    init(tls: Bool = false) throws {
        try require(TestMedia.hasEncoder("libx264"), "ffmpeg with libx264")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("network-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("hls"), withDestinationURL: try HLSFixtures.set(.mpegts))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("fmp4"), withDestinationURL: try HLSFixtures.set(.fmp4))
        server = try FaultServer(root: root, tls: tls)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    func url(_ path: String) -> String { server.url(path) }

    /// Writes `text` at `path` under the root.
    @discardableResult
    func write(_ text: String, to path: String) throws -> URL {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Kills the server now and starts it again on the same port, on another thread, once `comeBack`
    /// is set: when the test has seen what the outage does (the player ran out of picture and
    /// waits). The result is how long the server was down, in seconds.
    func restart(when comeBack: ThreadResult<Bool>) -> ThreadResult<Double> {
        let done = ThreadResult<Double>()
        server.stop()
        let killed = MonotonicCondition.now
        Thread { [server] in
            // A bound against a hang only: the test fails on its own if the player never waits.
            _ = comeBack.wait(timeout: 60)
            try? server.restart()
            done.set(MonotonicCondition.now - killed)
        }.start()
        return done
    }
}

/// Every frame shown is whole frames (of `rate`) after the one before, never a repeat, and every
/// step over one frame is a frame the presenter dropped as late (counted; a loaded machine), never
/// one missing from the stream.
func assertNoFrameLostOrRepeated(_ probe: NetworkProbe, rate: Double = 30, _ label: String = "",
                                 file: StaticString = #filePath, line: UInt = #line) {
    let steps = zip(probe.frames, probe.frames.dropFirst()).map { ($1.time - $0.time) * rate }
    let odd = steps.indices.filter { abs(steps[$0] - steps[$0].rounded()) >= 0.03 || steps[$0].rounded() < 1 }
        .map { "#\($0): \(probe.frames[$0].time) → \(probe.frames[$0 + 1].time)" }
    XCTAssertEqual(odd, [], "\(label) no frame repeated or out of step", file: file, line: line)
    let skipped = steps.map { max(0, Int($0.rounded()) - 1) }.reduce(0, +)
    XCTAssertEqual(skipped, probe.engine.statistics.framesDropped, "\(label) no frame lost from the stream", file: file, line: line)
}
