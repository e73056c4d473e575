import ArgumentParser
import Foundation
import LoopPlayer

/// When the run ends and what it leaves behind: a duration, passes, frames, a snapshot, statistics.
// Every option that takes a number parses `.unconditional`ly: `--duration -3` is a value, not an
// unknown flag, and the range checks in `validate()` say what is wrong with it.
struct RunArguments: ParsableArguments {
    @Flag(help: "Present every frame as soon as it is decoded (virtual clock).")
    var untimed = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop this many seconds after the start (whatever plays meanwhile).", valueName: "seconds"))
    var duration: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Play this many complete passes, then exit (implies --loop; with --loop-playlist, passes of the list).", valueName: "n"))
    var loops: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many frames have been shown.", valueName: "n"))
    var frames: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("MiB of decoded pictures a looping local file may keep, so that a loop which fits is decoded once and replayed (\(FrameCache.validRange.lowerBound)…\(FrameCache.validRange.upperBound); default 0, off).",
                               valueName: "MiB"))
    var frameCache: Int?

    @Flag(help: "Hold the last frame at the end instead of exiting; in a window, keep a failed source's error on screen until the window is closed (the exit code still says it failed).")
    var keepOpen = false

    @Option(help: ArgumentHelp("Write the frame shown at --snapshot-at as PNG (JPEG for .jpg/.jpeg; - for PNG on stdout), then exit.", valueName: "file"),
            completion: .file(extensions: ["png", "jpg", "jpeg"]))
    var snapshot: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Position in seconds for --snapshot.", valueName: "seconds"))
    var snapshotAt: Double = 0

    @Option(help: ArgumentHelp("Write statistics as one JSON object to FILE at exit (- for stdout).", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var statsJson: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Play the loop on a timeline shared by every player given the same epoch (a video wall): "
                               + "Unix seconds, an RFC 3339 time or now+S; implies --loop. Keep the machines' clocks "
                               + "in step with chrony or PTP (docs/sync.md).", valueName: "time"))
    var syncEpoch: String?

    /// `--sync-epoch` as Unix seconds (checked by `validate`).
    var syncEpochSeconds: Double? { syncEpoch.flatMap { try? SyncEpochArgument.parse($0) } }

    func validate() throws {
        if let statsJson, statsJson != "-" { try Loopplay.checkWritable(statsJson, flag: "--stats-json") }
        if let snapshot { try Self.checkSnapshotTarget(snapshot, stats: statsJson) }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds") }
        if let loops, loops < 1 { throw ValidationError("--loops must be at least 1") }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        guard snapshotAt >= 0, snapshotAt.isFinite else { throw ValidationError("--snapshot-at must be 0 or more seconds") }
        if let syncEpoch { _ = try SyncEpochArgument.parse(syncEpoch) }
        if let frameCache, !FrameCache.validRange.contains(frameCache) {
            throw ValidationError("--frame-cache must be \(FrameCache.validRange.lowerBound)…\(FrameCache.validRange.upperBound) MiB")
        }
    }

    /// A snapshot goes to a regular file (a FIFO would hold the end of the run until someone read
    /// it; a device or a socket is no picture file) or, for `-`, to stdout, which the statistics
    /// cannot share.
    private static func checkSnapshotTarget(_ path: String, stats: String?) throws {
        guard !path.isEmpty else { throw ValidationError("--snapshot needs a file name (or - for stdout)") }
        if path == "-" {
            if stats == "-" { throw ValidationError("--snapshot - and --stats-json - cannot both write to stdout: give one a file") }
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let kind: String? = switch status.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
        if let kind { throw ValidationError("--snapshot \(path) is \(kind): a snapshot is written to a regular file (or - for stdout)") }
    }

    var timing: ExtVideoPlayer.Timing { untimed ? .untimed : .realTime }

    /// The flags' limits (`--loops` counts an item's passes unless it counts the list's); the
    /// headless fallback is bounded when nothing else bounds it: one pass, or three when looping.
    /// `remote`: a remote control (IPC) is listening, so a failed source waits for its next
    /// `loadfile` or `quit` (as mpv's idle mode does) instead of ending the process.
    func stopCondition(fallback: Bool, headless: Bool, looping: Bool, countsListPasses: Bool, remote: Bool = false) -> StopCondition {
        // A window with --keep-open shows a failed source's error until it is closed.
        // A run bounded by what it must produce (a snapshot, N frames) never waits.
        let holdFailure = (keepOpen && !headless && !fallback) || (remote && snapshot == nil && frames == nil)
        var stop = StopCondition(duration: duration, frames: snapshot != nil ? 1 : frames, loops: countsListPasses ? nil : loops,
                                 exitAtEnd: !keepOpen || fallback, exitOnFailure: !holdFailure)
        if fallback && duration == nil && frames == nil && loops == nil && looping { stop.loops = 3 }
        return stop
    }
}
