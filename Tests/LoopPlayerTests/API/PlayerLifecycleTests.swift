@testable import LoopPlayer
import XCTest

/// An inset's player, with its session and engine, is freed once the inset is removed or its host
/// ends. Each one used to live on: inset → player → session → engine → output → scene handler → inset.
final class PlayerLifecycleTests: XCTestCase {
    /// What one inset made, held weakly: all nil once it is freed.
    private struct InsetObjects {
        weak var inset: PlayerInset?
        weak var player: ExtVideoPlayer?
        weak var session: PlayerSession?
        weak var engine: PlaybackEngine?

        /// The ones still alive, by name.
        var alive: [String] {
            var names: [String] = []
            if inset != nil { names.append("inset") }
            if player != nil { names.append("player") }
            if session != nil { names.append("session") }
            if engine != nil { names.append("engine") }
            return names
        }
    }

    /// Adds an inset of a new player to `host` and waits until that player plays. Nothing of the
    /// inset is kept strongly once this returns.
    private func addPlayingInset(to host: ExtVideoPlayer, source: String) -> InsetObjects {
        let guest = ExtVideoPlayer { VideoSettings { SourceName(source); Loop() } }
        guest.audioOutput = AudioOptions(track: .none)
        let inset = PlayerInset(guest, frame: Rect(x: 20, y: 20, width: 160, height: 90))
        host.send(.addInset(inset))
        XCTAssertTrue(waitFor(timeout: 10) { guest.state == .playing }, "the inset's player did not play: \(guest.state)")
        // Its run set `session` before it played (and `state` is read under the player's lock).
        let session = guest.session
        XCTAssertNotNil(session)
        return InsetObjects(inset: inset, player: guest, session: session, engine: session?.engine)
    }

    /// Six insets added and removed in turn while the host plays: each one's player, session and
    /// engine go when its thread ends (that thread held the inset last).
    func testRemovedInsetsAreFreed() throws {
        let clip = try TestMedia.loopClip()
        let host = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop() } }
        host.audioOutput = AudioOptions(track: .none)
        let run = WorkerThread(name: "lptest-host") { _ = host.runHeadless() }
        defer {
            host.stop()
            run.join()
        }
        XCTAssertTrue(waitFor(timeout: 10) { host.state == .playing })
        for cycle in 0..<6 {
            let objects = addPlayingInset(to: host, source: clip)
            host.send(.removeAllInsets)
            // Watched, not joined: the host joins a removed inset's thread only at its next removal.
            guard waitFor(timeout: 10, { objects.alive.isEmpty }) else {
                return XCTFail("cycle \(cycle): \(objects.alive) still alive after the removal")
            }
        }
        XCTAssertEqual(host.state, .playing, "the host plays on")
    }

    /// Insets still shown when their host ends: the host's close stops and joins their threads, and
    /// once the host is released nothing of it or of them is left.
    func testInsetsGoWithTheirHost() throws {
        let clip = try TestMedia.loopClip()
        var insets: [InsetObjects] = []
        weak var releasedHost: ExtVideoPlayer?
        do {
            let host = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop() } }
            host.audioOutput = AudioOptions(track: .none)
            releasedHost = host
            let run = WorkerThread(name: "lptest-host") { XCTAssertEqual(host.runHeadless(), .quit, "ended by stop()") }
            XCTAssertTrue(waitFor(timeout: 10) { host.state == .playing })
            for _ in 0..<3 { insets.append(addPlayingInset(to: host, source: clip)) }
            host.stop()
            run.join()  // the host's run returned: its close joined the insets' threads
        }
        XCTAssertNil(releasedHost, "the host")
        XCTAssertEqual(insets.map { $0.alive }, [[String]](repeating: [], count: 3))
    }
}
