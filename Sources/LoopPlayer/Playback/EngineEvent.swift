/// What happened in the engine, returned by `runOnce` to the controller driving it (the session,
/// a test): the engine never calls up into its controller, so the controller holds each decision
/// (a playlist's next item, when a failure ends a run) and the engine only reports.
package enum EngineEvent {
    /// For the user's event batches (unbatched, unfiltered).
    case player(PlayerEvent)
    case stateChanged(PlayerState)
    /// The source opened and its presenter exists; no frame of it was shown yet (the iteration
    /// ends here, so commands queued meanwhile apply before its first frame).
    case opened
    /// The queued item is the current one now (`afterEnd`: at the end of the one before; or skipped to).
    case advanced(MediaLocation, afterEnd: Bool)
    /// The queued item failed before it could play (it is dropped; its error is an event too).
    case queuedItemFailed(MediaLocation, PlayerError)
    /// A key asked for this (the window's `InputMap`): the controller carries it out as it does a
    /// command (`PlayerAction.request`).
    case keyPressed(PlayerAction)
    /// A switch to the queued item settled: the item after it may be queued now.
    case switchSettled
    /// The queued item was dropped (a seek or a track change in the current item after it took the
    /// sound device, or the current item reopened): a playlist queues it again.
    case queueDropped
    /// A playlist on a shared timeline plays the wrong item (the clock stepped, it was paused, an
    /// item was skipped to): the timeline is in item `index` now.
    case scheduleWantsItem(Int)
    /// Looping of the current item changed (a command or the L key): a playlist queues a next item
    /// only while it is off.
    case loopingChanged(Bool)
}

/// What the controller tells the engine for one iteration.
package struct RunContext {
    /// Another time the loop must wake at (event batches, time publishing), on the engine's clock.
    package var deadline: Double?
    /// Whether a failure ends a run that stops on failure (not while a playlist skips the item).
    package var failureEndsRun: Bool
    /// A virtual clock stands still: the controller waits for something that takes real time (a
    /// schedule's next item decoding, a retry's file being tried), which wakes the loop when done.
    package var holdsVirtualClock: Bool

    package init(deadline: Double? = nil, failureEndsRun: Bool = true, holdsVirtualClock: Bool = false) {
        self.deadline = deadline
        self.failureEndsRun = failureEndsRun
        self.holdsVirtualClock = holdsVirtualClock
    }
}

/// Drives an engine's loop (`PlaybackEngine.run(controller:)`): before every iteration it turns
/// what was asked meanwhile (commands, settings, keys) into engine calls, and after it, what
/// happened into the next ones. Engine thread only.
package protocol EngineController: AnyObject {
    /// Before an iteration: applies what was asked meanwhile.
    func prepareIteration()
    /// What happened: in an iteration, and in the calls made before it (handled before the
    /// iteration runs, with what they lead to).
    func handle(_ events: [EngineEvent])
    /// What the next iteration needs to know, once everything that happened was handled.
    var runContext: RunContext { get }
}

/// What one iteration of the engine's loop leaves to do.
package enum EngineIteration {
    /// Go again at once (a frame was shown).
    case again
    /// Sleep until this monotonic time (nil: until woken).
    case wait(Double?)
    case finished(RunOutcome)
}
