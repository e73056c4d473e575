import CSDL
import LoopPlayer
import XCTest

/// A host application's own SDL loop and renderer, with the player drawn into a rectangle of it.
final class EmbeddedPlaybackTests: XCTestCase {
    func testDrawsDecodedFramesIntoTheHostsRendererRectangle() throws {
        try startDummyVideo()
        defer { stopDummyVideo() }
        let window = try XCTUnwrap(SDL_CreateWindow("host", 0, 0, 400, 300, 0))
        defer { SDL_DestroyWindow(window) }
        let renderer = try XCTUnwrap(SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue))
        defer { SDL_DestroyRenderer(renderer) }

        let clip = try TestMedia.redThenBlue()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Events([.playing, .boundsChangedAny]) } }
        let video = try EmbeddedPlayback(player: player, renderer: renderer, timing: .untimed)
        let area = Rect(x: 40, y: 60, width: 320, height: 180)
        pump([video]) { player.state == .playing }
        XCTAssertEqual(video.state, .playing)

        SDL_SetRenderDrawColor(renderer, 0, 255, 0, 255)  // the host's own green background
        SDL_RenderClear(renderer)
        video.draw(in: area)
        var pixels = [UInt8](repeating: 0, count: 400 * 300 * 3)
        XCTAssertEqual(SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_RGB24.rawValue, &pixels, 400 * 3), 0)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * 400 + x) * 3..<(y * 400 + x) * 3 + 3]) }
        func isRed(_ p: [UInt8]) -> Bool { p[0] > 200 && p[1] < 60 && p[2] < 60 }
        func isGreen(_ p: [UInt8]) -> Bool { p[0] < 60 && p[1] > 200 && p[2] < 60 }
        XCTAssertTrue(isRed(pixel(200, 150)), "\(pixel(200, 150)): the first frame inside the rectangle")
        XCTAssertTrue(isRed(pixel(42, 62)), "\(pixel(42, 62))")
        XCTAssertTrue(isGreen(pixel(20, 150)), "\(pixel(20, 150)): the host's background left of it")
        XCTAssertTrue(isGreen(pixel(200, 250)), "\(pixel(200, 250)): and below it")

        // Keep pumping: later frames of the same clip turn blue after one second of media.
        pump([video]) { player.currentTime >= 1.5 }
        SDL_RenderClear(renderer)
        video.draw(in: area)
        XCTAssertEqual(SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_RGB24.rawValue, &pixels, 400 * 3), 0)
        let blue = pixel(200, 150)
        XCTAssertTrue(blue[2] > 200 && blue[0] < 60, "\(blue): the picture follows playback")
    }

    /// Two players in one host renderer, one BT.601 and one BT.709 stream of the same green: each is
    /// converted with its own matrix (SDL's conversion mode is process-wide, so it is set per draw),
    /// each draws only into its own rectangle, and closing one leaves the other playing.
    func testTwoOutputsInOneProcessDoNotDisturbEachOther() throws {
        try startDummyVideo()
        defer { stopDummyVideo() }
        let window = try XCTUnwrap(SDL_CreateWindow("host", 0, 0, 400, 200, 0))
        defer { SDL_DestroyWindow(window) }
        let renderer = try XCTUnwrap(SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue))
        defer { SDL_DestroyRenderer(renderer) }

        func green(_ matrix: String, tag: String) throws -> String {
            try TestMedia.clip("green-\(matrix).mp4", ["-f", "lavfi", "-i", "color=c=0x00C800:s=160x90:r=30:d=2",
                "-vf", "scale=out_color_matrix=\(matrix):out_range=tv"] + TestMedia.h264
                + ["-pix_fmt", "yuv420p", "-colorspace", tag, "-color_range", "tv"])
        }
        // Decoded with the other matrix, this green would read G≈169 (BT.601 as 709) or G≈234 (709 as 601).
        let players = [try green("bt601", tag: "smpte170m"), try green("bt709", tag: "bt709")].map { clip in
            ExtVideoPlayer { VideoSettings { SourceName(clip); Loop() } }
        }
        var videos = try players.map { try EmbeddedPlayback(player: $0, renderer: renderer, timing: .untimed) }
        let areas = [Rect(x: 0, y: 0, width: 160, height: 90), Rect(x: 200, y: 100, width: 160, height: 90)]
        pump(videos) { videos.allSatisfy { $0.state == .playing } }
        XCTAssertEqual(videos.map(\.state), [.playing, .playing])

        func render(areas: [Rect] = areas) throws -> (Int, Int) -> [Int] {
            SDL_SetRenderDrawColor(renderer, 0, 0, 255, 255)
            SDL_RenderClear(renderer)
            for (video, area) in zip(videos, areas) { video.draw(in: area) }
            var pixels = [UInt8](repeating: 0, count: 400 * 200 * 3)
            XCTAssertEqual(SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_RGB24.rawValue, &pixels, 400 * 3), 0)
            return { x, y in pixels[(y * 400 + x) * 3..<(y * 400 + x) * 3 + 3].map(Int.init) }
        }
        func assertGreen(_ p: [Int], _ what: String, line: UInt = #line) {
            XCTAssertTrue(p[0] < 25 && abs(p[1] - 200) <= 12 && p[2] < 25, "\(p): \(what)", line: line)
        }
        var pixel = try render()
        assertGreen(pixel(80, 45), "the BT.601 stream")
        assertGreen(pixel(280, 145), "the BT.709 stream")
        XCTAssertEqual(pixel(280, 45), [0, 0, 255], "between the rectangles is the host's background")
        XCTAssertEqual(pixel(80, 145), [0, 0, 255])

        videos[0].close()
        videos = [videos[1]]
        let start = players[1].currentTime
        // The clip loops: its time moves on, or comes round again past the wrap.
        pump(videos) { abs(players[1].currentTime - start) >= 0.5 }
        XCTAssertGreaterThanOrEqual(abs(players[1].currentTime - start), 0.4, "the other player keeps playing")
        pixel = try render(areas: [areas[1]])
        assertGreen(pixel(280, 145), "the BT.709 stream after the other closed")
    }

    /// The host's loop: updates the players, then waits in SDL's event queue until the soonest asks to
    /// be called again or a decoded frame wakes it (`EmbeddedPlayback`'s wakeup event), as a host
    /// application does, until `done` holds (at most `turns` times round: a bound against a hang).
    private func pump(_ videos: [EmbeddedPlayback], turns: Int = 20_000, until done: () -> Bool) {
        var event = SDL_Event()
        for _ in 0..<turns {
            if done() { return }
            let next = videos.compactMap { $0.update() }.min()
            if next == 0 { continue }
            _ = SDL_WaitEventTimeout(&event, Int32(((next ?? 0.1) * 1000).rounded(.up)))
        }
    }

    /// SDL's dummy video driver with its software renderer: a real renderer, no display needed. The
    /// driver hint is reset afterwards so later window tests in this process get X11.
    private func startDummyVideo() throws {
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy")
        guard SDL_VideoInit("dummy") == 0 else {
            SDL_ResetHint(SDL_HINT_VIDEODRIVER)
            throw requirementMissing("SDL's dummy video driver: \(String(cString: SDL_GetError()))")
        }
    }

    private func stopDummyVideo() {
        SDL_VideoQuit()
        SDL_ResetHint(SDL_HINT_VIDEODRIVER)
    }
}
