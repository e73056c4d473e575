/// Which subtitles to show.
public enum SubtitleChoice: Sendable, Equatable {
    /// None at all, not even forced ones.
    case off
    /// Only a track flagged *forced* (foreign-language passages), if the source has one: the default.
    case automatic
    /// The first track in this language (`en` and `eng` both match), embedded or external.
    case language(String)
    /// The track at this position in `subtitleTracks` (the source's streams first, then the files).
    case number(Int)
    /// The track of this external file (as given to `SubtitleOptions.files`), once it has loaded.
    case file(String)

    /// The track this choice shows among `tracks` (nil: none). `.language` and `.number` that match
    /// nothing show nothing (the caller reports it).
    package func pick(from tracks: [SubtitleTrack]) -> Int? {
        switch self {
        case .off: nil
        case .automatic: tracks.firstIndex { $0.isForced }
        case let .language(code): tracks.firstIndex { $0.matches(language: code) }
        case let .number(number): tracks.indices.contains(number) ? number : nil
        case let .file(source): tracks.firstIndex { $0.externalSource == source }
        }
    }
}

/// Subtitles for the sources a player plays: external files loaded with each, and which track shows.
public struct SubtitleOptions: Sendable, Equatable {
    /// Which track shows (by default only a forced one).
    public var choice: SubtitleChoice
    /// External subtitle files (path, `file://` or http(s) URL) loaded with every source; their
    /// tracks come after the source's own.
    public var files: [String]
    /// Subtitles are drawn; false keeps the choice but hides them (mpv's `v`).
    public var visible: Bool

    /// Subtitle options; by default no external files, a forced track shown if there is one.
    public init(choice: SubtitleChoice = .automatic, files: [String] = [], visible: Bool = true) {
        self.choice = choice
        self.files = files
        self.visible = visible
    }

    /// The model's `Subtitles(value)`: a file (it has a subtitle extension, a path or a URL) is loaded
    /// and shown; anything else is a language.
    package init(setting value: String) {
        if Self.namesFile(value) {
            self.init(choice: .file(value), files: [value])
        } else {
            self.init(choice: .language(value))
        }
    }

    /// True if `value` names a file rather than a language.
    package static func namesFile(_ value: String) -> Bool {
        let lowered = value.lowercased()
        return value.contains("/") || value.contains("://")
            || ["srt", "vtt", "ass", "ssa", "smi", "sami"].contains { lowered.hasSuffix(".\($0)") }
    }
}
