/// What the engine asks of the session driving it. Called on the engine's thread.
struct HostHooks {
    /// At the top of every iteration (the player's commands, settings, event batches).
    var tick: (() -> Void)?
    /// Once a source is open and its presenter exists, before any frame is shown.
    var ready: (() -> Void)?
    /// Another time the loop must wake at (event batches, time publishing), on the engine's clock.
    var deadline: (() -> Double?)?
    /// Whether a failure ends a run that stops on failure (a playlist that skips it says no).
    var failureIsFinal: (() -> Bool)?
}

/// What the engine tells the playlist driving it (none: no playlist). Called on the engine's thread.
struct PlaylistHooks {
    /// The queued item became the current one (at the end of the one before, or skipped to).
    var advanced: ((MediaLocation) -> Void)?
    /// The queued item failed before it could play (it is dropped; the error was sent as an event).
    var queuedItemFailed: ((MediaLocation, PlayerError) -> Void)?
    /// A key asked for the next (+1) or previous (−1) item.
    var step: ((Int) -> Void)?
    /// A switch to the queued item settled: the item after it can be queued.
    var switchSettled: (() -> Void)?
    /// The engine dropped the queued item (a seek in the current item after it lent its sound
    /// device): the playlist queues it again.
    var queueDropped: (() -> Void)?
}
