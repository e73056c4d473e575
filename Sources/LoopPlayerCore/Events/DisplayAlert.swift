/// Something wrong with what a screen shows, noticed by the player itself (`PictureAlerts`;
/// docs/service.md, "Proof of display"): said by `PlayerEvent.displayAlert` when it begins and ends.
public enum DisplayAlert: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The pictures shown have been (almost) black for longer than the threshold.
    case black
    /// The picture on screen has not changed for longer than the threshold although it should be
    /// moving: new pictures were due (playing, not paused, speed above 0) and either they differed
    /// from the one on screen or none came (buffering). A still picture looping is not frozen.
    case frozen

    /// What a line on stderr or systemd's `STATUS=` says while it holds.
    package var explanation: String {
        switch self {
        case .black: "the picture is black"
        case .frozen: "the picture is frozen"
        }
    }

    /// What a line says when it ends.
    package var endExplanation: String { "the picture is no longer \(rawValue)" }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
