@testable import LoopPlayer
import LoopPlayerCore
import XCTest

/// `PlayTracker`'s edges, told the engine's events as a session hears them: an unload ends the
/// play, and a seek back after the end begins a new one.
final class PlayTrackerTests: XCTestCase {
    private var tracker = PlayTracker()
    private var shown = 0, time = 0.0

    private var reading: PlayTracker.Reading {
        PlayTracker.Reading(unixTime: 1_800_000_000 + time, shown: shown, dropped: 0,
                            opening: PlayLedger.Opening(source: "a.mp4", scheduleEntry: nil, playlistIndex: nil))
    }

    private func hear(_ event: EngineEvent) -> [PlayRecord] { tracker.heard(event) { reading } }

    /// `frames` pictures shown over `seconds`, the item playing.
    private func play(_ frames: Int, seconds: Double) {
        XCTAssertEqual(tracker.settle(playing: true) { reading }, [])
        shown += frames
        time += seconds
        XCTAssertEqual(tracker.settle(playing: true) { reading }, [])
    }

    func testAnUnloadEndsThePlayAndTheNextItemOpensTheNext() {
        XCTAssertEqual(hear(.player(.currentItemChanged)), [])
        play(30, seconds: 1)
        XCTAssertEqual(hear(.player(.currentItemRemoved)), [], "an item may follow in the same batch")
        let unloaded = tracker.settle(playing: false) { reading }
        XCTAssertEqual(unloaded.map(\.ending), [.interrupted])
        XCTAssertEqual(unloaded.first?.framesShown, 30)
        time += 60  // idle: nothing plays, nothing is recorded
        XCTAssertEqual(tracker.settle(playing: false) { reading }, [])
        XCTAssertEqual(tracker.interrupted(stopped: true) { reading }, [], "no play is open while idle")

        XCTAssertEqual(hear(.player(.currentItemChanged)), [])
        play(10, seconds: 0.5)
        let last = tracker.interrupted(stopped: true) { reading }
        XCTAssertEqual(last.map(\.framesShown), [10])
        XCTAssertEqual(last.first?.started, Date(timeIntervalSince1970: 1_800_000_061), "from the new item's first picture")
    }

    func testAnItemReplacingAnotherSwitchesWithoutAnInterruption() {
        _ = hear(.player(.currentItemChanged))
        play(30, seconds: 1)
        XCTAssertEqual(hear(.player(.currentItemRemoved)), [])
        XCTAssertEqual(hear(.player(.currentItemChanged)).map(\.ending), [.switched])
        XCTAssertEqual(tracker.settle(playing: false) { reading }, [], "not also an unload")
    }

    func testASeekBackAfterTheEndBeginsANewPlay() {
        _ = hear(.player(.currentItemChanged))
        play(120, seconds: 4)
        XCTAssertEqual(hear(.player(.ended)).map(\.ending), [.completedPass])
        time += 10  // held on the last picture at the end (not playing): no play is open
        XCTAssertEqual(tracker.settle(playing: false) { reading }, [])

        play(45, seconds: 1.5)  // seeked back: pictures again
        let again = tracker.interrupted(stopped: true) { reading }
        XCTAssertEqual(again.map(\.framesShown), [45])
        XCTAssertEqual(again.first?.started, Date(timeIntervalSince1970: 1_800_000_014))
    }
}
