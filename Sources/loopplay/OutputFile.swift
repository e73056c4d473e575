import Foundation
import LoopPlayer

/// Writes what the run leaves behind (`--stats-json`, `--snapshot -`) to a file or, for `-`, to
/// stdout, and says why when it could not: `cannot write /dev/full: No space left on device`.
/// A FIFO is opened as it is (a reader may be waiting on it); `SignalWatch.exitOnNextSignal` keeps a
/// signal ending the process while it waits for one.
enum OutputFile {
    /// Throws `writeFailed` (its path `stdout` for `-`).
    static func write(_ data: Data, to path: String) throws(PlayerError) {
        func failure(_ code: Int32) -> PlayerError {
            .writeFailed(path: path == "-" ? "stdout" : path, reason: String(cString: strerror(code)))
        }
        let descriptor = path == "-" ? STDOUT_FILENO : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(errno) }
        let failed = writeAll(data, to: descriptor)
        if descriptor == STDOUT_FILENO {
            if let failed { throw failure(failed) }
            return
        }
        // A network file system may say only here that the data did not make it.
        let closed = close(descriptor) == 0 ? nil : errno
        if let failed = failed ?? closed { throw failure(failed) }
    }
}
