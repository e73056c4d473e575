import Foundation
import LoopPlayerCore

/// A bounded byte FIFO from the segment-fetching thread to the demuxer's read callback.
///
/// `write` blocks while full and `read` while empty; `finish`/`fail` end the stream after the
/// bytes already in it; `close()` wakes both sides at once and makes every later call return.
/// Positions count every byte ever written, so a demuxer packet's `pos` maps to a segment.
///
/// A *boundary* (`markBoundary()`) splits the stream into containers: a read never crosses it and
/// returns `.boundary` once when it is reached, so a demuxer of the bytes before it sees an end and
/// a new one reads what follows (an fMP4 variant switch: a new init section and its fragments).
package final class SegmentPipe: @unchecked Sendable {  // every field guarded by `condition`
    package enum ReadResult: Equatable {
        case bytes(Int)
        /// The bytes read so far end a container; the next read starts the next one.
        case boundary
        case end
        case failed(HLSLoadError)
        /// `interruptRead()` was called while the reader waited (a seek wants the demuxer back).
        case interrupted
        /// Nothing arrived before the read's deadline (a backstop: the fetch thread gives up first).
        case timedOut
        case closed
    }

    package let capacity: Int
    private let condition = MonotonicCondition()
    private var storage: [UInt8]
    private var head = 0
    private var count = 0
    private var written: Int64 = 0
    private var read: Int64 = 0
    /// Stream positions of boundaries not yet reached by the reader, in order.
    private var boundaries: [Int64] = []
    private var ending: ReadResult?
    private var interruptPending = false
    private var closed = false

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = [UInt8](repeating: 0, count: self.capacity)
    }

    /// Bytes written and not yet read.
    package var buffered: Int { condition.withLock { count } }
    /// Every byte ever written: the stream position of the next byte to be written.
    package var totalWritten: Int64 { condition.withLock { written } }
    /// Every byte ever read: the stream position of the next byte to be read.
    package var totalRead: Int64 { condition.withLock { read } }

    /// Appends `bytes`, waiting for room (woken by the reader or `close()`). Returns false (nothing
    /// more written) once closed, and the seconds spent waiting for room (not network time).
    package func write(_ bytes: UnsafeRawBufferPointer) -> (written: Bool, waited: Double) {
        var waited = 0.0
        var offset = 0
        guard let source = bytes.baseAddress else { return (true, 0) }
        condition.lock()
        defer { condition.unlock() }
        while offset < bytes.count {
            if count == capacity {
                let started = MonotonicCondition.now
                while !closed && count == capacity { condition.wait() }
                waited += MonotonicCondition.now - started
            }
            guard !closed else { return (false, waited) }
            let tail = (head + count) % capacity
            let run = min(bytes.count - offset, capacity - count, capacity - tail)
            storage.withUnsafeMutableBytes { destination in
                (destination.baseAddress.map { $0 + tail })?.copyMemory(from: source + offset, byteCount: run)
            }
            count += run
            offset += run
            written += Int64(run)
            condition.broadcast()
        }
        return (true, waited)
    }

    /// Ends the current container here: bytes written from now on belong to the next one. Nothing
    /// happens at the very start or twice at one position.
    package func markBoundary() {
        condition.withLock {
            guard written > 0, boundaries.last != written else { return }
            boundaries.append(written)
            condition.broadcast()
        }
    }

    /// Copies up to `maximum` bytes into `destination`, waiting until there are some, a boundary,
    /// the end, an interruption or `deadline` (monotonic seconds).
    package func read(into destination: UnsafeMutableRawPointer, maximum: Int, deadline: Double = .infinity) -> ReadResult {
        condition.lock()
        defer { condition.unlock() }
        while !closed && count == 0 && ending == nil && !interruptPending && boundaries.first != read {
            if !condition.wait(until: deadline), MonotonicCondition.now >= deadline { return .timedOut }
        }
        if closed { return .closed }
        if boundaries.first == read {
            boundaries.removeFirst()
            return .boundary
        }
        if count == 0, interruptPending {
            interruptPending = false
            return .interrupted
        }
        if count == 0, let ending { return ending }
        let limit = boundaries.first.map { min(maximum, Int($0 - read)) } ?? maximum
        var copied = 0
        while copied < limit && count > 0 {
            let run = min(limit - copied, count, capacity - head)
            storage.withUnsafeBytes { source in
                if let start = source.baseAddress { (destination + copied).copyMemory(from: start + head, byteCount: run) }
            }
            head = (head + run) % capacity
            count -= run
            copied += run
        }
        read += Int64(copied)
        condition.broadcast()
        return .bytes(copied)
    }

    /// Wakes a reader waiting for bytes: it returns `.interrupted` (once) instead of waiting on.
    package func interruptRead() {
        condition.withLock {
            interruptPending = true
            condition.broadcast()
        }
    }

    /// No more bytes: `read` says `.end` once the buffered ones are read.
    package func finish() { end(with: .end) }

    /// The stream failed: `read` reports `error` once the buffered bytes are read.
    package func fail(_ error: HLSLoadError) { end(with: .failed(error)) }

    package func fail(_ error: FetchError) { fail(.fetch(error)) }

    /// Wakes both sides; every later call returns at once.
    package func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    private func end(with result: ReadResult) {
        condition.withLock {
            if ending == nil { ending = result }
            condition.broadcast()
        }
    }
}
