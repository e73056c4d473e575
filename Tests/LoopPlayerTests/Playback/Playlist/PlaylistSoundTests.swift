@testable import LoopPlayer
import XCTest

/// What the device played (SDL's `disk` driver) across a playlist switch: the next item's sound
/// follows the last sample of the one before in the same device, with no gap and no click.
final class PlaylistSoundTests: XCTestCase {
    func testSoundFollowsWithoutAGapInTheSameDevice() throws {
        // 1.9 s of a 440 Hz sine is 836 whole cycles: two items back to back are one unbroken sine.
        let clip = try AudioTestMedia.sine(codec: "aac")
        var queued = false
        let capture = try AudioCapture.play(clip, looping: false, stop: StopCondition(exitAtEnd: true), during: { engine, _ in
            if !queued {
                queued = true
                engine.queueNext(.file(clip))
            }
        }, prepare: { $0.endsSoundWithPicture = true })
        XCTAssertEqual(capture.shown.count, 2 * 57, "57 frames an item")
        XCTAssertEqual(capture.deviceOpens, 1, "the second item plays into the first one's device")
        XCTAssertEqual(capture.statistics.audioUnderruns, 0)
        let reference = try referenceAudio(clip)
        guard let first = capture.samples.firstIndex(where: { abs($0) > 1e-6 }) else { return XCTFail("nothing was played") }
        let found = alignment(of: reference, in: capture.samples, window: max(0, first - 16)..<(first + 16),
                              compare: 4096..<40_000)
        XCTAssertLessThan(found.error, 1e-3, "item 0 is not the file's sound")
        // Item 1's sound starts where item 0's picture ends (1.9 s): what the encoder padded after it
        // (the decoded file is 1.92 s) is cut, as at a loop's wrap.
        let second = found.offset + 91_200
        XCTAssertLessThan(largestDifference(capture.samples, at: second, reference, over: 4096..<(reference.count - 64)),
                          1e-3, "item 1 does not start right after item 0's last sample")
        // Sample for sample across the switch: item 0's last 4096 samples, then item 1's first.
        XCTAssertLessThan(largestDifference(capture.samples, at: found.offset, reference,
                                            over: (91_200 - 4096)..<91_200), 1e-3, "item 0's end")
        XCTAssertLessThan(largestDifference(capture.samples, at: second, reference, over: 0..<4096), 1e-3, "item 1's start")
        let both = capture.samples[found.offset..<(second + 91_200 - 64)]
        XCTAssertLessThanOrEqual(Signal.longestSilence(both), 2, "a gap in the sound")
        XCTAssertLessThan(Signal.discontinuity(capture.samples, around: second, frequency: 440), 0.005, "a click at the switch")
    }
}

/// The review's cases: a paused skip to an item without sound, and a seek after the current item
/// lent its device to the next one.
final class PlaylistSoundEdgeTests: XCTestCase {
    /// Paused (the device consumes nothing, the sound stage blocks on a full ring), then a skip to a
    /// video-only item: the old item must still stop, and the engine must unload promptly.
    func testPausedSkipToASilentItemStopsPromptly() throws {
        let withSound = try AudioTestMedia.sine(codec: "aac")
        let silent = try PlaylistMedia.first()
        let finished = expectation(description: "the engine stopped")
        let worker = WorkerThread(name: "paused-skip") {
            do {
                let engine = try PlaybackEngine(configuration: EngineConfiguration(
                    output: .offscreen, looping: false, stop: StopCondition(frames: 10),
                    audio: AudioOptions(driver: "disk", device: "/dev/null")))
                engine.endsSoundWithPicture = true
                try engine.load(withSound)
                engine.queueNext(.file(silent))
                XCTAssertEqual(engine.run(), .finished)
                engine.setPaused(true)
                _ = waitUntilBlocked(threadsNamed: "lp-adecode")  // the ring fills; the writer blocks
                XCTAssertTrue(engine.playQueuedNow())
                engine.setPaused(false)
                XCTAssertEqual(engine.run(), .finished)  // the silent item's frames (the old item settles meanwhile)
                engine.unload()
                engine.close()
            } catch {
                XCTFail("\(error)")
            }
            finished.fulfill()
        }
        wait(for: [finished], timeout: 15)
        worker.join()
    }

    /// A seek back in the current item after it lent its device to the next one: both keep their
    /// sound (the next item is queued again behind the current one's new end).
    func testSeekAfterTheHandOverKeepsTheSound() throws {
        let clip = try AudioTestMedia.sine(codec: "aac")
        var queued = false
        var sought = false
        let controller = TestController()
        let capture = try AudioCapture.play(clip, looping: false, stop: StopCondition(exitAtEnd: true), controller: controller,
                                            during: { engine, frame in
            if !queued {
                queued = true
                engine.queueNext(.file(clip))
            }
            // 1.85 s into item 0: its sound is all queued and lent to item 1 by now.
            if !sought, frame.time >= 1.85, engine.queuedLocation != nil,
               engine.itemSwitch.queuedHasSound {
                sought = true
                engine.seek(to: 1.0)
            }
        }, prepare: { engine in
            // What the playlist does when the engine drops the queued item.
            controller.onEvent = { [unowned engine] event in
                if case .queueDropped = event { engine.queueNext(.file(clip)) }
            }
            engine.endsSoundWithPicture = true
        })
        XCTAssertTrue(sought, "the seek happened after the hand-over")
        guard let first = capture.samples.firstIndex(where: { abs($0) > 1e-6 }),
              let last = capture.samples.lastIndex(where: { abs($0) > 1e-6 }) else { return XCTFail("nothing was played") }
        // 1.85 s + 0.9 s again + 1.9 s of item 1 ≈ 4.65 s of sound.
        XCTAssertGreaterThan(Double(last - first) / 48_000, 4.4, "item 1 played its sound")
        XCTAssertLessThan(Signal.longestSilence(capture.samples[first...last]), 4800, "a silence over 100 ms")
    }
}

