import CSDL
import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// Several players with windows in this one process, driven by one main-thread loop (`PlayerGroup`),
/// on the shared Xvfb display: what each window shows is read back from the screen.
final class PlayerGroupTests: XCTestCase {
    /// Ten seconds of one colour (no wrap while a test looks at it).
    private func solid(_ color: String) throws -> String {
        try TestMedia.clip("solid-\(color)-320x180-10s.mp4", ["-f", "lavfi", "-i", "color=c=\(color):s=320x180:r=30:d=10"]
            + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
    }

    private static func centre(_ pixels: [UInt8], width: Int, height: Int) -> [Int] {
        let i = (height / 2 * width + width / 2) * 3
        return pixels[i..<i + 3].map(Int.init)
    }


    /// Three players, three windows: each shows its own video; space in one window pauses that player
    /// only; resizing one lays out that player only; closing one window ends that player only, and the
    /// other two play on in theirs.
    func testThreeWindowsShowTheirOwnVideoTakeTheirOwnKeysAndCloseAlone() throws {
        let display = try SharedDisplay.display
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        let colors: [(name: String, rgb: [Int])] = [("red", [255, 0, 0]), ("lime", [0, 255, 0]), ("blue", [0, 0, 255])]
        let clips = try colors.map { try solid($0.name) }
        let players = clips.map { clip in ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Events([.boundsChangedAny]) } } }
        let bounds = Mutex<[Int: [Rect]]>([:])
        for (index, player) in players.enumerated() {
            player.onPlayerEventChange { batch in
                for case let .boundsChanged(rect) in batch { bounds.withLock { $0[index, default: []].append(rect) } }
            }
        }
        let titles = (0..<3).map { "lptest-group-\($0)" }
        let windows = (0..<3).map { WindowOptions(title: titles[$0], size: (320, 180), position: (20 + $0 * 360, 20)) }
        // Each player's SDL window id, learnt on the run thread once it plays (to close it below).
        let windowIDs = Mutex<[Int: UInt32]>([:])
        for (index, player) in players.enumerated() {
            player.onStateChange { [unowned player] state in
                guard state == .playing, let output = player.session?.engine.output as? WindowOutput else { return }
                let id = SDL_GetWindowID(output.window)
                windowIDs.withLock { $0[index] = id }
            }
        }
        let group = PlayerGroup(players, windows: windows)
        let findings = Mutex<[String]>([])
        @Sendable func note(_ finding: String) { findings.withLock { $0.append(finding) } }

