import Foundation

/// Writes to stdout and stderr with write(2), ignoring failures: a terminal that hung up (EIO after
/// SIGHUP) or a full disk must not end the player (Foundation's `FileHandle.write` traps on them).
enum StandardStreams {
    static func write(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let written = Glibc.write(descriptor, pointer, left)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                pointer += written
                left -= written
            }
        }
    }

    static func out(_ data: Data) { write(data, to: STDOUT_FILENO) }
    static func err(_ data: Data) { write(data, to: STDERR_FILENO) }
}
