/// The snapshots being written on their own threads (the snapshot key, `screenshot-to-file`):
/// converting and encoding a 1080p PNG takes long enough to drop frames, so each is written off the
/// engine's thread from a scene on screen (frames and planes are immutable). At most `maximum`
/// write at once (each holds a whole picture): one asked for beyond them is refused, so a remote
/// control's loop cannot pile them up. No writer waits on a reader: a FIFO or a device is refused
/// (`Snapshot.writeFile`). Engine thread only.
final class SnapshotWriters {
    static let maximum = 2

    /// Each writer with the flag it raises when its file is written.
    private var writers: [(thread: WorkerThread, done: AbortFlag)] = []

    /// Starts writing `scene` in `area` at `path`; `done` is called once on the writer's thread, with
    /// nil when the file is written. Returns the refusal instead when `maximum` are being written
    /// (then `done` is not called).
    func write(_ scene: Scene, area: PixelSize, content: SnapshotContent, to path: String,
               done: (@Sendable (PlayerError?) -> Void)?) -> PlayerError? {
        writers.removeAll { writer in
            guard writer.done.isRaised else { return false }
            writer.thread.join()
            return true
        }
        guard writers.count < Self.maximum else {
            return .invalidSetting(name: "screenshot", value: path, reason: "\(Self.maximum) snapshots are being written; try again")
        }
        let finished = AbortFlag()
        writers.append((WorkerThread(name: "lp-snapshot") {
            var failure: PlayerError?
            do throws(PlayerError) {
                try Snapshot.write(try Snapshot.image(of: scene, area: area, content: content), to: path)
                logger.notice("snapshot written to \(path)")
            } catch {
                logger.error("\(error.description)")
                failure = error
            }
            finished.raise()
            done?(failure)
        }, finished))
        return nil
    }

    /// Waits for every file being written (the engine closes).
    func joinAll() {
        writers.forEach { $0.thread.join() }
        writers.removeAll()
    }
}
