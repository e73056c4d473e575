/// What the window asks for: closing, resizes, exposure, and keys, which the engine does not carry
/// out: it reports the action a key is bound to (the window's `InputMap`) and its controller does
/// it, as it does a command. Engine thread only.
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
                if let action = inputMap.action(for: press) { report(.keyPressed(action)) }
            }
        }
    }

    /// The window's key bindings (none for outputs without keys).
    private var inputMap: InputMap {
        if case let .window(options) = configuration.output { return options.inputMap }
        return .none
    }

    /// Where the snapshot key writes (nil: the output has no window and no snapshot key).
    package var keySnapshotPath: String? {
        if case let .window(options) = configuration.output { return options.snapshotPath() }
        return nil
    }
}

extension PlaybackEngine {
    /// Subtitles are drawn (the `v` key, mpv's `sub-visibility`).
    package var subtitlesVisible: Bool { configuration.subtitles.visible }
}
