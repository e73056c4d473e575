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
    package func pick(from tracks: [AudioTrack], best: Int32) -> AudioTrack? {
        let named: AudioTrack?
        switch self {
        case .none: return nil
        case .automatic: named = nil
        case let .number(number): named = tracks.first { $0.number == number }
        case let .language(code): named = tracks.first { $0.matches(language: code) }
        }
        return named ?? tracks.first { $0.streamIndex == best } ?? tracks.first
    }
}
