/// The current item's local file, replaced while it plays: its new content is queued once the file
/// has settled, and the current item holds its last frame until then. The engine says what it saw
/// (the pipeline's reports, the item changing) and performs what this decides (queue the new content
/// now, play it at once). Engine thread only.
final class FileReplacementWatch {
    /// The current item's replaced file, until the item changes (nil: not replaced).
    private(set) var pending: FileReplacement?
    /// On a virtual clock the file is taken as soon as it is seen (its time is not the file system's).
    private let virtualClock: Bool

    init(virtualClock: Bool) {
        self.virtualClock = virtualClock
    }

    /// The current item waits for its file's new content: its last frame holds meanwhile.
    var holdsLastFrame: Bool { pending != nil }

    /// The new content is queued: an error opening it is the current item's, not a playlist's.
    var isQueued: Bool { pending?.isQueued == true }

    /// The current item's pipeline failed on the old content: the new one takes over once queued.
    var takesOverAtOnce: Bool { pending?.pipelineFailed == true }

    /// The current item changed: what was seen of the last one's file is forgotten.
    func forget() { pending = nil }

    /// The current item's file at `location` was replaced (`pipelineFailed`: its pipeline failed on
    /// the old content, the new one takes over once queued); logged the first time.
    func noteReplaced(_ location: MediaLocation, pipelineFailed: Bool = false, now: Double) {
        if pending == nil, let replacement = FileReplacement(replacing: location, now: now, virtualClock: virtualClock) {
            pending = replacement
            logger.notice("\(replacement.path): the file was replaced; its new content follows")
        }
        if pipelineFailed { pending?.pipelineFailed = true }
    }

    /// Whether the new content should be queued now (the file has settled); called while nothing
    /// is queued, it remembers what it saw of the file.
    func isDue(now: Double) -> Bool {
        guard var replacement = pending else { return false }
        let due = replacement.isReady(now: now)
        pending = replacement
        return due
    }

    /// The new content is queued.
    func queued() { pending?.isQueued = true }

    /// The new content failed to open: it is tried again once the file changes again.
    func queueFailed() { pending?.queuedFailed() }

    /// When to look at the file again: four times a second until its new content is queued (never
    /// on a virtual clock: it is looked at every iteration).
    func nextCheck(now: Double) -> Double? {
        guard let pending, !pending.isQueued, !virtualClock else { return nil }
        return now + 0.25
    }
}
