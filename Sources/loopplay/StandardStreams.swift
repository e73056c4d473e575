import Foundation
import LoopPlayer

/// Writes to stdout and stderr with write(2), ignoring failures: a terminal that hung up (EIO after
/// SIGHUP) or a full disk must not end the player (Foundation's `FileHandle.write` traps on them).
enum StandardStreams {
    static func write(_ data: Data, to descriptor: Int32) {
        _ = writeAll(data, to: descriptor)
    }

    static func out(_ data: Data) { write(data, to: STDOUT_FILENO) }
    static func err(_ data: Data) { write(data, to: STDERR_FILENO) }

    /// loopplay runs on a terminal (its stderr is one), whose hang-up a SIGHUP reports; otherwise it
    /// runs as a service, where SIGHUP asks to reload (the config, a schedule) and reopen (the play log).
    static var onTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
