import Foundation

/// One play of an item, for proof of play (`PlayerEvent.played`; `loopplay --play-log`): a pass
/// of a looping file, an item of a playlist or a schedule's entry from its first picture to its
/// end, with the frames shown and how it ended.
public struct PlayRecord: Sendable, Equatable {
    /// How a play ended.
    public enum Ending: String, Sendable, CaseIterable {
        /// The pass played to its end (a loop wrapped, or the item ended).
        case completedPass
        /// Another item took over before the end (a playlist's next, a schedule's change, a new source).
        case switched
        /// The player stopped (quit, a signal, the end of the run) before the end.
        case interrupted
        /// The item failed while it played (`error` says why).
        case failed
    }

    /// The source as given (a path or a URL).
    public var source: String
    /// The schedule's entry the item played for (nil without a schedule).
    public var scheduleEntry: String?
    /// The item's place in the playlist (nil for a single source).
    public var playlistIndex: Int?
    /// The wall-clock times of its first picture and of its end.
    public var started, ended: Date
    /// Frames shown, and frames skipped as late, during the play.
    public var framesShown, framesDropped: Int
    public var ending: Ending
    /// With `.failed`: the error's text.
    public var error: String?
}

/// Keeps the play going on and closes it into a `PlayRecord` (pure: told the times and counts).
package struct PlayLedger {
    /// What a play began with.
    package struct Opening: Sendable, Equatable {
        package var source: String
        package var scheduleEntry: String?
        package var playlistIndex: Int?

        package init(source: String, scheduleEntry: String?, playlistIndex: Int?) {
            self.source = source
            self.scheduleEntry = scheduleEntry
            self.playlistIndex = playlistIndex
        }
    }

    private var open: (opening: Opening, started: Date, shown: Int, dropped: Int)?

    package init() {}

    package var isOpen: Bool { open != nil }

    /// A play begins now (one open is closed first as `switched`, returned).
    package mutating func begin(_ opening: Opening, at now: Date, shown: Int, dropped: Int) -> PlayRecord? {
        let closed = end(.switched, at: now, shown: shown, dropped: dropped)
        open = (opening, now, shown, dropped)
        return closed
    }

    /// The play going on ends now, if one is; `shown`, `dropped`: the run's counts so far.
    package mutating func end(_ ending: PlayRecord.Ending, at now: Date, shown: Int, dropped: Int,
                              error: String? = nil) -> PlayRecord? {
        guard let open else { return nil }
        self.open = nil
        return PlayRecord(source: open.opening.source, scheduleEntry: open.opening.scheduleEntry,
                          playlistIndex: open.opening.playlistIndex, started: open.started, ended: max(now, open.started),
                          framesShown: max(0, shown - open.shown), framesDropped: max(0, dropped - open.dropped),
                          ending: ending, error: error)
    }
}

extension PlayRecord {
    /// A JSON-ready description (`loopplay --play-log`, `--events`): times in UTC and in the local
    /// zone (ISO 8601, milliseconds), the seconds between them.
    package var jsonObject: [String: any Sendable] {
        var object: [String: any Sendable] = [
            "source": source, "start": Self.utc(started), "end": Self.utc(ended),
            "startLocal": Self.local(started), "endLocal": Self.local(ended),
            "seconds": (ended.timeIntervalSince(started) * 1000).rounded() / 1000,
            "framesShown": framesShown, "framesDropped": framesDropped, "ending": ending.rawValue,
        ]
        if let scheduleEntry { object["scheduleEntry"] = scheduleEntry }
        if let playlistIndex { object["playlistIndex"] = playlistIndex }
        if let error { object["error"] = error }
        return object
    }

    private static func utc(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .gmt))
    }

    private static func local(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .current))
    }
}
