import Foundation
import LoopPlayer
import Synchronization

/// `--play-log FILE`: proof of play, one JSON line per play (`PlayRecord`), appended on a thread
/// of its own (a slow card never holds a frame). Each line is one `write` to a file opened with
/// `O_APPEND`, then `fdatasync`: a power cut or a `SIGKILL` loses at most the line being written,
/// and a line torn that way is ended before the next is appended, so every earlier line stays
/// whole JSON. Past `sizeLimit` bytes the file is renamed `FILE.1` (replacing it) and a new one
/// begun; SIGHUP reopens it (logrotate's `postrotate`).
final class PlayLog: Sendable {
    private struct Queue: ~Copyable {
        var lines: [Data] = []
        var reopen = false
        var closing = false
    }

    let path: String
    private let sizeLimit: Int?
    private let queue = WaitableState(Queue())
    private let writer = Mutex<WorkerThread?>(nil)

    /// Opens `path` for appending (created 0644), or says why it cannot be.
    init(path: String, sizeLimit: Int?) throws(PlayerError) {
        self.path = path
        self.sizeLimit = sizeLimit
        var file = try Self.open(path)
        let thread = WorkerThread(name: "lp-play-log") { [self] in
            while let batch = next() {
                if batch.reopen { file.reopen(path) }
                for line in batch.lines { file.append(line, limit: sizeLimit, path: path) }
            }
            closeDescriptor(file.descriptor)
        }
        writer.withLock { $0 = thread }
    }

    /// Queues `record`'s line (from any thread).
    func append(_ record: PlayRecord) {
        guard var data = try? JSONSerialization.data(withJSONObject: record.jsonObject, options: [.sortedKeys]) else { return }
        data.append(0x0A)
        queue.change { $0.lines.append(data) }
    }

    /// Closes and opens the file again at its name (after logrotate moved it).
    func reopen() { queue.change { $0.reopen = true } }

    /// Writes what is queued and closes the file.
    func close() {
        queue.change { $0.closing = true }
        writer.withLock { thread in
            defer { thread = nil }
            return thread
        }?.join()
    }

    /// The lines to write and whether to reopen first; nil once closing with nothing left.
    private func next() -> (lines: [Data], reopen: Bool)? {
        queue.withLock {
            queue.waitLocked { $0.lines.isEmpty && !$0.reopen && !$0.closing }
            return queue.changeLocked { state -> (lines: [Data], reopen: Bool)? in
                if state.lines.isEmpty, !state.reopen, state.closing { return nil }
                defer { (state.lines, state.reopen) = ([], false) }
                return (state.lines, state.reopen)
            }
        }
    }

    private static func open(_ path: String) throws(PlayerError) -> OpenFile {
        let descriptor = Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            closeDescriptor(descriptor)
            throw .writeFailed(path: path, reason: "it is not a regular file")
        }
        var file = OpenFile(descriptor: descriptor, size: Int(info.st_size))
        file.endTornLine(path)
        return file
    }

    /// The file being appended to, on the writer's thread.
    private struct OpenFile {
        var descriptor: Int32
        var size: Int
        /// The failure last said on stderr (said again only when it changes).
        var failure: String?

        /// A last line cut short (a power cut mid-write) is ended, so the next one starts whole.
        mutating func endTornLine(_ path: String) {
            guard size > 0 else { return }
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, off_t(size - 1)) == 1, last != 0x0A { append(Data([0x0A]), limit: nil, path: path) }
        }

        mutating func append(_ line: Data, limit: Int?, path: String) {
            if let limit, size > 0, size + line.count > limit { rotate(path) }
            if let failed = writeAll(line, to: descriptor) {
                say("play log: cannot write \(path): \(String(cString: strerror(failed)))")
                return
            }
            size += line.count
            if fdatasync(descriptor) != 0 { say("play log: cannot flush \(path): \(String(cString: strerror(errno)))") }
            failure = nil
        }

        mutating func reopen(_ path: String) {
            let descriptor = Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                say("play log: cannot reopen \(path): \(String(cString: strerror(errno))); writing on to the old file")
                return
            }
            closeDescriptor(self.descriptor)
            var info = stat()
            (self.descriptor, size) = (descriptor, fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0)
            endTornLine(path)
        }

        /// FILE becomes FILE.1 (an older FILE.1 goes), and a new FILE begins.
        private mutating func rotate(_ path: String) {
            guard rename(path, path + ".1") == 0 else {
                say("play log: cannot rotate \(path): \(String(cString: strerror(errno)))")
                return
            }
            reopen(path)
        }

        private mutating func say(_ message: String) {
            guard message != failure else { return }
            failure = message
            StandardError.line(message)
        }
    }
}

private func closeDescriptor(_ descriptor: Int32) { _ = Foundation.close(descriptor) }
