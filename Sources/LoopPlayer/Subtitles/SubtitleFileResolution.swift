/// Where the external subtitle files of `SubtitleOptions` are, and what each may read.
extension SubtitleOptions {
    /// The files resolved like sources (a bare name looks for .srt, .vtt, .ass and .ssa), each with the
    /// protocols it may use (a remote file only http(s); a local one only `file`), the choice with a
    /// file's name resolved the same way, and an `invalidSubtitles` error for each file not found.
    func resolvedFiles() -> (files: [SubtitleStage.ExternalFile], choice: SubtitleChoice, missing: [PlayerError]) {
        var resolvedChoice = choice
        var missing: [PlayerError] = []
        let resolved = files.compactMap { name -> SubtitleStage.ExternalFile? in
            guard let file = Self.resolve(name) else {
                missing.append(.invalidSubtitles(.fileNotFound(path: name)))
                return nil
            }
            if resolvedChoice == .file(name) { resolvedChoice = .file(file.source) }
            return file
        }
        return (resolved, resolvedChoice, missing)
    }

    private static func resolve(_ name: String) -> SubtitleStage.ExternalFile? {
        if let scheme = SourceResolver.scheme(of: name), scheme != "file" {
            let remote = scheme == "http" || scheme == "https"
            return SubtitleStage.ExternalFile(source: name,
                                              allowedProtocols: remote ? SourcePolicy.protocolWhitelist(for: .remote) : "none")
        }
        let resolver = SourceResolver.standard()
        for ext in ["srt", "vtt", "ass", "ssa"] {
            if case let .file(path)? = try? resolver.resolve(name, ext: ext) {
                return SubtitleStage.ExternalFile(source: path, allowedProtocols: "file")
            }
        }
        return nil
    }
}
