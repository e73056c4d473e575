import Foundation
@testable import LoopPlayer
import XCTest

/// `ExclusivePlayback(group:)`: when a player starts, the others of its group pause, and of players
/// starting at once the last to start plays. Each start used to pause the others with a command
/// applied later, so two starting at once paused each other and both ended paused.
final class ExclusivePlaybackTests: XCTestCase {
    // MARK: The decision, pure

    func testOfTwoStartsAtOnceTheLastPlays() {
        var table = ExclusivePlaybackTable<String>()
        table.join("a", group: "lobby")
        table.join("b", group: "lobby")
        let askedByA = table.start("a")
        let askedByB = table.start("b")  // before "b" took the pause "a" asked of it
        let pauses = (a: table.takePause("a"), b: table.takePause("b"))
        XCTAssertEqual(askedByA, ["b"])
        XCTAssertEqual(askedByB, ["a"])
        XCTAssertTrue(pauses.a, "a started first: it pauses")
        XCTAssertFalse(pauses.b, "b started last: the pause a asked of it was withdrawn")
        let again = table.takePause("a")
        XCTAssertFalse(again, "answered once")
    }

    func testOfThreeStartsAtOnceOnlyTheLastPlays() {
        var table = ExclusivePlaybackTable<String>()
        for member in ["a", "b", "c"] { table.join(member, group: "lobby") }
        for member in ["a", "c", "b"] { table.start(member) }
        let pauses = ["a", "b", "c"].map { table.takePause($0) }
        XCTAssertEqual(pauses, [true, false, true])
    }

    func testAStartAfterTheOthersPausePausesTheFirst() {
        var table = ExclusivePlaybackTable<String>()
        table.join("a", group: "lobby")
        table.join("b", group: "lobby")
        table.start("a")
        let first = table.takePause("b")
        table.start("b")
        let second = ["a", "b"].map { table.takePause($0) }
        XCTAssertTrue(first)
        XCTAssertEqual(second, [true, false])
    }

    func testOnlyTheStartersGroupPauses() {
        var table = ExclusivePlaybackTable<String>()
        table.join("a", group: "lobby")
        table.join("b", group: "lobby")
        table.join("c", group: "hall")
        table.join("d", group: nil)
        let askedByA = table.start("a")
        let askedByD = table.start("d")
        let pauses = ["a", "b", "c", "d"].map { table.takePause($0) }
        XCTAssertEqual(askedByA, ["b"])
        XCTAssertEqual(askedByD, [], "in no group: pauses nobody")
        XCTAssertEqual(pauses, [false, true, false, false])
    }

    func testLeavingTheGroupForgetsThePauseAskedOfIt() {
        var table = ExclusivePlaybackTable<String>()
        table.join("a", group: "lobby")
        table.join("b", group: "lobby")
        table.start("a")
        table.join("b", group: "hall")
        let paused = table.takePause("b")
        let asked = table.start("a")
        XCTAssertFalse(paused)
        XCTAssertEqual(asked, [])
    }

    // MARK: Real players

    /// Two players of one group told to play at the same moment, from two threads: one plays on,
    /// the other is paused.
    func testTwoPlayersStartedAtOnceLeaveExactlyOnePlaying() throws {
        let clip = try TestMedia.loopClip()
        let players: [ExtVideoPlayer] = (0..<2).map { _ in
            ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); NotAutoPlay(); ExclusivePlayback(group: "lptest-race") } }
        }
        players.forEach { $0.audioOutput = AudioOptions(track: .none) }
        let runs = players.map { player in WorkerThread(name: "lptest-run") { _ = player.runHeadless() } }
        defer {
            players.forEach { $0.stop() }
            runs.forEach { $0.join() }
        }
        XCTAssertTrue(waitFor(timeout: 10) { players.allSatisfy { $0.state == .ready } }, "\(players.map(\.state))")
        let go = DispatchSemaphore(value: 0)
        let starters = players.map { player in
            WorkerThread(name: "lptest-play") {
                go.wait()
                player.send(.play)
            }
        }
        for _ in starters { go.signal() }
        starters.forEach { $0.join() }

        var winner: ExtVideoPlayer?
        let oneOfEach = waitFor(timeout: 10) {
            let states = players.map(\.state)
            guard states.contains(.paused), let playing = states.firstIndex(of: .playing) else { return false }
            winner = players[playing]
            return true
        }
        guard oneOfEach, let winner else { return XCTFail("not one playing and one paused: \(players.map(\.state))") }
        // Settled, not a moment between two pauses: the one playing goes on playing.
        let start = winner.currentTime
        let playsOn = waitFor(timeout: 10) { winner.state == .playing && abs(winner.currentTime - start) >= 0.3 }
        XCTAssertTrue(playsOn, "\(players.map(\.state))")
        XCTAssertEqual(players.filter { $0.state == .paused }.count, 1, "\(players.map(\.state))")
    }
}
