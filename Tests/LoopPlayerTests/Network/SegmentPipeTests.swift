import Foundation
@testable import LoopPlayer
import XCTest

/// The bounded byte pipe between the fetch thread and the demuxer.
final class SegmentPipeTests: XCTestCase {
    private func read(_ pipe: SegmentPipe, _ maximum: Int) -> (SegmentPipe.ReadResult, [UInt8]) { Self.read(pipe, maximum) }

    private static func read(_ pipe: SegmentPipe, _ maximum: Int) -> (SegmentPipe.ReadResult, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let result = buffer.withUnsafeMutableBytes { pipe.read(into: $0.baseAddress!, maximum: maximum) }
        if case let .bytes(count) = result { return (result, Array(buffer.prefix(count))) }
        return (result, [])
    }

    func testBytesInOrderAcrossTheRingEdge() {
        let pipe = SegmentPipe(capacity: 10)
        _ = [UInt8](0..<7).withUnsafeBytes { pipe.write($0) }
        XCTAssertEqual(read(pipe, 5).1, [0, 1, 2, 3, 4])
        _ = [UInt8](7..<15).withUnsafeBytes { pipe.write($0) }   // wraps around
        XCTAssertEqual(pipe.buffered, 10)
        XCTAssertEqual(read(pipe, 100).1, Array(5..<15))
        XCTAssertEqual(pipe.totalWritten, 15)
        pipe.finish()
        XCTAssertEqual(read(pipe, 10).0, .end)
    }

    /// A full pipe holds the writer until the reader makes room, and says how long it waited.
    func testWriterWaitsForTheReader() {
        let pipe = SegmentPipe(capacity: 4)
        let finished = ThreadResult<Double>()
        let writer = WorkerThread(name: "lp-test-writer") {
            let result = [UInt8](0..<12).withUnsafeBytes { pipe.write($0) }
            finished.set(result.waited)
        }
        defer { pipe.close(); writer.join() }  // closing wakes a writer still waiting
        XCTAssertTrue(waitUntilBlocked(threadsNamed: "lp-test-writer"), "the writer waits for room")
        let heldSince = MonotonicCondition.now  // it was held from before this moment…
        XCTAssertEqual(pipe.buffered, 4, "stopped at the capacity")
        XCTAssertNil(finished.wait(timeout: 0.05))
        let heldFor = MonotonicCondition.now - heldSince  // …until after this long, when the reader makes room
        var seen: [UInt8] = []
        let deadline = Date().addingTimeInterval(5)
        while seen.count < 12 && Date() < deadline { seen += read(pipe, 3).1 }
        XCTAssertEqual(seen, Array(0..<12))
        XCTAssertGreaterThanOrEqual(finished.wait(timeout: 2) ?? 0, heldFor, "it says how long it waited")
    }

    func testFailureAfterTheBufferedBytesAndClose() {
        let pipe = SegmentPipe(capacity: 8)
        _ = [UInt8](1...3).withUnsafeBytes { pipe.write($0) }
        let error = FetchError.httpStatus(url: "http://x/a.ts", status: .notFound)
        pipe.fail(error)
        XCTAssertEqual(read(pipe, 8).1, [1, 2, 3], "what arrived is still read")
        XCTAssertEqual(read(pipe, 8).0, .failed(.fetch(error)))
        // close() wakes a blocked reader at once.
        let other = SegmentPipe(capacity: 8)
        let woke = ThreadResult<SegmentPipe.ReadResult>()
        let reader = WorkerThread(name: "lp-test-blocked") { woke.set(SegmentPipeTests.read(other, 8).0) }
        XCTAssertTrue(waitUntilBlocked(threadsNamed: "lp-test-blocked"), "the reader waits for bytes")
        other.close()
        reader.join()
        XCTAssertEqual(woke.wait(timeout: 2), .closed)
        XCTAssertFalse(Self.write([1, 2, 3], to: other).written, "a closed pipe takes nothing")
    }

    private static func write(_ bytes: [UInt8], to pipe: SegmentPipe) -> (written: Bool, waited: Double) {
        bytes.withUnsafeBytes { pipe.write($0) }
    }
}
