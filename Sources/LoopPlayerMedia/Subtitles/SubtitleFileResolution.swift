import LoopPlayerCore

/// Where the external subtitle files of `SubtitleOptions` are.
extension SubtitleOptions {
    /// The files resolved like sources (a bare name looks for .srt, .vtt, .ass and .ssa; a URL stays
    /// as it is, for the source policy to judge when it is loaded), the choice with a file's name
    /// resolved the same way, and an `invalidSubtitles` error for each file not found.
    package func resolvedFiles() -> (files: [String], choice: SubtitleChoice, missing: [PlayerError]) {
        var resolvedChoice = choice
        var missing: [PlayerError] = []
        let resolved = files.compactMap { name -> String? in
            guard let file = Self.resolve(name) else {
                missing.append(.invalidSubtitles(.fileNotFound(path: name)))
                return nil
            }
            if resolvedChoice == .file(name) { resolvedChoice = .file(file) }
            return file
        }
        return (resolved, resolvedChoice, missing)
    }

    private static func resolve(_ name: String) -> String? {
        if let scheme = SourceResolver.scheme(of: name), scheme != "file" { return name }
        let resolver = SourceResolver.standard()
        for ext in ["srt", "vtt", "ass", "ssa"] {
            if case let .file(path)? = try? resolver.resolve(name, ext: ext) { return path }
        }
        return nil
    }
}
