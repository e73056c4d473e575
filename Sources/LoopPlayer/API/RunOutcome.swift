/// Why a player's run returned (`ExtVideoPlayer.run`, `runHeadless`, `PlayerGroup.run`).
public enum RunOutcome: Sendable, Equatable {
    /// A stop condition was met, or the media ended with `exitAtEnd`.
    case finished
    /// The user closed the window or pressed quit.
    case quit
    case failed(PlayerError)
}
