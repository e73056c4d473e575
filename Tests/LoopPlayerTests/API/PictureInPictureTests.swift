import CSDL
import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// The picture-in-picture mini window on the shared Xvfb display, read back from the screen.
final class PictureInPictureTests: XCTestCase {
    /// Red on the left half, blue on the right: where a picture is in a window shows on screen.
    private func halves() throws -> String {
        try TestMedia.clip("halves-red-blue-320x180-10s.mp4", ["-f", "lavfi", "-i",
            "color=c=red:s=160x180:r=30:d=10[a];color=c=blue:s=160x180:r=30:d=10[b];[a][b]hstack"]
            + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
    }

    /// The shared display with a window manager running on it (a mini window needs one to stay on
    /// top), SDL on X11.
    private func managedDisplay() throws -> (VirtualDisplay, WindowManager) {
        let display = try SharedDisplay.display
        let windowManager = try WindowManager(display: display.name)
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        return (display, windowManager)
    }

    /// A green bar across the middle of the top edge of the player area (an overlay).
    private struct GreenBar: ShapeLayerBuilderProtocol {
        let id = UUID()
        func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
            ShapeLayer(path: VectorPath(rect: CGRect(x: 200, y: 20, width: 80, height: 40)), fillColor: .green)
        }
    }


    /// startPiP opens a 240x135 borderless always-on-top window where the setting says, showing what
    /// the 480x270 main window shows at half the size (video and overlay); keys typed into it act on the
    /// player; stopPiP removes it; so does closing it, and the main window plays on. Each start and
    /// stop is an event.
    func testMiniWindowShowsTheSameSceneOnTopAndGoesOnStopOrClose() throws {
        let (display, windowManager) = try managedDisplay()
        defer { withExtendedLifetime(windowManager) {} }
        let clip = try halves()
        let player = ExtVideoPlayer {
            VideoSettings {
                SourceName(clip); Loop()
                PictureInPicture(width: 240, height: 135, x: 800, y: 400)
                VectorLayers { GreenBar() }
                Events([.startedPiP, .stoppedPiP, .errorAny])
            }
        }
        let title = "lptest-pip"
        let miniTitle = "\(title) (picture in picture)"
        let events = Mutex<[PlayerEvent]>([])
        // The open mini window's SDL id and flags, read on the run thread when a batch arrives.
        let miniWindows = Mutex<[UInt32: UInt32]>([:])
        player.onPlayerEventChange { [unowned player] batch in
            events.withLock { $0 += batch }
            guard let mini = (player.session?.engine.output as? WindowOutput)?.pictureInPicture else { return }
            let flags = SDL_GetWindowFlags(mini.window)
            miniWindows.withLock { $0[mini.id] = flags }
        }
        let findings = Mutex<[String]>([])
        @Sendable func note(_ finding: String) { findings.withLock { $0.append(finding) } }
        @Sendable func isGone(_ name: String) -> Bool {
            waitFor { ((try? TestMedia.run("xwininfo", ["-display", display.name, "-name", name]))?.status ?? 0) != 0 }
        }

        let observer = Thread {
            defer { player.stop() }
            guard let main = try? display.window(titled: title), waitFor({ player.state == .playing }) else {
                return note("the main window did not play")
            }
            player.send(.startPiP)
            guard let mini = try? display.window(titled: miniTitle) else { return note("no mini window") }
            if mini.x != 800 || mini.y != 400 || mini.width != 240 || mini.height != 135 { note("mini window at \(mini)") }
            let state = (try? TestMedia.run("xprop", ["-display", display.name, "-name", miniTitle, "_NET_WM_STATE"]))?.output ?? ""
            if !state.contains("_NET_WM_STATE_ABOVE") { note("not above the others: \(state)") }
            func pixel(_ pixels: [UInt8], _ width: Int, _ x: Int, _ y: Int) -> [Int] {
                pixels[(y * width + x) * 3..<(y * width + x) * 3 + 3].map(Int.init)
            }
            let marks: [(x: Int, y: Int, expected: [Int], what: String)] = [
                (60, 90, [255, 0, 0], "red half"), (180, 90, [0, 0, 255], "blue half"),
                (120, 20, [52, 199, 89], "green overlay (Color.green)"),
            ]
            // Where each mark is wrong in the two windows (none: both show it).
            func misplaced(big: [UInt8], small: [UInt8]) -> [String] {
                var wrong: [String] = []
                for mark in marks {
                    for (pixels, width, scale, window) in [(small, 240, 1, "mini"), (big, 480, 2, "main")] {
                        let seen = pixel(pixels, width, mark.x * scale, mark.y * scale)
                        if zip(seen, mark.expected).contains(where: { abs($0 - $1) > 50 }) { wrong.append("\(window) \(mark.what): \(seen)") }
                    }
                }
                return wrong
            }
            // Until both windows show the scene (the mini one draws it a moment after it opens).
            var captured: (big: [UInt8], small: [UInt8])?
            _ = waitFor {
                guard let big = try? display.capture(x: main.x, y: main.y, width: 480, height: 270),
                      let small = try? display.capture(x: mini.x, y: mini.y, width: 240, height: 135) else { return false }
                captured = (big, small)
                return misplaced(big: big, small: small).isEmpty
            }
            guard let shown = captured else { return note("no capture") }
            let (big, small) = shown
            // Where each is: the same picture and overlay, the mini one at half the size.
            misplaced(big: big, small: small).forEach(note)
            // Everywhere: the mini window is the main one scaled down (2x2 averages; edges may differ).
            var difference = 0
            for y in 0..<135 {
                for x in 0..<240 {
                    let quad = [(0, 0), (1, 0), (0, 1), (1, 1)].map { pixel(big, 480, 2 * x + $0.0, 2 * y + $0.1) }
                    let mean = (0..<3).map { channel in quad.map { $0[channel] }.reduce(0, +) / 4 }
                    difference += zip(pixel(small, 240, x, y), mean).map { abs($0 - $1) }.reduce(0, +)
                }
            }
            let meanDifference = Double(difference) / Double(240 * 135 * 3)
            if meanDifference > 6 { note("the mini window differs from the main one by \(meanDifference) on average") }

            // Keys typed into the mini window act on its player.
            let escaped = miniTitle.replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(of: ")", with: "\\)")
            do { try display.press(["space"], window: escaped) } catch { return note("xdotool: \(error)") }
            if !waitFor(timeout: 20, { player.state == .paused }) { note("space in the mini window did not pause") }
            player.send(.play)

            guard waitFor({ miniWindows.withLock { $0.count } == 1 }) else { return note("no mini window id") }
            player.send(.stopPiP)
            if !isGone(miniTitle) { note("stopPiP left the mini window") }

            player.send(.startPiP)
            guard (try? display.window(titled: miniTitle)) != nil else { return note("no second mini window") }
            guard waitFor({ miniWindows.withLock { $0.count } == 2 }) else { return note("no second mini window id") }
            let first = miniWindows.withLock { $0.keys.min() ?? 0 }
            var close = SDL_Event()
            close.type = SDL_WINDOWEVENT.rawValue
            close.window.event = UInt8(SDL_WINDOWEVENT_CLOSE.rawValue)
            close.window.windowID = miniWindows.withLock { $0.keys.first { $0 != first } ?? 0 }
            SDL_PushEvent(&close)
            if !isGone(miniTitle) { note("closing the mini window left it") }
            // The main window plays on: its position moves.
            let position = player.currentTime
            let movedOn = waitFor { player.currentTime != position }
            if !movedOn || player.state != .playing || (try? display.window(titled: title, timeout: 1)) == nil {
                note("the main window must play on: \(player.state)")
            }
            // The batch of events that says the second mini window closed.
            _ = waitFor { events.withLock { $0.count } >= 4 }
        }
        observer.start()
        XCTAssertEqual(player.run(window: WindowOptions(title: title, size: (480, 270), position: (0, 0))), .quit)
        XCTAssertEqual(findings.withLock { $0 }, [])
        XCTAssertEqual(events.withLock { $0 }, [.startedPiP, .stoppedPiP, .startedPiP, .stoppedPiP])
        for flags in miniWindows.withLock({ Array($0.values) }) {
            XCTAssertNotEqual(flags & SDL_WINDOW_ALWAYS_ON_TOP.rawValue, 0, "always on top")
            XCTAssertNotEqual(flags & SDL_WINDOW_BORDERLESS.rawValue, 0, "borderless")
        }
        XCTAssertEqual(miniWindows.withLock { $0.count }, 2)
    }

