/// The snapshots being written on their own threads (the snapshot key, `screenshot-to-file`, a
/// server's `SnapshotRequest`): converting and encoding a 1080p PNG takes long enough to drop frames,
/// so each is made off the engine's thread from a scene on screen (frames and planes are immutable).
/// At most `maximum` are made at once (each holds a whole picture): one asked for beyond them is
/// refused, so a remote control's loop or a polling client cannot pile them up. No writer waits on a
/// reader: a FIFO or a device is refused (`Snapshot.writeFile`). Engine thread only.
final class SnapshotWriters {
    static let maximum = 2

    /// Each writer with the flag it raises when its picture is made.
    private var writers: [(thread: WorkerThread, done: AbortFlag)] = []

    /// Starts writing `scene` in `area` at `path`; `done` is called once on the writer's thread, with
    /// nil when the file is written. Returns the refusal instead when `maximum` are being made
    /// (then `done` is not called).
    func write(_ scene: Scene, area: PixelSize, content: SnapshotContent, to path: String,
               done: (@Sendable (PlayerError?) -> Void)?) -> PlayerError? {
        start(refusing: path) {
            var failure: PlayerError?
            do throws(PlayerError) {
                try Snapshot.write(try Snapshot.image(of: scene, area: area, content: content), to: path)
                logger.notice("snapshot written to \(path)")
            } catch {
                logger.error("\(error.description)")
                failure = error
            }
            let result = failure
            return { done?(result) }
        }
    }

    /// Starts encoding `scene` in `area` for `request`, delivered on the writer's thread. Returns the
    /// refusal instead when `maximum` are being made (then nothing is delivered).
    func encode(_ scene: Scene, area: PixelSize, for request: SnapshotRequest) -> PlayerError? {
        start(refusing: "a picture for a server") {
            guard !request.abandoned.isRaised else { return {} }
            let result = Result { () throws(PlayerError) in try request.picture(of: scene, area: area) }
            return { request.deliver(result.mapError(SnapshotRequest.Failure.failed)) }
        }
    }

    /// Runs `make` on a thread of its own, then what it returns once its place is free again (so a
    /// client asking for the next picture the moment it has one is not refused).
    private func start(refusing what: String, _ make: @escaping @Sendable () -> @Sendable () -> Void) -> PlayerError? {
        writers.removeAll { writer in
            guard writer.done.isRaised else { return false }
            writer.thread.join()
            return true
        }
        guard writers.count < Self.maximum else {
            return .invalidSetting(name: "screenshot", value: what, reason: "\(Self.maximum) snapshots are being made; try again")
        }
        let finished = AbortFlag()
        writers.append((WorkerThread(name: "lp-snapshot") {
            let tell = make()
            finished.raise()
            tell()
        }, finished))
        return nil
    }

    /// Waits for every picture being made (the engine closes).
    func joinAll() {
        writers.forEach { $0.thread.join() }
        writers.removeAll()
    }
}
