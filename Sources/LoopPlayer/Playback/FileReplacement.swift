/// A looping local file replaced while it plays, waiting for its new content to be queued: a copy
/// in progress must not be opened half-written, so the new file is taken once it has stayed the same
/// for `settleTime`; a version that failed to open is not tried again until the file changes again
/// (content updates that fix it just work). Engine thread only.
struct FileReplacement {
    let path: String
    /// Seconds the file must stay unchanged before it is opened (0 on a virtual clock: its time
    /// is not the file system's).
    let settleTime: Double
    /// The file as last seen, and since when (real clock).
    private(set) var seen: FileIdentity?
    private(set) var seenSince: Double
    /// The version whose open failed.
    private(set) var failed: FileIdentity?
    /// A replacement is queued now (opened, decoding its first frames).
    var isQueued = false
    /// The item's pipeline ended on a failure (the old content, copied over): the new content
    /// takes over as soon as it is queued instead of at the item's end.
    var pipelineFailed = false

    static let settleTime = 1.0

    /// The replacement of the local file `location` plays (nil: no file), seen at `now`.
    init?(replacing location: MediaLocation, now: Double, virtualClock: Bool) {
        guard case let .file(path) = location else { return nil }
        self.init(path: path, now: now, settleTime: virtualClock ? 0 : Self.settleTime)
    }

    init(path: String, now: Double, settleTime: Double = FileReplacement.settleTime) {
        self.path = path
        self.settleTime = settleTime
        seen = FileIdentity.of(path)
        seenSince = now
    }

    /// Whether the new content should be queued now: the file has stayed as it is for `settleTime`
    /// and is not the version that failed.
    mutating func isReady(now: Double) -> Bool {
        guard !isQueued else { return false }
        let current = FileIdentity.of(path)
        if current != seen {
            seen = current
            seenSince = now
        }
        guard current != nil, current != failed else { return false }
        return now - seenSince >= settleTime
    }

    /// The queued version failed to open: wait for another.
    mutating func queuedFailed() {
        isQueued = false
        failed = seen
    }
}
