import ArgumentParser
import LoopPlayer

/// Subtitle files and which track shows (mpv's --sub-file, --slang and --sid).
struct SubtitleArguments: ParsableArguments {
    @Option(help: ArgumentHelp("An external subtitle file: .srt, .vtt, .ass/.ssa, a path or an http(s) URL (repeatable; the first is shown unless --sid or --slang says otherwise).",
                               valueName: "file"),
            completion: .file(extensions: ["srt", "vtt", "ass", "ssa"]))
    var subFile: [String] = []

    @Option(help: ArgumentHelp("Show the first subtitle track in this language (en, eng, …).", valueName: "lang"))
    var slang: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Subtitle track: a number from 1 (the source's tracks, then the files), no, or auto (a forced track only, the default).",
                               valueName: "id"))
    var sid: String?

    func validate() throws { _ = try options() }

    /// The player's subtitle options (nil: none of these flags given).
    func options() throws -> SubtitleOptions? {
        guard !subFile.isEmpty || slang != nil || sid != nil else { return nil }
        var options = SubtitleOptions(choice: subFile.first.map(SubtitleChoice.file) ?? .automatic, files: subFile)
        if let slang {
            guard LanguageCodeArgument.isPlausible(slang) else {
                throw ValidationError("invalid --slang '\(slang)': expected a language code such as en or eng")
            }
            options.choice = .language(slang)
        }
        switch sid?.lowercased() {
        case nil: break
        case "auto": options.choice = subFile.first.map(SubtitleChoice.file) ?? .automatic
        case "no", "none": options.choice = .off
        case let text?:
            guard let number = Int(text), number >= 1 else {
                throw ValidationError("invalid --sid '\(text)': expected a track number from 1, no or auto")
            }
            options.choice = .number(number - 1)  // mpv numbers tracks from 1
        }
        return options
    }
}

/// A language given on the command line: two to eight letters or dashes (`en`, `eng`, `pt-br`).
enum LanguageCodeArgument {
    static func isPlausible(_ text: String) -> Bool {
        (2...8).contains(text.count) && text.allSatisfy { $0.isLetter || $0 == "-" }
    }
}
