import Foundation
import LoopPlayer
import Synchronization

/// `--play-log FILE`: proof of play, one JSON line per play (`PlayRecord`), appended on a thread
/// of its own (a slow card never holds a frame). Each line is one `write` to a file opened with
/// `O_APPEND`, and the lines written together one `fdatasync`: a power cut or a `SIGKILL` loses at
/// most the lines being written, and a line torn that way (or by a full disk) is ended before the
/// next is appended, so every earlier line stays whole JSON. Past `sizeLimit` bytes the file is
/// renamed `FILE.1` (replacing it) and a new one begun; `reopen` (SIGUSR1, logrotate's `postrotate`)
/// opens the file at its name again.
final class PlayLog: Sendable {
    private struct Queue: ~Copyable {
        var lines: [Data] = []
        /// Lines not queued because `queueLimit` were waiting (a disk that cannot keep up).
        var dropped = 0
        var reopen = false
        var closing = false
    }

    /// What is handed to the writer at once.
    private struct Batch {
        var lines: [Data]
        var dropped: Int
        var reopen: Bool
    }

    /// Lines waiting at most: a play is seconds long, so this is a disk stalled for hours, not a burst.
    static let queueLimit = 4096

    let path: String
    private let sizeLimit: Int?
    private let queue = WaitableState(Queue())
    private let writer = Mutex<WorkerThread?>(nil)

    /// Opens `path` for appending (created 0644), or says why it cannot be.
    init(path: String, sizeLimit: Int?) throws(PlayerError) {
        self.path = path
        self.sizeLimit = sizeLimit
        var file = try OpenFile(path: path)
        let thread = WorkerThread(name: "lp-play-log") { [self] in
            while let batch = next() {
                if batch.reopen { file.reopen() }
                file.append(batch.lines, limit: sizeLimit)
                if batch.dropped > 0 {
                    StandardError.line("play log: \(batch.dropped) lines not written to \(path): the disk did not keep up")
                }
            }
            closeDescriptor(file.descriptor)
        }
        writer.withLock { $0 = thread }
    }

    /// Queues `record`'s line (from any thread).
    func append(_ record: PlayRecord) {
        guard var data = try? JSONSerialization.data(withJSONObject: record.jsonObject, options: [.sortedKeys]) else { return }
        data.append(0x0A)
        queue.change { queue in
            if queue.lines.count < Self.queueLimit { queue.lines.append(data) } else { queue.dropped += 1 }
        }
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

    /// What to write and whether to reopen first; nil once closing with nothing left.
    private func next() -> Batch? {
        queue.withLock {
            queue.waitLocked { $0.lines.isEmpty && !$0.reopen && !$0.closing }
            return queue.changeLocked { state -> Batch? in
                if state.lines.isEmpty, !state.reopen, state.closing { return nil }
                defer { (state.lines, state.dropped, state.reopen) = ([], 0, false) }
                return Batch(lines: state.lines, dropped: state.dropped, reopen: state.reopen)
            }
        }
    }

    /// The file being appended to, on the writer's thread.
    private struct OpenFile {
        let path: String
        var descriptor: Int32
        var size = 0
        /// A write failed or was cut short: the file's end is read again, and a torn line ended,
        /// before the next line.
        var mayBeTorn = true
        /// The failure last said on stderr (said again only when it changes).
        var failure: String?

        /// Whether the file could be opened for reading too: a torn last line is found by reading
        /// its last byte (a file loopplay may only write to is appended to unchecked).
        var readable: Bool

        init(path: String) throws(PlayerError) {
            self.path = path
            (descriptor, readable) = try Self.open(path)
        }

        private static func open(_ path: String) throws(PlayerError) -> (Int32, readable: Bool) {
            let flags = O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC
            var descriptor = Foundation.open(path, O_RDWR | flags, 0o644), readable = true
            if descriptor < 0, errno == EACCES {
                (descriptor, readable) = (Foundation.open(path, O_WRONLY | flags, 0o644), false)
            }
            guard descriptor >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                closeDescriptor(descriptor)
                throw .writeFailed(path: path, reason: "it is not a regular file")
            }
            return (descriptor, readable)
        }

        /// Appends `lines`, each one `write`, then one `fdatasync` for them all.
        mutating func append(_ lines: [Data], limit: Int?) {
            var wrote = false
            for line in lines {
                if let limit, size > 0, size + line.count > limit { rotate() }
                if mayBeTorn, !resynchronize() { continue }
                guard write(line) else {
                    mayBeTorn = true
                    continue
                }
                size += line.count
                wrote = true
            }
            guard wrote else { return }
            guard fdatasync(descriptor) == 0 else {
                say("play log: cannot flush \(path): \(String(cString: strerror(errno)))")
                return
            }
            if !mayBeTorn { failure = nil }
        }

        /// The file's size read again, and a last line cut short (a power cut, a full disk) ended, so
        /// the next one starts whole. False when that cannot be done now (the line waits no longer:
        /// it is not written, so it cannot merge with the torn one).
        private mutating func resynchronize() -> Bool {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return false }
            size = Int(info.st_size)
            if size > 0, readable {
                var last: UInt8 = 0
                guard pread(descriptor, &last, 1, off_t(size - 1)) == 1 else { return false }
                if last != 0x0A {
                    guard write(Data([0x0A])) else { return false }
                    size += 1
                }
            }
            mayBeTorn = false
            return true
        }

        /// `data` written whole, or the failure said.
        private mutating func write(_ data: Data) -> Bool {
            guard let failed = writeAll(data, to: descriptor) else { return true }
            say("play log: cannot write \(path): \(String(cString: strerror(failed)))")
            return false
        }

        /// Closes the file and opens the one at its name (the same or, after logrotate, a new one);
        /// false, writing on to the old one, when that cannot be opened.
        @discardableResult
        mutating func reopen() -> Bool {
            do {
                let (descriptor, readable) = try Self.open(path)
                closeDescriptor(self.descriptor)
                (self.descriptor, self.readable, mayBeTorn) = (descriptor, readable, true)
                return true
            } catch {
                say("play log: \(error.description) (reopening it); writing on to the old file")
                return false
            }
        }

        /// FILE becomes FILE.1 (an older FILE.1 goes), and a new FILE begins. When the new one
        /// cannot be opened, the name is given back, so the file written on is FILE again.
        private mutating func rotate() {
            guard rename(path, path + ".1") == 0 else {
                say("play log: cannot rotate \(path): \(String(cString: strerror(errno)))")
                return
            }
            if !reopen() { _ = rename(path + ".1", path) }
        }

        private mutating func say(_ message: String) {
            guard message != failure else { return }
            failure = message
            StandardError.line(message)
        }
    }
}

private func closeDescriptor(_ descriptor: Int32) { _ = Foundation.close(descriptor) }
