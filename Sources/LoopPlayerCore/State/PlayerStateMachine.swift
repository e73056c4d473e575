/// The life of one player as a state machine: inputs from the engine (a source loads, opens, shows
/// its first frame, starves, ends, fails; play and pause) give the next state and the actions the
/// engine performs (events to emit, the pause to apply, the error text to show). Pure, in the style
/// of swift-nio's state machines: `handle` returns actions, the caller does the I/O.
package struct PlayerStateMachine: Equatable {
    package enum Input: Equatable {
        /// A new source starts loading; `autoplay` false is `NotAutoPlay` (stop on the first frame).
        case load(autoplay: Bool)
        /// The source is gone (replaced, or the player stopped).
        case unload
        /// The stream is known and its decoders run.
        case opened
        case failed(PlayerError)
        /// A frame was shown (the first one after loading too).
        case frameShown
        case play
        case pause
        /// Playing, with nothing to show for too long.
        case starved
        /// Non-looping media showed its last frame for its full duration.
        case reachedEnd
        /// After the end: a seek or looping switched on continues.
        case resumed
        /// The next playlist item, already open, took over at the end of the one before (or was
        /// skipped to) without going through loading.
        case advanced
        /// The run is over.
        case close
    }

    package enum Action: Equatable {
        case emit(PlayerEvent)
        /// Pause or resume the picture and the sound.
        case setPaused(Bool)
        case showError(PlayerError)
        case clearError
    }

    package private(set) var state: PlayerState = .idle
    /// `pause` was asked for (kept across states: a source loading, the end, a failure).
    package private(set) var wantsPause = false
    /// Loading with `NotAutoPlay`: the first frame makes the state `ready`.
    private var holdsFirstFrame = false
    private var hasItem = false

    package init() {}

    package mutating func handle(_ input: Input) -> [Action] {
        switch (input, state) {
        case let (.load(autoplay), previous):
            var actions: [Action] = []
            if hasItem { actions.append(.emit(.currentItemRemoved)) }
            if case .failed = previous { actions.append(.clearError) }
            // The user's pause outlives a source (as mpv's); a `NotAutoPlay` hold does not.
            if autoplay && holdsFirstFrame { wantsPause = false }
            if !autoplay { wantsPause = true }
            hasItem = true
            holdsFirstFrame = !autoplay
            state = .loading
            return actions + [.emit(.currentItemChanged)]

        case (.unload, _):
            var actions: [Action] = []
            if hasItem { actions.append(.emit(.currentItemRemoved)) }
            if case .failed = state { actions.append(.clearError) }
            hasItem = false
            state = .idle
            return actions

        case (.opened, .loading):
            return [.emit(.itemStatusChanged(.readyToPlay))]

        case let (.failed(error), _):
            state = .failed(error)
            return [.emit(.itemStatusChanged(.failed)), .emit(.error(error)), .showError(error)]

        case (.frameShown, .loading):
            if holdsFirstFrame {
                state = .ready
                return []
            }
            // A pause asked for while loading was announced then.
            state = wantsPause ? .paused : .playing
            return wantsPause ? [] : [.emit(.playing)]
        case (.frameShown, .buffering):
            state = .playing
            return [.emit(.playing)]

        case (.play, .loading):
            // The first frame says `playing`.
            let changed = wantsPause
            wantsPause = false
            holdsFirstFrame = false
            return changed ? [.setPaused(false)] : []
        case (.play, .ready):
            holdsFirstFrame = false
            wantsPause = false
            state = .playing
            return [.setPaused(false), .emit(.playing)]
        case (.play, .paused):
            wantsPause = false
            state = .playing
            return [.setPaused(false), .emit(.playing)]
        case (.play, _):
            let changed = wantsPause
            wantsPause = false
            holdsFirstFrame = false
            return changed ? [.setPaused(false), .emit(.playing)] : []

        case (.pause, .playing), (.pause, .buffering):
            wantsPause = true
            state = .paused
            return [.setPaused(true), .emit(.paused)]
        case (.pause, _):
            let changed = !wantsPause
            wantsPause = true
            return changed ? [.setPaused(true), .emit(.paused)] : []

        case (.starved, .playing):
            state = .buffering
            return [.emit(.waitingToPlayAtSpecifiedRate)]

        case (.reachedEnd, .playing), (.reachedEnd, .paused), (.reachedEnd, .buffering):
            state = .ended
            return [.emit(.ended)]

        case (.resumed, .ended):
            state = wantsPause ? .paused : .playing
            return wantsPause ? [] : [.emit(.playing)]

        case let (.advanced, previous):
            var actions: [Action] = hasItem ? [.emit(.currentItemRemoved)] : []
            if case .failed = previous { actions.append(.clearError) }
            // A `NotAutoPlay` hold is for the first item, not the user's pause.
            if holdsFirstFrame { wantsPause = false }
            hasItem = true
            holdsFirstFrame = false
            switch previous {
            case .playing, .paused: break
            case .ended, .failed, .idle, .loading, .ready, .buffering:
                state = .loading  // its first frame says `playing` (or `paused`)
            }
            return actions + [.emit(.currentItemChanged), .emit(.itemStatusChanged(.readyToPlay))]

        case (.close, .failed):
            return []
        case (.close, _):
            state = .idle
            return []

        default:
            return []
        }
    }
}
