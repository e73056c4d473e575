/// Why a player's run returned (`ExtVideoPlayer.run`, `runHeadless`, `PlayerGroup.run`).
public enum RunOutcome: Sendable, Equatable {
    /// A stop condition was met, or the media ended with `exitAtEnd`.
    case finished
    /// The user closed the window or pressed quit.
    case quit
    /// The source failed and the stop condition's `exitOnFailure` ended the run, or the run could not start.
    case failed(PlayerError)
}
