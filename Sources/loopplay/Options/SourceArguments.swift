import ArgumentParser
import LoopPlayer

/// What to play: a source, several (a playlist), or a playlist file, and whether it loops.
struct SourceArguments: ParsableArguments {
    @Option(help: ArgumentHelp("A path, a file:// or http(s) URL, or a bare name looked up in ., $LOOPPLAYER_MEDIA_PATH and the bundled media.", valueName: "path|url|name"),
            completion: .file())
    var source: String?

    @Argument(help: ArgumentHelp("The source, if --source is not given; several make a playlist.", valueName: "source"),
              completion: .file())
    var positionalSources: [String] = []

    @Option(help: ArgumentHelp("A playlist file (.m3u: one source per line, # lines are comments; relative paths are from its folder).",
                               valueName: "file"),
            completion: .file(extensions: ["m3u", "m3u8"]))
    var playlist: String?

    @Flag(help: "Play the playlist again after its last item; with --loops N, play it N times in all.")
    var loopPlaylist = false

    @Option(help: "Extension for a bare name without one.")
    var ext = Ext.defaultValue

    @Flag(help: "Loop seamlessly.")
    var loop = false

    func validate() throws {
        if let playlist, try sources().isEmpty { throw ValidationError("--playlist \(playlist) names no source") }
    }

    var resolved: String { source ?? positionalSources.first ?? playlist ?? "" }

    /// Something to play was given (checked when the command runs: ArgumentParser validates before
    /// it reports an unknown option, and `loopplay --bogus` must name --bogus).
    var isGiven: Bool { source != nil || !positionalSources.isEmpty || playlist != nil }

    /// Several sources, or a playlist file: played as a playlist (the file is not read for this).
    var isPlaylist: Bool { playlist != nil || (source == nil ? 0 : 1) + positionalSources.count > 1 }

    /// The source a failure's line starts with: none for a playlist, whose errors name their item.
    var naming: String { isPlaylist ? "" : resolved }

    /// What names a failure once `settings` play: the command line's source, or the one an IPC
    /// `loadfile` put in its place (a playlist's items name themselves).
    func naming(playing settings: VideoSettings) -> String {
        guard settings.playlist.isEmpty else { return "" }
        guard let playing = settings.sourceName, playing != resolved else { return naming }
        return playing
    }

    /// `--loops N` with `--loop-playlist` on a playlist counts passes of the list, not of an item
    /// (with `--loop` too, the item loops, and `--loops` counts its passes).
    var countsListPasses: Bool { loopPlaylist && isPlaylist && !loop }

    /// Every source given: --source, the arguments, then the --playlist file's entries.
    func sources() throws -> [String] {
        var sources = (source.map { [$0] } ?? []) + positionalSources
        if let playlist {
            do { sources += try M3UPlaylist.entries(ofFile: playlist) } catch { throw ValidationError(error.description) }
        }
        return sources
    }
}