    /// A mini player: with `hidesMainWindow` the main window is unmapped while the mini window shows
    /// the picture, and comes back (showing it again) when the mini window closes.
    func testMiniPlayerHidesTheMainWindowUntilItCloses() throws {
        let (display, windowManager) = try managedDisplay()
        defer { withExtendedLifetime(windowManager) {} }
        let clip = try halves()
        let player = ExtVideoPlayer {
            VideoSettings {
                SourceName(clip); Loop()
                PictureInPicture(width: 240, height: 135, x: 800, y: 400, hidesMainWindow: true)
            }
        }
        let title = "lptest-mini-player"
        let miniTitle = "\(title) (picture in picture)"
        let findings = Mutex<[String]>([])
        @Sendable func note(_ finding: String) { findings.withLock { $0.append(finding) } }
        @Sendable func mapState(_ name: String) -> String {
            let info = (try? TestMedia.run("xwininfo", ["-display", display.name, "-name", name]))?.output ?? ""
            return info.split(separator: "\n").first { $0.contains("Map State") }.map(String.init) ?? "none"
        }
        let observer = Thread {
            defer { player.stop() }
            guard (try? display.window(titled: title)) != nil, waitFor({ player.state == .playing }) else {
                return note("the main window did not play")
            }
            player.send(.startPiP)
            guard let mini = try? display.window(titled: miniTitle) else { return note("no mini window") }
            if !waitFor({ mapState(title).contains("IsUnMapped") }) { note("main window still shown: \(mapState(title))") }
            // The colour at (`x`, `y`) of a capture of `window` (`width` wide), once it is near
            // `expected` (the window draws its picture a moment after it appears); nil: no capture.
            func colour(in window: (x: Int, y: Int, width: Int, height: Int), width: Int, height: Int, at x: Int, _ y: Int,
                        until expected: [Int]) -> [Int]? {
                var seen: [Int]?
                _ = waitFor {
                    seen = (try? display.capture(x: window.x, y: window.y, width: width, height: height))
                        .map { $0[(y * width + x) * 3..<(y * width + x) * 3 + 3].map(Int.init) }
                    return seen.map { !zip($0, expected).contains(where: { abs($0 - $1) > 50 }) } ?? false
                }
                return seen
            }
            guard let left = colour(in: mini, width: 240, height: 135, at: 60, 67, until: [255, 0, 0]) else { return note("no capture") }
            if zip(left, [255, 0, 0]).contains(where: { abs($0 - $1) > 50 }) { note("mini window's red half: \(left)") }
            player.send(.stopPiP)
            guard let main = try? display.window(titled: title) else { return note("the main window did not come back") }
            guard let right = colour(in: main, width: 480, height: 270, at: 360, 135, until: [0, 0, 255]) else { return note("no capture") }
            if zip(right, [0, 0, 255]).contains(where: { abs($0 - $1) > 50 }) { note("main window's blue half: \(right)") }
        }
        observer.start()
        XCTAssertEqual(player.run(window: WindowOptions(title: title, size: (480, 270), position: (0, 0))), .quit)
        XCTAssertEqual(findings.withLock { $0 }, [])
    }

