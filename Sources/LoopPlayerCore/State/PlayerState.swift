/// Where a player is: idle → loading → ready → playing / paused / buffering → ended, or failed.
public enum PlayerState: Sendable, Equatable {
    case idle
    case loading
    /// Opened and showing the first frame, waiting for `play` (`NotAutoPlay`).
    case ready
    case playing
    case paused
    /// Playing, but no frame is ready in time (a slow network or decoder).
    case buffering
    /// Non-looping media reached its end; the last frame is held.
    case ended
    case failed(PlayerError)
}
