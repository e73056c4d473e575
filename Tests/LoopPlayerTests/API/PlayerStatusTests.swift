import LoopPlayer
import Synchronization
import XCTest

/// `status`, `onStatusChange` and `onEachEvent`: what a remote control reads, as it happens.
final class PlayerStatusTests: XCTestCase {
    func testTheStatusFollowsCommandsAndEventsComeAtOnce() throws {
        let clip = try TestMedia.loopClip()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop() } }
        player.audioOutput = AudioOptions(track: .none)
        let statuses = Mutex<[PlayerStatus]>([])
        let events = Mutex<[(PlayerEvent, PlayerStatus)]>([])
        player.onStatusChange { status in statuses.withLock { $0.append(status) } }
        player.onEachEvent { event in events.withLock { $0.append((event, player.status)) } }
        var frames = 0
        player.runFrames(timing: .untimed, until: StopCondition(frames: 60)) { _ in
            frames += 1
            if frames == 10 { player.send(.volume(0.25)); player.send(.unmute) }  // the library starts muted
            if frames == 20 { player.send(.seek(to: 3, play: nil)) }
            if frames == 30 { player.send(.togglePause); player.send(.togglePause) }  // cancel out
        }
        let seen = statuses.withLock { $0 }
        XCTAssertTrue(seen.first?.muted ?? false)
        XCTAssertEqual(seen.first { !$0.muted }?.volume, 0.25, "both commands in one status")
        XCTAssertEqual(seen.last?.commandsApplied, 5)
        XCTAssertFalse(seen.last?.paused ?? true, "two toggles cancel")
        XCTAssertTrue(seen.contains { $0.seeking }, "the seek's picture was awaited")
        XCTAssertEqual(seen.last?.source, clip)
        XCTAssertEqual(seen.last?.duration ?? 0, 4, accuracy: 0.01)
        XCTAssertEqual(seen.last?.playlistCount, 1)
        XCTAssertNil(seen.last?.playlistIndex)
        // Each event is told once the status it led to is there, not in a batch a second later.
        let told = events.withLock { $0 }
        let loaded = try XCTUnwrap(told.first { if case .itemStatusChanged(.readyToPlay) = $0.0 { true } else { false } })
        XCTAssertNotNil(loaded.1.duration, "the duration is known when readyToPlay is told")
        XCTAssertTrue(told.contains { if case .seek(true, 3) = $0.0 { true } else { false } })
        XCTAssertTrue(told.contains { if case .volumeChanged(0.25) = $0.0 { true } else { false } })
    }

    /// Before its first run a player's status says what its settings will do: the library's player
    /// starts muted (it said `muted: false` until the run's first second).
    func testTheStatusBeforeTheRunFollowsTheSettings() {
        let player = ExtVideoPlayer { VideoSettings { SourceName("swipe"); Loop(); Brightness(0.25) } }
        XCTAssertTrue(player.status.muted, "the library's default is muted")
        XCTAssertTrue(player.status.looping)
        XCTAssertEqual(player.status.brightness, 0.25)
        XCTAssertEqual(player.status.source, "swipe")
        XCTAssertEqual(player.status.playlistCount, 1)
        XCTAssertEqual(player.status.state, .idle)
        player.settings = VideoSettings { SourceName("swipe"); Unmute(); Volume(0.5) }
        XCTAssertFalse(player.status.muted, "new settings before the run: their status")
        XCTAssertEqual(player.status.volume, 0.5)
        XCTAssertFalse(player.status.looping)
    }
}
