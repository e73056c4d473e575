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
package final class SegmentPipe: Sendable {
    package enum ReadResult: Equatable, Sendable {
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
    private let guarded: WaitableState<State>

    private struct State {
        var storage: [UInt8]
        var head = 0
        var count = 0
        var written: Int64 = 0
        var read: Int64 = 0
        /// Stream positions of boundaries not yet reached by the reader, in order.
        var boundaries: [Int64] = []
        var ending: ReadResult?
        var interruptPending = false
        var closed = false

        /// Nothing to read, and nothing that ends the wait.
        var readerWaits: Bool { !closed && count == 0 && ending == nil && !interruptPending && boundaries.first != read }
    }

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        guarded = WaitableState(State(storage: [UInt8](repeating: 0, count: self.capacity)))
    }

    /// Bytes written and not yet read.
    package var buffered: Int { guarded.read { $0.count } }
    /// Every byte ever written: the stream position of the next byte to be written.
    package var totalWritten: Int64 { guarded.read { $0.written } }
    /// Every byte ever read: the stream position of the next byte to be read.
    package var totalRead: Int64 { guarded.read { $0.read } }

    /// Appends `bytes`, waiting for room (woken by the reader or `close()`). Returns false (nothing
    /// more written) once closed, and the seconds spent waiting for room (not network time).
    package func write(_ bytes: UnsafeRawBufferPointer) -> (written: Bool, waited: Double) {
        var waited = 0.0
        var offset = 0
        guard let source = bytes.baseAddress else { return (true, 0) }
        let capacity = capacity
        return guarded.withLock {
            while offset < bytes.count {
                if guarded.read({ $0.count == capacity }) {
                    let started = MonotonicCondition.now
                    guarded.waitLocked { !$0.closed && $0.count == capacity }
                    waited += MonotonicCondition.now - started
                }
                let run = guarded.changeLocked { state -> Int? in
                    guard !state.closed else { return nil }
                    let tail = (state.head + state.count) % capacity
                    let run = min(bytes.count - offset, capacity - state.count, capacity - tail)
                    state.storage.withUnsafeMutableBytes { destination in
                        (destination.baseAddress.map { $0 + tail })?.copyMemory(from: source + offset, byteCount: run)
                    }
                    state.count += run
                    state.written += Int64(run)
                    return run
                }
                guard let run else { return (false, waited) }
                offset += run
            }
            return (true, waited)
        }
    }

    /// Ends the current container here: bytes written from now on belong to the next one. Nothing
    /// happens at the very start or twice at one position.
    package func markBoundary() {
        guarded.change { state in
            guard state.written > 0, state.boundaries.last != state.written else { return }
            state.boundaries.append(state.written)
        }
    }

    /// Copies up to `maximum` bytes into `destination`, waiting until there are some, a boundary,
    /// the end, an interruption or `deadline` (monotonic seconds).
    package func read(into destination: UnsafeMutableRawPointer, maximum: Int, deadline: Double = .infinity) -> ReadResult {
        let capacity = capacity
        return guarded.withLock {
            guard guarded.waitLocked(until: deadline, while: { $0.readerWaits }) else { return .timedOut }
            return guarded.changeLocked { state in
                if state.closed { return .closed }
                if state.boundaries.first == state.read {
                    state.boundaries.removeFirst()
                    return .boundary
                }
                if state.count == 0, state.interruptPending {
                    state.interruptPending = false
                    return .interrupted
                }
                if state.count == 0, let ending = state.ending { return ending }
                let limit = state.boundaries.first.map { min(maximum, Int($0 - state.read)) } ?? maximum
                var copied = 0
                while copied < limit && state.count > 0 {
                    let run = min(limit - copied, state.count, capacity - state.head)
                    let head = state.head
                    state.storage.withUnsafeBytes { source in
                        if let start = source.baseAddress { (destination + copied).copyMemory(from: start + head, byteCount: run) }
                    }
                    state.head = (state.head + run) % capacity
                    state.count -= run
                    copied += run
                }
                state.read += Int64(copied)
                return .bytes(copied)
            }
        }
    }

    /// Wakes a reader waiting for bytes: it returns `.interrupted` (once) instead of waiting on.
    package func interruptRead() { guarded.change { $0.interruptPending = true } }

    /// No more bytes: `read` says `.end` once the buffered ones are read.
    package func finish() { end(with: .end) }

    /// The stream failed: `read` reports `error` once the buffered bytes are read.
    package func fail(_ error: HLSLoadError) { end(with: .failed(error)) }

    package func fail(_ error: FetchError) { fail(.fetch(error)) }

    /// Wakes both sides; every later call returns at once.
    package func close() { guarded.change { $0.closed = true } }

    private func end(with result: ReadResult) {
        guarded.change { state in
            if state.ending == nil { state.ending = result }
        }
    }
}
