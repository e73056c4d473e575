@testable import LoopPlayer
import XCTest

/// A player runs once at a time: a second run (another thread, an inset of a running player) is
/// refused with an error and leaves the first alone, which still stops when asked.
final class SingleRunTests: XCTestCase {
    func testASecondRunIsRefusedAndTheFirstPlaysOn() throws {
        let clip = try TestMedia.loopClip()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop() } }
        player.audioOutput = AudioOptions(track: .none)
        let ended = expectation(description: "the first run ended")
        let first = WorkerThread(name: "first-run") {
            XCTAssertEqual(player.runHeadless(until: StopCondition(duration: 20)), .quit, "ended by stop()")
            ended.fulfill()
        }
        XCTAssertTrue(waitFor(timeout: 10) { player.state == .playing })
        let second = player.runHeadless(timing: .untimed, until: StopCondition(frames: 1))
        guard case .failed(.invalidSetting(name: "run", _, _)) = second else { return XCTFail("\(second)") }
        XCTAssertEqual(player.state, .playing, "the first run's state is untouched")
        player.stop()
        wait(for: [ended], timeout: 5)
        first.join()
        XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(frames: 1)), .finished, "free again")
    }
}
