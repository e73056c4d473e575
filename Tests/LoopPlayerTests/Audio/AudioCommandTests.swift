import Foundation
import LoopPlayer
import Synchronization
import XCTest

/// The sound commands and the `Mute()` setting through `ExtVideoPlayer`, in real time, played into
/// SDL's `disk` driver.
final class AudioCommandTests: XCTestCase {
    private func player(muted: Bool, file: String) throws -> (ExtVideoPlayer, ExtVideoPlayerTests.Recorder) {
        let clip = try AudioTestMedia.sine()
        let player = ExtVideoPlayer {
            VideoSettings {
                SourceName(clip)
                Loop()
                Events([.volumeChangedAny, .errorAny])
                if muted { Mute() } else { Unmute() }
            }
        }
        player.audioOutput = AudioOptions(driver: "disk", device: file)
        let recorder = ExtVideoPlayerTests.Recorder()
        recorder.attach(to: player)
        return (player, recorder)
    }

    private static func played(_ file: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// As the model, a player starts muted unless its settings say `Unmute()` or `Volume(…)` (a
    /// background video makes no noise by surprise); loopplay keeps mpv's sound on.
    func testThePlayerStartsMutedUnlessTheSettingsSayOtherwise() throws {
        let clip = try AudioTestMedia.sine()
        func peak(_ build: @escaping () -> [any Setting]) throws -> Float {
            let file = NSTemporaryDirectory() + "lp-default-mute-\(UUID().uuidString).raw"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); build() } }
            player.audioOutput = AudioOptions(driver: "disk", device: file)
            XCTAssertEqual(player.runHeadless(until: StopCondition(frames: 30)), .finished)
            let samples = try Self.played(file)
            XCTAssertGreaterThan(samples.count, 48_000 / 2, "the device ran")
            return Signal.peak(samples[...])
        }
        XCTAssertEqual(try peak { [] }, 0, "muted by default")
        XCTAssertEqual(Double(try peak { [Volume(0.5)] }), 0.125 * 0.5, accuracy: 0.01, "Volume(0.5) unmutes at half")
        XCTAssertEqual(Double(try peak { [Unmute()] }), 0.125, accuracy: 0.01)
    }

    func testVolumeCommandEmitsVolumeChangedAndScalesTheSound() throws {
        let file = NSTemporaryDirectory() + "lp-volume-\(UUID().uuidString).raw"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (player, recorder) = try player(muted: false, file: file)
        player.send(.volume(0.5))
        player.send(.volume(7))  // clamped
        player.send(.volume(0.5))
        XCTAssertEqual(player.runHeadless(until: StopCondition(frames: 30)), .finished)
        XCTAssertEqual(recorder.allEvents, [.volumeChanged(0.5), .volumeChanged(1), .volumeChanged(0.5)])
        let samples = try Self.played(file)
        XCTAssertEqual(Double(Signal.peak(samples[...])), 0.125 * 0.5, accuracy: 0.01, "the sine (amplitude 1/8) at half volume")
    }

    func testMuteSettingThenUnmuteCommand() throws {
        let file = NSTemporaryDirectory() + "lp-mute-\(UUID().uuidString).raw"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (player, _) = try player(muted: true, file: file)
        let thread = Thread {
            // A second into the picture (the clip is 1.9 s), muted all along.
            _ = waitFor(timeout: 30) { player.currentTime >= 1 }
            player.send(.unmute)
            // The run ends once the sound was heard, however long that took (30 s: a hang guard).
            _ = waitFor(timeout: 30) { ((try? Self.played(file)) ?? []).contains { abs($0) > 0.1 } }
            player.stop()
        }
        thread.start()
        XCTAssertEqual(player.runHeadless(until: StopCondition()), .quit)
        let samples = try Self.played(file)
        let firstSound = try XCTUnwrap(samples.firstIndex { abs($0) > 1e-6 }, "unmuted")
        XCTAssertGreaterThan(firstSound, 40_000, "silent while muted (about the first second)")
        XCTAssertGreaterThan(Signal.peak(samples[firstSound...]), 0.1)
    }

    func testUnknownLanguageIsAnErrorEventAndPlaybackContinues() throws {
        let file = NSTemporaryDirectory() + "lp-track-\(UUID().uuidString).raw"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (player, recorder) = try player(muted: false, file: file)
        player.send(.audioTrack(languageCode: "jpn"))
        XCTAssertEqual(player.runHeadless(until: StopCondition(frames: 30)), .finished)
        guard case let .error(.audioTrackNotFound(language, _))? = recorder.allEvents.first else {
            return XCTFail("\(recorder.allEvents)")
        }
        XCTAssertEqual(language, "jpn")
        XCTAssertEqual(player.statistics.framesPresented, 30)
        XCTAssertGreaterThan(Signal.peak(try Self.played(file)[...]), 0.1, "the track plays on")
    }
}
