/// Which audio track to play.
public enum AudioTrackChoice: Sendable, Equatable {
    /// FFmpeg's best audio stream for the video (the default disposition first).
    case automatic
    /// The first track in this language (`en` or `eng`); the automatic one if none matches.
    case language(String)
    /// The track at this position among the audio streams (from 0); the automatic one if there is none.
    case number(Int)
    /// No audio.
    case none

    /// The track this choice names among `tracks`; `best` is FFmpeg's pick (a stream index or < 0).
    func pick(from tracks: [AudioTrack], best: Int32) -> AudioTrack? {
        switch self {
        case .none: return nil
        case let .number(number):
            if let match = tracks.first(where: { $0.number == number }) { return match }
            return tracks.first { $0.streamIndex == best } ?? tracks.first
        case let .language(code):
            if let match = tracks.first(where: { $0.matches(language: code) }) { return match }
            fallthrough
        case .automatic:
            return tracks.first { $0.streamIndex == best } ?? tracks.first
        }
    }
}