        let observer = Thread {
            defer { group.stop() }
            // 1. Every window shows its own player's colour.
            var geometry: [(x: Int, y: Int, width: Int, height: Int)] = []
            for title in titles {
                guard let window = try? display.window(titled: title) else { return note("no window \(title)") }
                geometry.append(window)
            }
            guard waitFor(timeout: 30, { players.allSatisfy { $0.state == .playing } }) else { return note("not all playing") }
            for (index, window) in geometry.enumerated() {
                // Until the window shows its picture, drawn a moment after the player plays.
                var centre: [Int]?
                _ = waitFor {
                    centre = (try? display.capture(x: window.x, y: window.y, width: window.width, height: window.height))
                        .map { Self.centre($0, width: window.width, height: window.height) }
                    return centre.map { !zip($0, colors[index].rgb).contains(where: { abs($0 - $1) > 40 }) } ?? false
                }
                guard let seen = centre else { return note("no capture") }
                if zip(seen, colors[index].rgb).contains(where: { abs($0 - $1) > 40 }) {
                    note("window \(index) shows \(seen), not \(colors[index].name)")
                }
            }
            // 2. Space in the middle window pauses its player only.
            do { try display.press(["space"], window: titles[1]) } catch { return note("xdotool: \(error)") }
            guard waitFor(timeout: 20, { players[1].state == .paused }) else { return note("space did not pause player 1") }
            let before = players.map(\.currentTime)
            // Until the other two have moved on by 0.3 s: player 1 must not have moved meanwhile.
            _ = waitFor { [0, 2].allSatisfy { players[$0].currentTime - before[$0] >= 0.3 } }
            let after = players.map(\.currentTime)
            if players[0].state != .playing || players[2].state != .playing {
                note("the others must play on: \(players.map(\.state))")
            }
            if after[1] != before[1] { note("player 1 is paused but moved: \(before[1]) → \(after[1])") }
            for index in [0, 2] where after[index] - before[index] < 0.3 {
                note("player \(index) did not move: \(before[index]) → \(after[index])")
            }
            // 3. Resizing the first window lays out its player only.
            let id = (try? TestMedia.run("xdotool", ["search", "--name", "^\(titles[0])$"], environment: ["DISPLAY": display.name]))?
                .output.split(separator: "\n").first.map(String.init) ?? ""
            _ = try? TestMedia.run("xdotool", ["windowsize", id, "640", "360"], environment: ["DISPLAY": display.name])
            let resized = waitFor(timeout: 20) { bounds.withLock { $0[0]?.last?.width } == 640 }
            if !resized { note("player 0 was not laid out for 640x360: \(bounds.withLock { $0 })") }
            for index in [1, 2] {
                let laidOut = bounds.withLock { $0[index] ?? [] }
                if laidOut.isEmpty || laidOut.contains(where: { $0.width != 320 }) {
                    note("player \(index) must be laid out once, for its own 320x180 window: \(laidOut)")
                }
            }
            // 4. Closing the last window (the window system's close request) ends that player only.
            guard let closing = windowIDs.withLock({ $0[2] }) else { return note("no window id for player 2") }
            var close = SDL_Event()
            close.type = SDL_WINDOWEVENT.rawValue
            close.window.event = UInt8(SDL_WINDOWEVENT_CLOSE.rawValue)
            close.window.windowID = closing
            SDL_PushEvent(&close)
            guard waitFor(timeout: 20, { players[2].state == .idle }) else { return note("player 2 did not end") }
            func windowStatus() -> Int32 { (try? TestMedia.run("xwininfo", ["-display", display.name, "-name", titles[2]]))?.status ?? 0 }
            _ = waitFor { windowStatus() != 0 }  // until the window is gone from the display
            let gone = windowStatus()
            if gone == 0 { note("window 2 is still there") }
            let stillThere = titles[0...1].compactMap { try? display.window(titled: $0, timeout: 1) }
            if stillThere.count != 2 { note("windows 0 and 1 must stay: \(stillThere)") }
            let playingOn = players[0].currentTime
            _ = waitFor { players[0].currentTime - playingOn >= 0.2 }
            if players[0].currentTime - playingOn < 0.2 || players[0].state != .playing {
                note("player 0 must play on after another window closed")
            }
        }
        observer.start()
        let outcomes = group.run()
        XCTAssertEqual(findings.withLock { $0 }, [])
        XCTAssertEqual(outcomes, [.quit, .quit, .quit], "each ended by its window's close or by stop()")
        for player in players { XCTAssertGreaterThan(player.statistics.framesPresented, 20) }
        // None in the benchmark (docs/benchmarks.md); a loaded machine or a sanitizer may drop one or
        // two, e.g. around the resize. A loop that starved a player would drop dozens.
        for player in players { XCTAssertLessThan(player.statistics.framesDropped, 5) }
    }

    /// An exclusive group spans the players of one loop; a player that cannot start fails alone; the
    /// loop ends when the others stop.
    func testExclusiveGroupAcrossWindowsAndAPlayerThatCannotStart() throws {
        _ = try SharedDisplay.display
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        let clip = try solid("gray")
        let first = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); ExclusivePlayback(group: "hall") } }
        let second = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); NotAutoPlay(); ExclusivePlayback(group: "hall") } }
        let broken = ExtVideoPlayer { VideoSettings { Loop() } }  // no source: invalid settings
        let windows = (0..<3).map { WindowOptions(title: "lptest-exclusive-\($0)", size: (160, 90), position: ($0 * 200, 300)) }
        let findings = Mutex<[String]>([])
        let observer = Thread {
            defer { [first, second].forEach { $0.stop() } }
            guard waitFor(timeout: 30, { first.state == .playing && second.state == .ready }) else {
                return findings.withLock { $0.append("start: \(first.state), \(second.state)") }
            }
            second.send(.play)
            guard waitFor(timeout: 20, { second.state == .playing && first.state == .paused }) else {
                return findings.withLock { $0.append("exclusive: \(first.state), \(second.state)") }
            }
        }
        observer.start()
        let outcomes = ExtVideoPlayer.runAll([first, second, broken], windows: windows)
        XCTAssertEqual(findings.withLock { $0 }, [])
        XCTAssertEqual(outcomes.count, 3)
        XCTAssertEqual(Array(outcomes.prefix(2)), [.quit, .quit])
        guard case let .failed(error) = outcomes[2] else { return XCTFail("\(outcomes[2])") }
        XCTAssertEqual(error.kind, "invalidSetting")
    }

    /// Sound devices are each player's: a player that ends closes only its own device, and one that
    /// asks for another SDL audio driver while a device plays is refused (`audioUnavailable`) instead
    /// of restarting SDL's audio under the others. The first player's sound runs on to its end.
    func testPlayersInOneProcessKeepTheirOwnSoundDevice() throws {
        let clip = try AudioTestMedia.sine()
        let files = (0..<2).map { NSTemporaryDirectory() + "lp-group-sound-\($0)-\(UUID().uuidString).raw" }
        defer { files.forEach { try? FileManager.default.removeItem(atPath: $0) } }
        func player(file: String?, driver: String) -> ExtVideoPlayer {
            let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Unmute(); Events([.errorAny]) } }
            player.audioOutput = AudioOptions(driver: driver, device: file)
            return player
        }
        let long = player(file: files[0], driver: "disk")
        let short = player(file: files[1], driver: "disk")
        let otherDriver = player(file: nil, driver: "dummy")
        let otherEvents = Mutex<[PlayerEvent]>([])
        otherDriver.onPlayerEventChange { batch in otherEvents.withLock { $0 += batch } }
        let done = (0..<3).map { expectation(description: "run \($0)") }
        // Each starts once the one before plays (its device open and playing). The first plays
        // until the others are over, however long they take: it is stopped then.
        Thread { long.runHeadless(until: StopCondition()); done[0].fulfill() }.start()
        XCTAssertTrue(waitFor(timeout: 30) { long.state == .playing }, "the first player plays")
        Thread { short.runHeadless(until: StopCondition(frames: 30)); done[1].fulfill() }.start()
        XCTAssertTrue(waitFor(timeout: 30) { short.state == .playing }, "the second player plays")
        Thread { otherDriver.runHeadless(until: StopCondition(frames: 30)); done[2].fulfill() }.start()
        wait(for: Array(done[1...]), timeout: 60)
        XCTAssertEqual(long.state, .playing, "the first player plays through the others' start and end")
        long.stop()
        wait(for: [done[0]], timeout: 60)

        // The sound each wrote is at least what its picture showed (the picture follows the sound),
        // less half a second for the start.
        func shownSamples(_ player: ExtVideoPlayer) -> Int {
            let device = player.statistics.audioDevice
            let seconds = max(Double(player.statistics.framesPresented) / 30 - 0.5, 0)
            return Int(seconds * Double((device?.rate ?? 48_000) * (device?.channels ?? 1)))
        }
        let samples = try Data(contentsOf: URL(fileURLWithPath: files[0])).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let first = try XCTUnwrap(samples.firstIndex { abs($0) > 1e-3 }, "the first player played sound")
        XCTAssertGreaterThan(long.statistics.framesPresented, 30, "the first player played on while the others ran")
        XCTAssertGreaterThanOrEqual(samples.count - first, shownSamples(long), "its sound, through the others' start and end")
        // Restarting SDL audio under it would end its file; a loaded machine (a sanitizer) may still
        // underrun for a buffer or two (20 ms each): not what is measured here.
        XCTAssertLessThan(Signal.longestSilence(samples[first...]), 4_800, "no gap (100 ms) in the first player's sound")
        XCTAssertEqual(short.statistics.framesPresented, 30)
        XCTAssertGreaterThanOrEqual(try Data(contentsOf: URL(fileURLWithPath: files[1])).count, 4 * shownSamples(short),
                                    "the second played too")
        let refused = otherEvents.withLock { $0 }.contains {
            if case let .error(.audioUnavailable(reason)) = $0 { reason.contains("one audio driver at a time") } else { false }
        }
        XCTAssertTrue(refused, "\(otherEvents.withLock { $0 })")
        XCTAssertEqual(otherDriver.statistics.framesPresented, 30, "its picture played without sound")
    }
}
