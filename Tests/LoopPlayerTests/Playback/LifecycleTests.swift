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
        let threadsBefore = ownThreadNames()
        let memoryBefore = ProcessUsage.currentRSSBytes
        for _ in 0..<100 { cycle() }
        guard !Sanitizer.isActive else { return }  // quarantined memory, the sanitizer's own thread
        XCTAssertEqual(ownThreadNames(), threadsBefore, "threads left behind")
        let growth = ProcessUsage.currentRSSBytes - memoryBefore
        XCTAssertLessThan(growth, 16 << 20, "resident memory grew by \(growth >> 20) MiB over 100 cycles")
    }

    /// With sound: the audio thread, the SDL device and its thread go away with every source, also
    /// when stopped while paused (the audio thread blocked on a full ring) and mid-seek.
    func testOpenStopCyclesWithSoundLeaveNothingBehind() throws {
        let clip = try AudioTestMedia.sine()
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: true, stop: StopCondition(frames: 3),
            audio: AudioOptions(driver: "disk", device: "/dev/null")))
        func cycle(_ index: Int) {
            engine.load(.file(clip))
            XCTAssertEqual(engine.run(), .finished)
            XCTAssertNotNil(engine.statistics.audioDevice)
            if index % 3 == 1 {
                engine.setPaused(true)
                _ = waitUntilBlocked(threadsNamed: "lp-adecode")  // the ring fills, the writer blocks
            }
            if index % 3 == 2 { engine.seek(to: 1) }
            engine.unload()
            engine.setPaused(false)  // a pause outlives the source: the next one would wait for `play`
        }
        // Warm-up: the allocator's per-thread arenas and SDL's buffers settle after about 12 sources
        // (measured: +10 MiB over the first 12, +1.6 MiB over the next 48).
        for index in 0..<12 { cycle(index) }
        let threadsBefore = ownThreadNames()
        // Two stretches of 24: a leak grows both; the allocator settling now and then (a new arena,
        // SDL's buffers: up to 4.5 MiB seen once in ten runs) grows one.
        var growths: [Int] = []
        for _ in 0..<2 {
            let memoryBefore = ProcessUsage.currentRSSBytes
            for index in 0..<24 { cycle(index) }
            growths.append(ProcessUsage.currentRSSBytes - memoryBefore)
        }
        XCTAssertEqual(ownThreadNames(), threadsBefore, "threads left behind")
        guard !Sanitizer.isActive else { return }  // AddressSanitizer's quarantine holds freed memory
        XCTAssertLessThan(growths.min() ?? 0, 4 << 20, "resident memory grew by \(growths.map { $0 >> 10 }) KiB over two stretches of 24 cycles")
    }

    func testStopWhileTheDecoderIsBlockedOnAFullQueue() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, looping: true, untimed: true))
        let threadsBefore = ownThreadNames()
        engine.load(.file(try TestMedia.loopClip()))
        XCTAssertEqual(engine.waitUntilReady(), .loading)
        // Nobody presents: the frame queue fills and both threads block.
        XCTAssertTrue(waitFor(timeout: 10) {
            guard let frames = engine.item?.pipeline.frames, frames.count == frames.maxCount else { return false }
            return areBlocked(threadsNamed: "lp-vdecode") && areBlocked(threadsNamed: "lp-demux")
        }, "the decoder and the demuxer block")
        engine.unload()
        if !Sanitizer.isActive { XCTAssertEqual(ownThreadNames(), threadsBefore) }  // ThreadSanitizer adds one
    }

    func testBoundedQueueCloseWakesABlockedProducer() {
        let queue = BoundedQueue<Int>(maxCount: 1)
        XCTAssertEqual(queue.push(1), .queued)
        let finished = expectation(description: "push returned")
        let thread = WorkerThread(name: "producer") {
            XCTAssertEqual(queue.push(2), .closed)  // blocks: full, then fails when closed
            finished.fulfill()
        }
        XCTAssertTrue(waitUntilBlocked(threadsNamed: "producer"), "the producer waits for room")
        queue.close()
        wait(for: [finished], timeout: 2)
        thread.join()
        XCTAssertNil(queue.pop())
    }
}

/// The names of this process's threads (`/proc/self/task/*/comm`) without libdispatch's workers,
/// which Foundation starts and retires on its own schedule (a bare count is flaky: a worker left by
/// an earlier test may retire in the middle of the next one).
func ownThreadNames() -> [String] {
    func name(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
    // The player names its threads (`lp-…`; FFmpeg's and SDL's carry their creator's name or their
    // own); a thread with the process's name belongs to the test harness or Foundation, which start
    // and retire theirs whenever they like.
    let process = name("/proc/self/comm")
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { name("/proc/self/task/\($0)/comm") }
        .filter { $0 != process && !$0.contains("qos") }.sorted()
}
