/// Keys and window events (mpv's bindings) turned into engine calls.
extension PlaybackEngine {
    func handle(_ actions: [InputAction]) {
        for action in actions {
            switch action {
            case .quit: quitRequested = true
            case .togglePause: setPaused(!isPaused)
            case let .seekRelative(delta): seek(by: delta)
            case .toggleLoop: setLooping(!isLooping)
            case .toggleFullscreen: (renderer as? SDLWindowRenderer)?.toggleFullscreen()
            case .redraw:
                renderer?.redisplay()
                reportBounds()
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
                writeSnapshotInBackground()
            case .toggleMute: setMuted(!isMuted)
            case let .adjustVolume(delta): setVolume(volume + delta)
            case let .scaleSpeed(factor): setSpeed((speed * factor * 100).rounded() / 100)
            case .resetSpeed: setSpeed(1)
            case .cycleAudioTrack: cycleAudioTrack()
            }
        }
    }
}
