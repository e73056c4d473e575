import Foundation

/// Proof of play: turns what the controller hears from the engine into plays (`PlayLedger`) — a
/// play begins at an item's first picture (or a loop's wrap) and ends at the wrap, the item's end,
/// a switch, a failure or the end of the run. Engine thread only.
struct PlayTracker {
    /// What the engine says at a play's edge: the wall-clock time, the run's frame counts, and what plays.
    struct Reading {
        var unixTime: Double
        var shown, dropped: Int
        var opening: PlayLedger.Opening
        var now: Date { Date(timeIntervalSince1970: unixTime) }
    }

    private var ledger = PlayLedger()
    /// The item changed (or none played yet): the next play begins at its first picture.
    private var awaitingPicture = true
    /// The item after it took over at its end: the play going on completed its pass.
    private var advancedAtEnd = false
    /// Where the next play begins, once a picture was shown after it.
    private var pendingStart: Reading?
    /// The item was removed and, so far in this batch of events, none followed it.
    private var removed = false

    /// The plays `event` ended; `reading` is asked only at an edge.
    mutating func heard(_ event: EngineEvent, reading: () -> Reading) -> [PlayRecord] {
        switch event {
        case let .advanced(_, afterEnd):
            advancedAtEnd = afterEnd
            return []
        case .player(.currentItemChanged):
            awaitNextPicture()
            removed = false
            defer { advancedAtEnd = false }
            return close(advancedAtEnd ? .completedPass : .switched, reading())
        case .player(.loopCompleted):
            let now = reading()
            pendingStart = now
            return close(.completedPass, now)
        case .player(.ended):
            awaitNextPicture()  // a seek back from the end plays the item again: a new play
            return close(.completedPass, reading())
        case .player(.currentItemRemoved):
            // Before every change of item too: an unload only if no new item follows in this batch.
            removed = true
            return []
        case let .stateChanged(.failed(error)):
            awaitNextPicture()
            return close(.failed, reading(), error: error.description)
        default:
            return []
        }
    }

    /// After the events of an iteration: an item removed with none after it was unloaded (mpv's
    /// `stop`: its play was interrupted, returned); a play begins once the item awaited is playing,
    /// and is opened once a picture was shown since (the last pass's wrap, the run ending there, opens none).
    mutating func settle(playing: Bool, reading: () -> Reading) -> [PlayRecord] {
        var ended: [PlayRecord] = []
        if removed {
            removed = false
            awaitNextPicture()
            ended = close(.interrupted, reading())
        }
        openIfShown(playing: playing, reading: reading)
        return ended
    }

    /// The next play begins at the next picture of an item playing.
    private mutating func awaitNextPicture() { (awaitingPicture, pendingStart) = (true, nil) }

    private mutating func openIfShown(playing: Bool, reading: () -> Reading) {
        if awaitingPicture, playing {
            awaitingPicture = false
            pendingStart = reading()
        }
        guard let start = pendingStart else { return }
        let now = reading()
        guard now.shown > start.shown || now.dropped > start.dropped else { return }
        pendingStart = nil
        _ = ledger.begin(start.opening, at: start.now, shown: start.shown, dropped: start.dropped)
    }

    /// The run ends: the play going on was interrupted. `stopped`: the run was stopped (quit, a
    /// signal), so a play begun an instant ago counts too; a run that ended at its last pass's wrap
    /// (`--loops`) begins none.
    mutating func interrupted(stopped: Bool, _ reading: () -> Reading) -> [PlayRecord] {
        if stopped, !ledger.isOpen, let start = pendingStart {
            _ = ledger.begin(start.opening, at: start.now, shown: start.shown, dropped: start.dropped)
        }
        pendingStart = nil
        return ledger.isOpen ? close(.interrupted, reading()) : []
    }

    private mutating func close(_ ending: PlayRecord.Ending, _ now: Reading, error: String? = nil) -> [PlayRecord] {
        ledger.end(ending, at: now.now, shown: now.shown, dropped: now.dropped, error: error).map { [$0] } ?? []
    }
}
