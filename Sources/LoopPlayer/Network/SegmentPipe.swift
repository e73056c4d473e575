import Foundation

/// A bounded byte FIFO from the segment-fetching thread to the demuxer's read callback.
///
/// `write` blocks while full and `read` while empty; `finish`/`fail` end the stream after the
/// bytes already in it; `close()` wakes both sides at once and makes every later call return.
/// Positions count every byte ever written, so a demuxer packet's `pos` maps to a segment.
final class SegmentPipe: @unchecked Sendable {
    enum ReadResult: Equatable {
        case bytes(Int)
        case end
        case failed(FetchError)
        case closed
    }

    let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var storage: [UInt8]
    private var head = 0
    private var count = 0
    private var written: Int64 = 0
    private var ending: ReadResult?
    private var closed = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = [UInt8](repeating: 0, count: self.capacity)
    }

    /// Bytes written and not yet read.
    var buffered: Int { condition.withLock { count } }
    /// Every byte ever written: the stream position of the next byte to be written.
    var totalWritten: Int64 { condition.withLock { written } }

    /// Appends `bytes`, waiting for room. Returns false (nothing more written) once closed, and
    /// the seconds spent waiting for room (not network time).
    func write(_ bytes: UnsafeRawBufferPointer) -> (written: Bool, waited: Double) {
        var waited = 0.0
        var offset = 0
        guard let source = bytes.baseAddress else { return (true, 0) }
        condition.lock()
        defer { condition.unlock() }
        while offset < bytes.count {
            if count == capacity {
                let started = NetworkWatch.now()
                while !closed && count == capacity { condition.wait() }
                waited += Double(NetworkWatch.now() - started) / 1e9
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

    /// Copies up to `maximum` bytes into `destination`, waiting until there are some.
    func read(into destination: UnsafeMutableRawPointer, maximum: Int) -> ReadResult {
        condition.lock()
        defer { condition.unlock() }
        while !closed && count == 0 && ending == nil { condition.wait() }
        if closed { return .closed }
        if count == 0, let ending { return ending }
        var copied = 0
        while copied < maximum && count > 0 {
            let run = min(maximum - copied, count, capacity - head)
            storage.withUnsafeBytes { source in
                if let start = source.baseAddress { (destination + copied).copyMemory(from: start + head, byteCount: run) }
            }
            head = (head + run) % capacity
            count -= run
            copied += run
        }
        condition.broadcast()
        return .bytes(copied)
    }

    /// No more bytes: `read` says `.end` once the buffered ones are read.
    func finish() { end(with: .end) }

    /// The stream failed: `read` reports `error` once the buffered bytes are read.
    func fail(_ error: FetchError) { end(with: .failed(error)) }

    /// Wakes both sides; every later call returns at once.
    func close() {
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
