import Foundation

/// Subtitle controls. Engine thread only.
extension PlaybackEngine {
    /// The source's subtitle tracks and the loaded files' (empty until it opened).
    public var subtitleTracks: [SubtitleTrack] { item?.subtitles.tracks ?? [] }

    /// The track shown, if any.
    public var subtitleTrack: SubtitleTrack? { item?.subtitles.currentTrack }

    /// Chooses the subtitles (kept for later sources). A language or number that matches no track
    /// throws `subtitleTrackNotFound` (also sent as an error event) and the current choice stays.
    public func setSubtitles(_ choice: SubtitleChoice) throws(PlayerError) {
        if let item, let error = item.subtitles.select(choice) {
            record(error)
            onEvent?(.error(error))
            throw error
        }
        configuration.subtitles.choice = choice
        redraw()
    }

    /// The next subtitle track; after the last one none, then the first again (mpv's `j`).
    public func cycleSubtitles() {
        guard let item else { return }
        item.subtitles.cycle()
        configuration.subtitles.choice = item.subtitles.choice
        redraw()
    }

    /// Shows or hides the subtitles without changing the choice (mpv's `v`).
    public func setSubtitlesVisible(_ visible: Bool) {
        configuration.subtitles.visible = visible
        item?.subtitles.visible = visible
        redraw()
    }

    /// The external subtitle files of `configuration`, resolved like sources (a bare name looks for
    /// .srt, .vtt, .ass and .ssa), with the protocols each may use, and the choice with a file's
    /// name resolved the same way. A file that is not there is reported and skipped.
    func subtitleFiles() -> (files: [SubtitleStage.ExternalFile], choice: SubtitleChoice) {
        var choice = configuration.subtitles.choice
        let files = configuration.subtitles.files.compactMap { name -> SubtitleStage.ExternalFile? in
            guard let file = resolveSubtitleFile(name) else { return nil }
            if choice == .file(name) { choice = .file(file.source) }
            return file
        }
        return (files, choice)
    }

    private func resolveSubtitleFile(_ name: String) -> SubtitleStage.ExternalFile? {
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
        let error = PlayerError.invalidSubtitles(.fileNotFound(path: name))
        record(error)
        onEvent?(.error(error))
        return nil
    }
}
