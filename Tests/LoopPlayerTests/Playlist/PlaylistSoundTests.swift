@testable import LoopPlayer
import XCTest

/// What the device played (SDL's `disk` driver) across a playlist switch: the next item's sound
/// follows the last sample of the one before in the same device, with no gap and no click.
final class PlaylistSoundTests: XCTestCase {
    func testSoundFollowsWithoutAGapInTheSameDevice() throws {
        // 1.9 s of a 440 Hz sine is 836 whole cycles: two items back to back are one unbroken sine.
        let clip = try AudioTestMedia.sine(codec: "aac")
        var queued = false
        var devicesSeen = Set<ObjectIdentifier>()
        let capture = try AudioCapture.play(clip, looping: false, stop: StopCondition(exitAtEnd: true), during: { engine, _ in
            if !queued {
                queued = true
                engine.queueNext(.file(clip))
            }
            if let device = engine.item?.pipeline.audio.output { devicesSeen.insert(ObjectIdentifier(device)) }
        }, prepare: { $0.endsSoundWithPicture = true })
        XCTAssertEqual(capture.shown.count, 2 * 57, "57 frames an item")
        XCTAssertEqual(devicesSeen.count, 1, "the second item plays into the first one's device")
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
