/// What the window asks for: keys (through the window's `InputMap`), resizes, closing. Engine thread only.
extension PlaybackEngine {
    func handle(_ inputs: [WindowInput]) {
        for input in inputs {
            switch input {
            case .close:
                quitRequested = true
            case .closePictureInPicture:
                stopPictureInPicture()
            case let .resized(size):
                output.windowResized(to: size)
                redraw()
            case .exposed:
                redraw()
            case let .key(press):
                if let action = inputMap.action(for: press) { perform(action) }
            }
        }
    }

    /// The window's key bindings (none for outputs without keys).
    private var inputMap: InputMap {
        if case let .window(options) = configuration.output { return options.inputMap }
        return .none
    }

    /// Does what a key (or a host) asked for, and says what it did on screen.
    package func perform(_ action: PlayerAction) {
        var seekTarget: Double?
        var snapshotPath: String?
        // Off the shared timeline only if every screen did it: refused, and said on screen too.
        if let name = action.leavesTheTimeline, refusedWhileSynced(name) {
            showMessage("Synced: the shared timeline keeps playing")
            return
        }
        switch action {
        case .quit: quitRequested = true
        case .togglePause: setPaused(!isPaused)
        case let .seek(delta): seekTarget = seek(to: position + delta)
        case .toggleLoop: setLooping(!isLooping)
        case .toggleFullscreen: output.toggleFullscreen()
        case let .adjustContrast(delta):
            var stack = filters
            stack.adjustment.contrast += delta
            try? setFilters(stack)
        case let .adjustBrightness(delta):
            var stack = filters
            stack.adjustment.brightness += delta
            try? setFilters(stack)
        case .clearFilters:
            var stack = filters
            stack.removeAll()
            try? setFilters(stack)
        case .snapshot:
            if case let .window(options) = configuration.output {
                let path = options.snapshotPath()
                writeSnapshotInBackground(to: path)
                snapshotPath = path
            }
        case .toggleMute: setMuted(!isMuted)
        case let .adjustVolume(delta): setVolume(volume + delta)
        case let .scaleSpeed(factor): setSpeed((speed * factor * 100).rounded() / 100)
        case .resetSpeed: setSpeed(1)
        case .cycleAudioTrack: cycleAudioTrack()
        case .cycleSubtitles: cycleSubtitles()
        case .toggleSubtitles: setSubtitlesVisible(!configuration.subtitles.visible)
        case .nextItem: report(.stepRequested(1))
        case .previousItem: report(.stepRequested(-1))
        }
        if let text = message(after: action, seekTarget: seekTarget, snapshotPath: snapshotPath) { showMessage(text) }
    }
}

extension PlayerAction {
    /// The action's name when it would take a player off a shared timeline (`SyncTimeline`).
    var leavesTheTimeline: String? {
        switch self {
        case .togglePause: "togglePause"
        case .seek: "seek"
        case .toggleLoop: "toggleLoop"
        case .scaleSpeed, .resetSpeed: "speed"
        case .nextItem: "nextItem"
        case .previousItem: "previousItem"
        default: nil
        }
    }
}
