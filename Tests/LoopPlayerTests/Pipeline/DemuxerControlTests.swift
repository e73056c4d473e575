@testable import LoopPlayer
import XCTest

/// Seeks and sound refreshes posted before the demuxer takes them merge: the picture goes where
/// the last seek said, with the generation the engine gave it; the sound takes the newest.
final class DemuxerControlTests: XCTestCase {
    /// A track change: to no track (`.some(nil)`), the simplest to make.
    private let noTrack: AudioTrack?? = .some(nil)

    func testARefreshAfterAPendingSeekKeepsThatSeeksPicture() {
        let control = DemuxerControl(looping: true)
        control.requestSeek(.init(generation: 1, position: 1.0, pass: 0))
        control.requestSeek(.init(generation: 2, position: 1.5, pass: 3, audioTrack: noTrack, keepsPicture: true))
        let seek = control.take().seek
        XCTAssertEqual(seek?.generation, 2, "the sound's")
        XCTAssertEqual(seek?.pictureGeneration, 1, "the picture's, as the engine gave it")
        XCTAssertEqual(seek?.position, 1.0)
        XCTAssertEqual(seek?.pass, 0)
        XCTAssertEqual(seek?.audioTrack, noTrack)
        XCTAssertNil(control.take().seek, "taken once")
    }

    func testASeekAfterAPendingRefreshMovesBothAndKeepsTheTrack() {
        let control = DemuxerControl(looping: true)
        control.requestSeek(.init(generation: 1, position: 1.5, pass: 0, audioTrack: noTrack, keepsPicture: true))
        control.requestSeek(.init(generation: 2, position: 0.5, pass: 1))
        let seek = control.take().seek
        XCTAssertEqual(seek?.generation, 2)
        XCTAssertEqual(seek?.pictureGeneration, 2)
        XCTAssertEqual(seek?.position, 0.5)
        XCTAssertEqual(seek?.audioTrack, noTrack, "the track change still happens")
    }

    func testAPendingRefreshDoesNotMakeThePicturesQueueGiveUp() {
        let control = DemuxerControl(looping: true)
        control.requestSeek(.init(generation: 1, position: 0, pass: 0, keepsPicture: true))
        control.condition.withLock {
            XCTAssertTrue(control.hasUrgentRequest, "the sound's queue gives up")
            XCTAssertFalse(control.hasPictureUrgentRequest, "what the picture is sent is never dropped")
        }
        control.requestSeek(.init(generation: 2, position: 0, pass: 0))
        control.condition.withLock { XCTAssertTrue(control.hasPictureUrgentRequest) }
    }
}
