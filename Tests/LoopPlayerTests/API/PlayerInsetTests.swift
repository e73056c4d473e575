import CSDL
import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// A second player's scene drawn inside another player's window (an inset), read back from the screen.
final class PlayerInsetTests: XCTestCase {
    private func solid(_ color: String) throws -> String {
        try TestMedia.clip("solid-\(color)-320x180-10s.mp4", ["-f", "lavfi", "-i", "color=c=\(color):s=320x180:r=30:d=10"]
            + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
    }


    /// A blue player inset at (20, 20, 160x90) of a red player's 480x270 window, on both window paths:
    /// blue inside the inset, red around it; the inset's player plays (its own commands work); removing
    /// the inset stops that player and leaves the host's picture whole.
    func testInsetShowsTheOtherPlayersSceneAndGoesWhenRemoved() throws {
        let display = try SharedDisplay.display
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        let red = try solid("red"), blue = try solid("blue")
        for output in [VideoOutputKind.surface, .texture] {
            let host = ExtVideoPlayer { VideoSettings { SourceName(red); Loop() } }
            let guest = ExtVideoPlayer { VideoSettings { SourceName(blue); Loop() } }
            let inset = PlayerInset(guest, frame: Rect(x: 20, y: 20, width: 160, height: 90))
            let title = "lptest-inset-\(output.rawValue)"
            let findings = Mutex<[String]>([])
            @Sendable func note(_ finding: String) { findings.withLock { $0.append("\(output): \(finding)") } }
            let observed = DispatchSemaphore(value: 0)
            let observer = Thread {
                defer { host.stop(); observed.signal() }
                guard let window = try? display.window(titled: title), waitFor({ host.state == .playing }) else {
                    return note("the host did not play")
                }
                host.send(.addInset(inset))
                guard waitFor({ guest.state == .playing }) else { return note("the inset's player did not play") }
                func colors() -> (inside: [Int], outside: [Int], corner: [Int])? {
                    guard let pixels = try? display.capture(x: window.x, y: window.y, width: 480, height: 270) else { return nil }
                    func at(_ x: Int, _ y: Int) -> [Int] { pixels[(y * 480 + x) * 3..<(y * 480 + x) * 3 + 3].map(Int.init) }
                    return (at(100, 65), at(300, 200), at(10, 10))
                }
                func near(_ seen: [Int], _ expected: [Int]) -> Bool { !zip(seen, expected).contains { abs($0 - $1) > 50 } }
                // Until the screen shows the inset's scene, which it draws a moment after it plays.
                var seen = colors()
                _ = waitFor {
                    seen = colors()
                    return seen.map { near($0.inside, [0, 0, 255]) && near($0.outside, [255, 0, 0]) && near($0.corner, [255, 0, 0]) }
                        ?? false
                }
                guard let shown = seen else { return note("no capture") }
                if !near(shown.inside, [0, 0, 255]) { note("inside the inset: \(shown.inside)") }
                if !near(shown.outside, [255, 0, 0]) || !near(shown.corner, [255, 0, 0]) {
                    note("around the inset: \(shown.outside), \(shown.corner)")
                }
                // It has played a few frames (its statistics come once a second) before it pauses.
                _ = waitFor { guest.statistics.framesPresented > 5 }
                guest.send(.pause)
                if !waitFor({ guest.state == .paused }) || host.state != .playing {
                    note("the inset's player pauses alone: \(guest.state), host \(host.state)")
                }
                host.send(.removeAllInsets)
                guard waitFor({ guest.state == .idle }) else { return note("the inset's player did not stop") }
                // Until the host's picture is drawn where the inset was.
                var seenAfter = colors()
                _ = waitFor {
                    seenAfter = colors()
                    return seenAfter.map { near($0.inside, [255, 0, 0]) } ?? false
                }
                guard let after = seenAfter else { return note("no capture") }
                if !near(after.inside, [255, 0, 0]) { note("after removing the inset: \(after.inside)") }
            }
            observer.start()
            let outcome = host.run(window: WindowOptions(title: title, size: (480, 270), position: (0, 0), output: output))
            observed.wait()
            XCTAssertEqual(outcome, .quit, "\(output): ended by stop()")
            XCTAssertEqual(findings.withLock { $0 }, [])
            XCTAssertGreaterThan(guest.statistics.framesPresented, 5, "\(output): \(guest.statistics), \(guest.state)")
        }
    }

    /// Headless, the inset is in the host's snapshot too (the same scene), and the host ending stops
    /// the inset's player.
    func testInsetIsInTheHostsSnapshotAndEndsWithTheHost() throws {
        let red = try solid("red"), blue = try solid("blue")
        let host = ExtVideoPlayer { VideoSettings { SourceName(red); Loop() } }
        let guest = ExtVideoPlayer { VideoSettings { SourceName(blue); Loop() } }
        host.send(.addInset(PlayerInset(guest, frame: Rect(x: 20, y: 20, width: 160, height: 90))))
        XCTAssertEqual(host.runHeadless(until: StopCondition(duration: 1.5)), .finished)
        XCTAssertEqual(guest.state, .idle, "stopped with its host")
        XCTAssertGreaterThan(guest.statistics.framesPresented, 10)
        let image = try host.snapshot()
        XCTAssertEqual(image.width, 320)
        let inside = image.pixel(x: 100, y: 65), outside = image.pixel(x: 250, y: 150)
        XCTAssertTrue(inside.b > 200 && inside.r < 50, "\(inside): the inset")
        XCTAssertTrue(outside.r > 200 && outside.b < 50, "\(outside): the host's picture")
    }
}


extension PlayerInsetTests {
    /// Removing an inset and adding it again in the same breath plays its player again (its first
    /// run used to be still stopping, and the second was refused as "already running").
    func testAnInsetRemovedAndAddedAgainAtOncePlaysAgain() throws {
        let red = try solid("red"), blue = try solid("blue")
        let host = ExtVideoPlayer { VideoSettings { SourceName(red); Loop() } }
        let guest = ExtVideoPlayer { VideoSettings { SourceName(blue); Loop(); Events([.playing, .errorAny]) } }
        let events = Mutex<[PlayerEvent]>([])
        guest.onPlayerEventChange { batch in events.withLock { $0 += batch } }
        let inset = PlayerInset(guest, frame: Rect(x: 20, y: 20, width: 160, height: 90))
        let finished = expectation(description: "the host's run returned")
        Thread { host.runHeadless(); finished.fulfill() }.start()
        XCTAssertTrue(waitFor { host.state == .playing })
        host.send(.addInset(inset))
        XCTAssertTrue(waitFor { guest.state == .playing })
        host.send(.removeAllInsets)
        host.send(.addInset(inset))
        let playedTwice = waitFor(timeout: 20) { events.withLock { $0.filter { $0 == .playing }.count } == 2 }
        host.stop()
        wait(for: [finished], timeout: 20)
        XCTAssertTrue(playedTwice, "\(events.withLock { $0 }), now \(guest.state)")
        XCTAssertEqual(guest.state, .idle, "stopped with its host")
    }

