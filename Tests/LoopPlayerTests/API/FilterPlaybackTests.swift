import Filters
import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// Filters in a playing player: commands, settings, errors, pauses and wraps.
final class FilterPlaybackTests: XCTestCase {
    /// Luma at the picture's centre and the picture's size, per frame shown.
    struct Shown: Equatable {
        var time: Double
        var luma: UInt8
        var width: Int
        var height: Int
    }

    final class Log: Sendable {
        let frames = Mutex<[Shown]>([])
        let events = Mutex<[PlayerEvent]>([])
        func record(_ frame: VideoFrame) {
            let picture = frame.pointer.pointee
            let luma = picture.data.0![Int(picture.height / 2) * Int(picture.linesize.0) + Int(picture.width / 2)]
            frames.withLock { $0.append(Shown(time: frame.time, luma: luma, width: frame.width, height: frame.height)) }
        }
    }

    private func grey() throws -> String {
        try TestMedia.clip("grey-60.mp4", ["-f", "lavfi", "-i", "color=c=0x808080:s=160x90:r=30", "-frames:v", "60"]
            + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
    }

    private func run(_ settings: VideoSettings, commands: [PlaybackCommand] = [], stop: StopCondition) throws -> Log {
        let player = ExtVideoPlayer(settings: settings)
        let log = Log()
        player.onPlayerEventChange { batch in log.events.withLock { $0 += batch } }
        commands.forEach(player.send)
        player.runFrames(timing: .untimed, until: stop) { log.record($0) }
        return log
    }

    private func plainLuma() throws -> UInt8 {
        try run(VideoSettings(sourceName: grey()), stop: StopCondition(frames: 1)).frames.withLock { $0[0].luma }
    }

    func testClearReplacesTheStackAndBrightnessSurvivesRemoveAll() throws {
        let plain = try plainLuma()
        let settings = VideoSettings(sourceName: try grey())
        let cleared = try run(settings, commands: [.filter(.invert), .filter(.grayscale, clear: true)], stop: StopCondition(frames: 1))
        XCTAssertEqual(Int(cleared.frames.withLock { $0[0].luma }), Int(plain), accuracy: 1, "invert was cleared")
        let kept = try run(settings, commands: [.filter(.invert), .brightness(0.2), .contrast(5), .removeAllFilters],
                           stop: StopCondition(frames: 1))
        let expected = ColorAdjustment(brightness: 0.2, contrast: 4).adjust(luma: plain)  // contrast clamped to 4
        XCTAssertEqual(Int(kept.frames.withLock { $0[0].luma }), Int(expected), accuracy: 1)
    }

    func testInvalidRawFilterKeepsThePreviousStack() throws {
        let plain = try plainLuma()
        var settings = VideoSettings(sourceName: try grey())
        settings.events = .only([.errorAny])
        let log = try run(settings, commands: [.filter(.invert), .filter(.ffmpeg("nonsense=1"))], stop: StopCondition(frames: 5))
        XCTAssertEqual(log.frames.withLock { $0.map(\.luma) }, Array(repeating: 255 - plain, count: 5))
        let errors = log.events.withLock { $0 }
        XCTAssertEqual(errors.count, 1)
        guard case let .error(.invalidFilter(error)) = errors.first else { return XCTFail("\(errors)") }
        XCTAssertTrue(error.description.contains("nonsense"), error.description)
    }

    /// Frames come out at the filtered size; the layout the renderers compute from a frame's own
    /// geometry follows it.
    func testSettingsFiltersWithControlFlowAndASizeChangingFilter() throws {
        let wide = true
        let settings = VideoSettings {
            SourceName(try! grey())
            Filters {
                if wide { VideoFilter.crop(x: 0, y: 0, width: 80, height: 30) } else { VideoFilter.invert }
                VideoFilter.rotate(quarterTurns: 1)
            }
            Brightness(0.1)
        }
        let log = try run(settings, stop: StopCondition(frames: 2))
        let shown = log.frames.withLock { $0 }
        XCTAssertEqual(shown.map(\.width), [30, 30])
        XCTAssertEqual(shown.map(\.height), [80, 80])
        // The layout follows the filtered picture: a 30x80 picture letterboxed in a 300x300 area.
        let layout = VideoLayout(geometry: VideoGeometry(width: shown[0].width, height: shown[0].height),
                                 gravity: .resizeAspect, areaWidth: 300, areaHeight: 300)
        XCTAssertEqual(layout.destination.width, 112.5, accuracy: 0.01)
    }

    func testCustomSwiftFilterRunsInThePlayer() throws {
        struct Flat: PixelFilter {
            func apply(to picture: PixelPlanes, time: Double) {
                for y in 0..<picture.height { for x in 0..<picture.width { picture.luma[y * picture.lumaStride + x] = 77 } }
            }
        }
        let log = try run(VideoSettings(sourceName: try grey()), commands: [.customFilter(Flat())], stop: StopCondition(frames: 3))
        XCTAssertEqual(log.frames.withLock { $0.map(\.luma) }, [77, 77, 77])
    }

    func testFiltersStayOnAcrossTwentyWrapsWithAnExactFrameCount() throws {
        let clip = try TestMedia.loopClip()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Filters { VideoFilter.sepia(); VideoFilter.denoise(strength: 4) }; Contrast(1.2) } }
        var count = 0
        var lastPassChroma: [(u: Int, v: Int)] = []
        player.runFrames(timing: .untimed, until: StopCondition(loops: 20)) { frame in
            count += 1
            guard frame.pass == 19 else { return }
            // Sepia makes every picture warm: Cb below neutral, Cr above it (testsrc2 is colourful).
            let picture = frame.pointer.pointee
            var u = 0, v = 0
            for y in 0..<Int(picture.height / 2) {
                for x in 0..<Int(picture.width / 2) {
                    u += Int(picture.data.1![y * Int(picture.linesize.1) + x])
                    v += Int(picture.data.2![y * Int(picture.linesize.2) + x])
                }
            }
            let n = Int(picture.width / 2) * Int(picture.height / 2)
            lastPassChroma.append((u / n, v / n))
        }
        XCTAssertEqual(count, 2400)
        XCTAssertEqual(lastPassChroma.count, 120)
        XCTAssertTrue(lastPassChroma.allSatisfy { $0.u < 124 && $0.v > 132 }, "sepia still on after 19 wraps: \(lastPassChroma.prefix(3))")
        XCTAssertEqual(player.statistics.loopsCompleted, 20)
        XCTAssertLessThan(player.statistics.seamMaxDeviationMs, 0.001)
        XCTAssertEqual(player.statistics.errors, [:])
    }

    func testPausedPictureIsFilteredAgainAtOnce() throws {
        let clip = try grey()
        // The time published every 50 ms, while paused too: the player's own ticks.
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); TimePublishing(0.05) } }
        let log = Log()
        let ticks = Mutex(0)
        player.onPlayerTimeChange { _ in ticks.withLock { $0 += 1 } }
        // Waits until the player has gone on for `count` more ticks.
        func waitForTicks(_ count: Int) throws {
            let from = ticks.withLock { $0 }
            try waitFor { ticks.withLock { $0 } >= from + count }
        }
        let finished = expectation(description: "run returned")
        Thread { player.runFrames { log.record($0) }; finished.fulfill() }.start()
        try waitFor { log.frames.withLock { $0.count } >= 3 }
        player.send(.pause)
        try waitFor { player.state == .paused }
        try waitForTicks(2)
        let before = log.frames.withLock { $0 }
        player.send(.filter(.invert))
        try waitFor { log.frames.withLock { $0.count } > before.count }
        try waitForTicks(2)
        let after = log.frames.withLock { $0 }
        XCTAssertEqual(after.count, before.count + 1, "only the paused picture was shown again")
        XCTAssertEqual(after.last?.time, before.last?.time, "the same moment")
        XCTAssertEqual(Int(after.last!.luma), 255 - Int(before.last!.luma), "with the new stack")
        player.stop()
        wait(for: [finished], timeout: 5)
    }

    /// Waits until `condition` holds (the shared `pollFor`), failing the test if it never does.
    private func waitFor(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) throws {
        if pollFor(timeout: timeout, { condition() ? true : nil }) != nil { return }
        XCTFail("condition not met in \(timeout) s", file: file, line: line)
        throw ExtVideoPlayerTests.Timeout()
    }
}