/// Items of other sample rates and channel counts play into the one device, converted to its
/// format: SDL's disk and dummy drivers open one device only (a second failed, "Audio device
/// already open", and the item played silent; the disk driver's file was cut at each switch).
final class PlaylistDeviceFormatTests: XCTestCase {
    func testAnotherSampleRateAndChannelCountPlayIntoTheSameDevice() throws {
        let at48 = try AudioTestMedia.sine(codec: "aac")  // mono, 48 kHz, 1.9 s
        let at44 = try TestMedia.clip("sine-44100-stereo.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=1", "-f", "lavfi", "-i", "sine=f=660:r=44100:d=1",
        ] + TestMedia.h264 + ["-pix_fmt", "yuv420p", "-c:a", "aac", "-ar", "44100", "-ac", "2"])
        var secondItemShown = false
        var queued = false
        let capture = try AudioCapture.play(at48, looping: false, stop: StopCondition(exitAtEnd: true), during: { engine, _ in
            if !queued {
                queued = true
                engine.queueNext(.file(at44))
            }
            if engine.item?.location == .file(at44) { secondItemShown = true }
        }, prepare: { $0.endsSoundWithPicture = true })
        XCTAssertTrue(secondItemShown)
        XCTAssertEqual(capture.deviceOpens, 1, "one device for both items")
        XCTAssertEqual(capture.format?.rate, 48_000)
        XCTAssertEqual(capture.format?.channels, 2, "at least stereo: a mono first item does not make the next one mono")
        XCTAssertEqual(capture.shown.count, 57 + 30)
        XCTAssertEqual(capture.statistics.framesDropped, 0)
        guard let first = capture.samples.firstIndex(where: { abs($0) > 1e-3 }),
              let last = capture.samples.lastIndex(where: { abs($0) > 1e-3 }) else { return XCTFail("nothing was played") }
        // 1.9 s of 440 Hz, then 1 s of 660 Hz resampled to 48 kHz, one after the other.
        XCTAssertEqual(Double(last - first) / 48_000, 2.9, accuracy: 0.05, "both items' sound, in one file")
        XCTAssertEqual(Signal.frequency(capture.samples[(first + 4800)..<(first + 86_400)]), 440, accuracy: 2)
        XCTAssertEqual(Signal.frequency(capture.samples[(first + 96_000)..<(first + 134_400)]), 660, accuracy: 2,
                       "the second item's sound, resampled")
        XCTAssertLessThanOrEqual(Signal.longestSilence(capture.samples[first...last]), 2, "a gap at the switch")
    }

    /// A picture-only item between two with sound: the device is kept for the third (a second open
    /// failed with "Audio device already open" on SDL's dummy driver and emptied the disk driver's
    /// file), and it is silent while the picture-only item plays.
    func testASilentItemBetweenTwoKeepsTheDeviceForTheNext() throws {
        let sine = try AudioTestMedia.sine(codec: "aac")  // 1.9 s, 440 Hz
        let silent = try TestMedia.clip("picture-only-1s.mp4", ["-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=1"]
            + TestMedia.h264 + ["-pix_fmt", "yuv420p"])
        var queued = 0
        let capture = try AudioCapture.play(sine, looping: false, stop: StopCondition(exitAtEnd: true), during: { engine, _ in
            // Each next item is queued while the one before plays.
            if engine.item?.location == .file(sine), queued == 0 {
                queued = 1
                engine.queueNext(.file(silent))
            } else if engine.item?.location == .file(silent), queued == 1 {
                queued = 2
                engine.queueNext(.file(sine))
            }
        }, prepare: { $0.endsSoundWithPicture = true })
        XCTAssertEqual(queued, 2)
        XCTAssertEqual(capture.shown.count, 57 + 30 + 57)
        XCTAssertEqual(capture.deviceOpens, 1, "one device for the three items")
        XCTAssertNil(capture.events.first { if case .error = $0 { true } else { false } })
        // 1.9 s of sine, about 1 s of silence, 1.9 s of sine: both in the one file.
        let onsets = Signal.onsets(capture.samples, threshold: 0.05, quiet: 24_000)
        XCTAssertEqual(onsets.count, 2, "\(onsets)")
        if onsets.count == 2 {
            XCTAssertEqual(Double(onsets[1] - onsets[0]) / 48_000, 2.9, accuracy: 0.1, "the third item's sound after the silent one")
            XCTAssertEqual(Signal.frequency(capture.samples[(onsets[1] + 4800)..<(onsets[1] + 76_800)]), 440, accuracy: 5)
        }
    }
}
