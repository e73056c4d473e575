@testable import LoopPlayer
import XCTest

/// Opening and stopping many times leaves no threads, memory or FFmpeg objects behind.
final class LifecycleTests: XCTestCase {
    func testHundredOpenStopCyclesLeaveNothingBehind() throws {
        let clip = try TestMedia.loopClip()
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: true, untimed: true, stop: StopCondition(frames: 3)))
        func cycle() {
            engine.load(.file(clip))
            XCTAssertEqual(engine.run(), .finished)
            engine.unload()
        }
        for _ in 0..<5 { cycle() }  // warm up allocator pools and lazily made FFmpeg tables
        let threadsBefore = ProcessUsage.threadCount
        let memoryBefore = ProcessUsage.currentRSSBytes
        for _ in 0..<100 { cycle() }
        XCTAssertEqual(ProcessUsage.threadCount, threadsBefore, "threads left behind")
        let growth = ProcessUsage.currentRSSBytes - memoryBefore
        XCTAssertLessThan(growth, 16 << 20, "resident memory grew by \(growth >> 20) MiB over 100 cycles")
    }

    func testStopWhileTheDecoderIsBlockedOnAFullQueue() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, looping: true, untimed: true))
        let threadsBefore = ProcessUsage.threadCount
        engine.load(.file(try TestMedia.loopClip()))
        XCTAssertEqual(engine.waitUntilReady(), .loading)
        usleep(200_000)  // nobody presents: the frame queue fills and both threads block
        engine.unload()
        XCTAssertEqual(ProcessUsage.threadCount, threadsBefore)
    }

    func testBoundedQueueCloseWakesABlockedProducer() {
        let queue = BoundedQueue<Int>(maxCount: 1)
        XCTAssertTrue(queue.push(1))
        let finished = expectation(description: "push returned")
        let thread = WorkerThread(name: "producer") {
            XCTAssertFalse(queue.push(2))  // blocks: full, then fails when closed
            finished.fulfill()
        }
        usleep(50_000)
        queue.close()
        wait(for: [finished], timeout: 2)
        thread.join()
        XCTAssertNil(queue.pop())
    }
}
