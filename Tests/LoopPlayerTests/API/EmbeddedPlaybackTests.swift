import CSDL
import LoopPlayer
import XCTest

/// A host application's own SDL loop and renderer, with the player drawn into a rectangle of it.
final class EmbeddedPlaybackTests: XCTestCase {
    func testDrawsDecodedFramesIntoTheHostsRendererRectangle() throws {
        // SDL's dummy video driver with its software renderer: a real renderer, no display needed.
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy")
        XCTAssertEqual(SDL_VideoInit("dummy"), 0, String(cString: SDL_GetError()))
        defer { SDL_VideoQuit() }
        let window = try XCTUnwrap(SDL_CreateWindow("host", 0, 0, 400, 300, 0))
        defer { SDL_DestroyWindow(window) }
        let renderer = try XCTUnwrap(SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue))
        defer { SDL_DestroyRenderer(renderer) }

        let clip = try TestMedia.redThenBlue()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Events([.playing, .boundsChangedAny]) } }
        let video = try EmbeddedPlayback(player: player, renderer: renderer, timing: .untimed)
        let area = Rect(x: 40, y: 60, width: 320, height: 180)
        for _ in 0..<2000 where player.state != .playing {
            video.update()
            usleep(1000)
        }
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
        for _ in 0..<5000 where player.currentTime < 1.5 {
            if video.update() != 0 { usleep(500) }
        }
        SDL_RenderClear(renderer)
        video.draw(in: area)
        XCTAssertEqual(SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_RGB24.rawValue, &pixels, 400 * 3), 0)
        let blue = pixel(200, 150)
        XCTAssertTrue(blue[2] > 200 && blue[0] < 60, "\(blue): the picture follows playback")
    }
}