    /// In a window on a display with no window manager (nothing would keep the mini window above the
    /// others), startPiP is a `notSupportedPiP` error event saying so, no mini window opens, and the
    /// main window plays on. It is asked at the time: one that ran and exited before does not count.
    func testStartPiPIsRefusedWithoutAWindowManager() throws {
        let display = try SharedDisplay.display
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        do {
            let gone = try WindowManager(display: display.name)
            withExtendedLifetime(gone) {}
        }
        let clip = try TestMedia.loopClip()
        let player = ExtVideoPlayer {
            VideoSettings { SourceName(clip); Loop(); PictureInPicture(); Events([.errorAny, .startedPiP]) }
        }
        let title = "lptest-pip-no-wm"
        let events = Mutex<[PlayerEvent]>([])
        player.onPlayerEventChange { batch in events.withLock { $0 += batch } }
        let miniOpened = Mutex(false)
        let observer = Thread {
            guard (try? display.window(titled: title)) != nil, waitFor({ player.state == .playing }) else { return player.stop() }
            player.send(.startPiP)
            _ = waitFor(timeout: 20) { events.withLock { !$0.isEmpty } }
            miniOpened.withLock { $0 = (try? display.window(titled: "\(title) (picture in picture)", timeout: 0.5)) != nil }
            // The main window plays on: its position moves.
            let position = player.currentTime
            _ = waitFor { player.currentTime != position }
            player.stop()
        }
        observer.start()
        player.run(window: WindowOptions(title: title, size: (320, 180), position: (0, 0)))
        let seen = events.withLock { $0 }
        XCTAssertEqual(seen.count, 1, "\(seen)")
        guard case let .error(.notSupportedPiP(text))? = seen.first else { return XCTFail("\(seen)") }
        XCTAssertTrue(text.contains("no window manager"), text)
        XCTAssertFalse(miniOpened.withLock { $0 }, "no mini window")
        XCTAssertGreaterThan(player.statistics.framesPresented, 0, "the main window played")
    }

    /// Without a window (headless) or without the setting, startPiP is a `notSupportedPiP` error event
    /// saying which; a mini window of a silly size is an invalid setting.
    func testStartPiPIsRefusedWithoutAWindowOrWithoutTheSetting() throws {
        let clip = try TestMedia.loopClip()
        for (enabled, reason) in [(true, "no window"), (false, "PictureInPicture() setting")] {
            let player = ExtVideoPlayer {
                VideoSettings { SourceName(clip); Loop(); Events([.errorAny, .startedPiP]); if enabled { PictureInPicture() } }
            }
            let events = Mutex<[PlayerEvent]>([])
            player.onPlayerEventChange { batch in events.withLock { $0 += batch } }
            player.send(.startPiP)
            XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(duration: 2)), .finished)
            let seen = events.withLock { $0 }
            XCTAssertEqual(seen.count, 1, "\(seen)")
            guard case let .error(.notSupportedPiP(text))? = seen.first else { XCTFail("\(seen)"); continue }
            XCTAssertTrue(text.contains(reason), text)
        }
        XCTAssertThrowsError(try VideoSettings { SourceName("clip"); PictureInPicture(width: 10) }.validate()) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, "invalidSetting")
        }
    }
}