    /// An inset whose frame cannot be drawn is an error event of the host; its player never starts.
    func testAnInsetWithoutAUsableFrameIsAnErrorEvent() throws {
        let red = try solid("red"), blue = try solid("blue")
        let host = ExtVideoPlayer { VideoSettings { SourceName(red); Loop(); Events([.errorAny]) } }
        let guest = ExtVideoPlayer { VideoSettings { SourceName(blue); Loop() } }
        let events = Mutex<[PlayerEvent]>([])
        host.onPlayerEventChange { batch in events.withLock { $0 += batch } }
        host.send(.addInset(PlayerInset(guest, frame: Rect(x: .nan, y: 0, width: 160, height: 90))))
        host.send(.addInset(PlayerInset(guest, frame: Rect(x: 0, y: 0, width: 0.2, height: 90))))
        XCTAssertEqual(host.runHeadless(timing: .untimed, until: StopCondition(duration: 1.5)), .finished)
        let errors = events.withLock { $0 }.compactMap { event -> String? in
            if case let .error(.invalidSetting(name, _, _)) = event { return name }
            return nil
        }
        XCTAssertEqual(errors, ["PlayerInset", "PlayerInset"], "\(events.withLock { $0 })")
        XCTAssertEqual(guest.state, .idle)
        XCTAssertEqual(guest.statistics.framesPresented, 0)
    }
}
