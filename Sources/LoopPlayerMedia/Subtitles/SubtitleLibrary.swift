import Synchronization
import LoopPlayerCore

/// Every subtitle track of a source and the cues read so far, in the time of one pass (seconds from
/// the start of the pass): the sound stage's and the picture stage's counterpart for subtitles. The
/// subtitle stage adds cues as the demuxer reads them; the engine reads those of the track it shows.
/// A cue read again in a later pass is the same cue (its identity ignores FFmpeg's read order), so
/// cues repeat exactly in every pass without being added again.
package final class SubtitleLibrary: Sendable {
    package struct Track: Sendable {
        package var track: SubtitleTrack
        /// The ASS header its text cues are rendered with (nil: SRT-like text, our readable style).
        package var header: String?
        /// Cues in the order they were read, each numbered (numbers never repeat, even after the
        /// oldest cues are dropped), so a reader keeps its place with a number.
        package var cues: [(number: Int, cue: SubtitleCue)] = []
        fileprivate var nextNumber = 0
        fileprivate var keys: Set<CueKey> = []
        fileprivate var bitmapBytes = 0
    }

    /// Cues kept per track; bitmap pixels kept per track (oldest dropped first: read again next pass).
    fileprivate static let cueLimit = 20_000
    fileprivate static let bitmapByteLimit = 64 << 20

    private let state = Mutex<[Track]>([])
    /// External files still loading (the subtitle stage counts them down).
    private let filesLoading = Mutex(0)
    private let settled = MonotonicCondition()

    /// `count` external files will be loaded.
    package func expectFiles(_ count: Int) { filesLoading.withLock { $0 = count } }

    /// An external file loaded or failed.
    package func fileSettled() {
        settled.withLock {
            filesLoading.withLock { $0 = max(0, $0 - 1) }
            settled.broadcast()
        }
    }

    /// Every external file loaded or failed.
    package var filesSettled: Bool { filesLoading.withLock { $0 == 0 } }

    /// Waits until every external file loaded or failed, at most until `deadline` (monotonic).
    package func waitForFiles(deadline: Double) {
        settled.withLock {
            while filesLoading.withLock({ $0 }) > 0 && MonotonicCondition.now < deadline { settled.wait(until: deadline) }
        }
    }

    package var tracks: [SubtitleTrack] { state.withLock { $0.map(\.track) } }

    /// Adds a track (embedded streams at open, external files when loaded). Returns its index.
    @discardableResult
    package func add(_ track: SubtitleTrack, header: String?, cues: [SubtitleCue] = []) -> Int {
        state.withLock { tracks in
            var entry = Track(track: track, header: header)
            entry.track.number = tracks.count
            for cue in cues { Self.insert(cue, into: &entry) }
            tracks.append(entry)
            return tracks.count - 1
        }
    }

    /// Adds cues to track `index` (duplicates are ignored; an open end is closed by the next cue).
    package func append(_ cues: [SubtitleCue], toTrack index: Int) {
        guard !cues.isEmpty else { return }
        state.withLock { tracks in
            guard tracks.indices.contains(index) else { return }
            for cue in cues { Self.insert(cue, into: &tracks[index]) }
        }
    }

    /// Track `index` with its cues numbered `from` and later (a reader keeps the next number).
    package func read(track index: Int, from: Int) -> (track: SubtitleTrack, header: String?, cues: [(number: Int, cue: SubtitleCue)])? {
        state.withLock { tracks in
            guard tracks.indices.contains(index) else { return nil }
            let entry = tracks[index]
            let first = entry.cues.firstIndex { $0.number >= from } ?? entry.cues.endIndex
            return (entry.track, entry.header, Array(entry.cues[first...]))
        }
    }

    package var trackCount: Int { state.withLock { $0.count } }

    private static func insert(_ cue: SubtitleCue, into track: inout Track) {
        guard cue.start.isFinite else { return }
        if let last = track.cues.indices.last, track.cues[last].cue.end == .infinity,
           cue.start >= track.cues[last].cue.start {
            // Closing an open end changes the cue: it is numbered anew so readers see it again.
            let closed = track.cues.remove(at: last).cue.closingOpenEnd(at: cue.start)
            track.cues.append((track.nextNumber, closed))
            track.nextNumber += 1
        }
        guard !cue.isEmpty, track.keys.insert(CueKey(cue)).inserted else { return }
        track.cues.append((track.nextNumber, cue))
        track.nextNumber += 1
        track.bitmapBytes += cue.bitmapBytes
        while track.cues.count > cueLimit || track.bitmapBytes > bitmapByteLimit, track.cues.count > 1 {
            let dropped = track.cues.removeFirst().cue
            track.keys.remove(CueKey(dropped))
            track.bitmapBytes -= dropped.bitmapBytes
        }
    }

    package init() {}
}

/// A cue's identity: its times and content, without the read order FFmpeg numbers text events
/// with (it grows each pass).
private struct CueKey: Hashable {
    let start: Int64
    let end: Int64
    let content: Int

    init(_ cue: SubtitleCue) {
        start = Int64((cue.start * 1000).rounded())
        end = cue.end.isFinite ? Int64((cue.end * 1000).rounded()) : -1
        var hasher = Hasher()
        switch cue.content {
        case let .text(event):
            hasher.combine(event.drop { $0 != "," })
        case let .bitmap(bitmaps, canvas):
            hasher.combine(canvas.width)
            hasher.combine(canvas.height)
            for bitmap in bitmaps {
                hasher.combine(bitmap.x)
                hasher.combine(bitmap.y)
                hasher.combine(bitmap.width)
                hasher.combine(bitmap.height)
                hasher.combine(bitmap.pixels.count)
            }
        }
        content = hasher.finalize()
    }
}

extension SubtitleCue {
    fileprivate var bitmapBytes: Int {
        if case let .bitmap(bitmaps, _) = content { return bitmaps.reduce(0) { $0 + $1.pixels.count } }
        return 0
    }
}
