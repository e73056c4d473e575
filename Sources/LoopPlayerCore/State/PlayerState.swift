/// Where a player is: idle → loading → ready → playing / paused / buffering → ended, or failed.
public enum PlayerState: Sendable, Equatable {
    /// No source: before the first load, or after the source was removed.
    case idle
    /// The source is opening; no frame has been shown yet.
    case loading
    /// Opened and showing the first frame, waiting for `play` (`NotAutoPlay`).
    case ready
    /// Frames are being shown in time.
    case playing
    /// Paused on the current frame, waiting for `play`.
    case paused
    /// Playing, but no frame is ready in time (a slow network or decoder).
    case buffering
    /// Non-looping media reached its end; the last frame is held.
    case ended
    /// The source could not be played; the error is also drawn in the player area.
    case failed(PlayerError)
}

extension PlayerState {
    /// The state's one-word name (`playing`, `failed`…), as IPC properties and metrics labels say it.
    public var name: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .ready: "ready"
        case .playing: "playing"
        case .paused: "paused"
        case .buffering: "buffering"
        case .ended: "ended"
        case .failed: "failed"
        }
    }

    /// Every state's name, in the order of the cycle.
    package static let names = ["idle", "loading", "ready", "playing", "paused", "buffering", "ended", "failed"]
}
