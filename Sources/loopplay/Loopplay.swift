import ArgumentParser
import Foundation
import Logging
import Filters
import LoopPlayer

struct Loopplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loopplay",
        abstract: "Play a video in a seamless loop (FFmpeg + SDL2).",
        discussion: """
            Keys: space pause, ←/→ seek ∓5 s, ↑/↓ ±60 s, L loop on/off, f fullscreen, s snapshot, q/Esc quit,
            1/2 contrast −/+, 3/4 brightness −/+, F clear the filters, m mute, 9/0 volume −/+, [/] speed ÷/× 1.1,
            backspace speed 1, # next audio track, j next subtitle track, v subtitles on/off, >/< next/previous item.
            Several sources (or --playlist) play one after the other without a gap.
            Exit codes: 0 done, 64 usage error, 65 media error (not found, unreadable, no picture), 70 other failure.
            """)

    @Option(help: "A path, a file:// or http(s) URL, or a bare name looked up in ., $LOOPPLAYER_MEDIA_PATH and the bundled media.")
    var source: String?

    @Argument(help: "The source, if --source is not given; several make a playlist.")
    var positionalSources: [String] = []

    @Option(help: ArgumentHelp("A playlist file (.m3u: one source per line, # lines are comments; relative paths are from its folder).",
                               valueName: "file"))
    var playlist: String?

    @Flag(help: "Play the playlist again after its last item; with --loops N, play it N times in all.")
    var loopPlaylist = false

    @Option(help: "Extension for a bare name without one.")
    var ext = "mp4"

    @Flag(help: "Loop seamlessly.")
    var loop = false

    @Option(help: "aspect (letterbox), fill (crop) or stretch.")
    var gravity = "aspect"

    @Flag(help: "Start in fullscreen.")
    var fullscreen = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Initial window size, WxH (sides 1…16384).", valueName: "WxH"))
    var windowSize: String?

    @Option(help: "Window title (default: the source's file name).")
    var title: String?

    @Flag(help: "Open the picture-in-picture mini window too: borderless, on top, in the screen's bottom-right corner, draggable.")
    var pip = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Size of the --pip window, WxH (default 320 wide, the picture's shape).", valueName: "WxH"))
    var pipSize: String?

    @Option(help: "Window video output: automatic, texture or surface.")
    var videoOutput = "automatic"

    @Flag(help: "No window: decode and present offscreen.")
    var headless = false

    @Flag(help: "Present every frame as soon as it is decoded (virtual clock).")
    var untimed = false

    // Every option that takes a number parses `.unconditional`ly: `--brightness -0.25` is a value,
    // not an unknown flag, and the range checks in `validate()` say what is wrong with it.

    @Option(parsing: .unconditional, help: "Stop this many seconds after the start (whatever plays meanwhile).")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Play this many complete passes, then exit (implies --loop; with --loop-playlist, passes of the list).")
    var loops: Int?

    @Option(parsing: .unconditional, help: "Stop after this many frames have been shown.")
    var frames: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("MiB of decoded pictures a looping local file may keep, so that a loop which fits is decoded once and replayed (\(FrameCache.validRange.lowerBound)…\(FrameCache.validRange.upperBound); default 0, off).",
                               valueName: "MiB"))
    var frameCache: Int?

    @Flag(help: "Hold the last frame at the end instead of exiting; in a window, keep a failed source's error on screen until the window is closed (the exit code still says it failed).")
    var keepOpen = false

    @Option(help: "Write the frame shown at --snapshot-at as PNG, then exit.")
    var snapshot: String?

    @Option(parsing: .unconditional, help: "Position in seconds for --snapshot.")
    var snapshotAt: Double = 0

    @Option(help: "Write statistics as one JSON object to PATH at exit (- for stdout).")
    var statsJson: String?

    @Option(parsing: .unconditional, help: "Brightness −1…1, after the filters.")
    var brightness: Float = 0

    @Option(parsing: .unconditional, help: "Contrast 0…4, after the filters.")
    var contrast: Float = 1

    @Option(help: ArgumentHelp("A filter of the catalogue, NAME[=ARGS] (repeatable, in order): \(VideoFilter.names.joined(separator: ", ")).",
                               valueName: "name[=args]"))
    var filter: [String] = []

    @Option(help: ArgumentHelp("A raw libavfilter chain, applied after --filter ones (e.g. 'hqdn3d=4,hflip').", valueName: "graph"))
    var vf: String?

    @Flag(help: "Print the libavfilter chain the filter flags compile to, then exit (to compare with ffmpeg -vf).")
    var printFilterGraph = false

    @Flag(help: "Start muted (loopplay plays the sound by default, as mpv does; the library starts muted).")
    var mute = false

    @Option(parsing: .unconditional, help: "Volume 0…100 (linear gain; default 100).")
    var volume: Float = 100

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Audio track: a language (en, eng, …), a number from 0, auto, or no.", valueName: "track"))
    var audioTrack = "auto"

    @Option(parsing: .unconditional, help: "Playback speed (0 holds the picture; the sound keeps its pitch), up to 16.")
    var speed: Double = 1

    @Option(help: ArgumentHelp("SDL audio driver (pulseaudio, alsa, pipewire, disk, dummy; default: SDL's choice).",
                               valueName: "name"))
    var audioDriver: String?

    @Option(help: ArgumentHelp("SDL audio device name (with --audio-driver disk: the file to write).", valueName: "name"))
    var audioDevice: String?

    @Option(parsing: .unconditional, help: "Most channels to open the device with; more are downmixed (e.g. 2 for stereo).")
    var audioChannels: Int?

    @Flag(help: "Print each one-second batch of events as one JSON line on stdout.")
    var events = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Print the position every SECONDS (default 1) as one JSON line on stdout.", valueName: "seconds"))
    var timePublishing: Double?

    @Option(help: ArgumentHelp("An SVG drawn over the picture, fitted into it (repeatable; later ones on top).",
                               valueName: "file.svg"))
    var overlay: [String] = []

    @Option(help: ArgumentHelp("Text at the top left, readable on any picture (repeatable: one line each).", valueName: "text"))
    var overlayText: [String] = []

    @Option(help: ArgumentHelp("Colour of a failed source's error text: a name or #RRGGBB[AA] (default red).",
                               valueName: "color"))
    var errorColor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Size of the error text in points (\(EFontSize.validRange.lowerBound)…\(EFontSize.validRange.upperBound), default \(EFontSize.defaultValue)).",
                                                        valueName: "points"))
    var errorFontSize: Float?

    @Option(help: ArgumentHelp("An external subtitle file: .srt, .vtt, .ass/.ssa, a path or an http(s) URL (repeatable; the first is shown unless --sid or --slang says otherwise).",
                               valueName: "file"))
    var subFile: [String] = []

    @Option(help: ArgumentHelp("Show the first subtitle track in this language (en, eng, …).", valueName: "lang"))
    var slang: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Subtitle track: a number from 1 (the source's tracks, then the files), no, or auto (a forced track only, the default).",
                               valueName: "id"))
    var sid: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("HLS variant: max, min, auto (by measured throughput and window size, switching while playing) or bits per second (1500000, 1500k, 1.5M: the highest not above it).",
                               valueName: "max|min|auto|bits"))
    var hlsBitrate: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Seconds a network source may keep failing (server gone, stalled) before it is an error (\(NetworkTimeout.validRange.lowerBound)…\(NetworkTimeout.validRange.upperBound), default \(NetworkTimeout.defaultValue)).",
                               valueName: "seconds"))
    var networkTimeout: Double?

    @Option(help: ArgumentHelp("Hosts sources may come from, comma-separated (*.example.com matches subdomains); others are refused.",
                               valueName: "hosts"))
    var allowedHosts: String?

    @Option(help: ArgumentHelp("URL schemes sources may use, comma-separated (default file,http,https).", valueName: "schemes"))
    var allowedSchemes: String?

    @Flag(help: "Log what the engine does.")
    var verbose = false

    var resolvedSource: String { source ?? positionalSources.first ?? playlist ?? "" }

    /// The source a failure's line starts with: none for a playlist, whose errors name their item.
    private var namingSource: String {
        playlist == nil && (source.map { [$0] } ?? []).count + positionalSources.count <= 1 ? resolvedSource : ""
    }

    /// Every source given: --source, the arguments, then the --playlist file's entries.
    /// Several sources, or a playlist file: played as a playlist (the file is not read for this).
    private var isPlaylist: Bool { playlist != nil || (source == nil ? 0 : 1) + positionalSources.count > 1 }

    /// `--loops N` with `--loop-playlist` on a playlist counts passes of the list, not of an item
    /// (with `--loop` too, the item loops, and `--loops` counts its passes).
    private var countsListPasses: Bool { loopPlaylist && isPlaylist && !loop }

    private func playlistSources() throws -> [String] {
        var sources = (source.map { [$0] } ?? []) + positionalSources
        if let playlist {
            do { sources += try M3UPlaylist.entries(ofFile: playlist) } catch { throw ValidationError(error.description) }
        }
        return sources
    }

    private static let warnings = WarningPrinter()

    func validate() throws {
        if let statsJson, statsJson != "-" { try Self.checkWritable(statsJson, flag: "--stats-json") }
        if let playlist, try playlistSources().isEmpty { throw ValidationError("--playlist \(playlist) names no source") }
        do { _ = try VideoGravity(parsing: gravity) } catch { throw ValidationError(error.description) }
        guard VideoOutputKind(rawValue: videoOutput) != nil else {
            throw ValidationError("invalid --video-output '\(videoOutput)': expected automatic, texture or surface")
        }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds") }
        if let timePublishing {
            guard TimePublishing.validRange.contains(timePublishing) else {
                let range = TimePublishing.validRange
                throw ValidationError("--time-publishing must be \(range.lowerBound)…\(range.upperBound) seconds")
            }
        }
        if let loops, loops < 1 { throw ValidationError("--loops must be at least 1") }
        // Counted for the first item alone (not looping the list, or looping the item), the later
        // items would never play.
        if loops != nil, isPlaylist, !loopPlaylist || loop {
            throw ValidationError("--loops with a playlist counts passes of the list: "
                + (loop ? "use --loop-playlist without --loop" : "add --loop-playlist"))
        }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        guard snapshotAt >= 0, snapshotAt.isFinite else { throw ValidationError("--snapshot-at must be 0 or more seconds") }
        guard Brightness.validRange.contains(brightness) else {
            throw ValidationError("--brightness must be \(Self.describe(Brightness.validRange))")
        }
        guard Contrast.validRange.contains(contrast) else {
            throw ValidationError("--contrast must be \(Self.describe(Contrast.validRange))")
        }
        guard (0...100).contains(volume) else { throw ValidationError("--volume must be between 0 and 100") }
        guard PlaybackEngine.speedRange.contains(speed) else {
            throw ValidationError("--speed must be \(Self.describe(PlaybackEngine.speedRange))")
        }
        if let audioChannels, !(1...8).contains(audioChannels) { throw ValidationError("--audio-channels must be 1…8") }
        _ = try WindowSize.parse(windowSize, flag: "--window-size", range: 1...16384)
        _ = try WindowSize.parse(pipSize, flag: "--pip-size", range: PictureInPicture.validSide)
        _ = try audioTrackChoice()
        _ = try subtitleOptions()
        if let errorColor { do { _ = try Color(parsing: errorColor) } catch { throw ValidationError("invalid --error-color: \(error.description)") } }
        _ = try networkSettings()
        if let errorFontSize, !EFontSize.validRange.contains(errorFontSize) {
            throw ValidationError("--error-font-size must be \(EFontSize.validRange.lowerBound)…\(EFontSize.validRange.upperBound) points")
        }
    }

    func run() throws {
        // Checked here, not in validate(): ArgumentParser validates before it reports an unknown
        // option, and `loopplay --bogus` must name --bogus.
        guard source != nil || !positionalSources.isEmpty || playlist != nil || printFilterGraph else {
            throw ValidationError("no source: give a path, URL or name, or --playlist FILE")
        }
        let verbose = verbose
        LoggingSystem.bootstrap { label in
            OneLineLogHandler(label: label, level: verbose ? .debug : .warning, detailed: verbose)
        }
        if let bytes = RawArguments.undecodable[resolvedSource], !printFilterGraph {
            let error = PlayerError.sourceInaccessible(
                source: bytes, reason: "the file name is not valid UTF-8 (LoopPlayer opens UTF-8 names only)")
            StandardError.line(error.description)
            throw ExitCodes.code(for: error)
        }
        let player = try makePlayer()
        SignalWatch.onSignal { player.stop() }
        if printFilterGraph {
            print(player.settings.filterStack.graphDescription ?? "")
            return
        }
        var outcome = headless ? player.runHeadless(timing: timing, until: stopCondition(fallback: false))
            : player.run(window: windowOptions, timing: timing, until: stopCondition(fallback: false))
        // `--keep-open` kept a failed source's error on screen until the window was closed.
        if case .quit = outcome, case let .failed(error) = player.state { outcome = .failed(error) }
        var snapshotPath = snapshot
        var statsPath = statsJson
        if case let .failed(.displayUnavailable(reason)) = outcome, !SignalWatch.wasReceived {
            // No display: play headless, with stats and a snapshot, and say so in one line once the
            // media has opened, so that a source that fails is reported alone.
            let (snapshotTarget, statsTarget) = (snapshot ?? fallbackSnapshot, statsJson ?? "-")
            (snapshotPath, statsPath) = (snapshotTarget, statsTarget)
            let notice = "no display (\(reason)); playing headless: "
                + (statsTarget == "-" ? "stats below" : "stats in \(statsTarget)") + ", snapshot in \(snapshotTarget)"
            let once = OnceFlag()
            player.onStateChange { state in
                switch state {
                case .idle, .loading, .failed: return
                case .ready, .playing, .paused, .buffering, .ended: if once.claim() { StandardError.line(notice) }
                }
            }
            outcome = player.runHeadless(timing: timing, until: stopCondition(fallback: true))
        }
        // `--loops N` not reached because looping had to stop is a failure, not a silent exit 0.
        if case .finished = outcome, let loops, !countsListPasses, duration == nil, frames == nil, snapshotPath == nil,
           player.statistics.loopsCompleted < loops {
            outcome = .failed(Self.warnings.loopingStopped ?? .loopingStopped(
                source: resolvedSource, reason: "\(player.statistics.loopsCompleted) of \(loops) passes played"))
        }
        if case .finished = outcome, let snapshotPath {
            do { try player.writeSnapshot(to: snapshotPath) } catch { outcome = .failed(error) }
        }
        if let statsPath {
            let report = StatsReport(source: resolvedSource, outcome: describe(outcome), statistics: player.statistics)
            try? report.write(to: statsPath)
        }
        if case let .failed(error) = outcome {
            if !Self.warnings.wasPrinted(error) { StandardError.line(Self.naming(namingSource, error.description)) }
            throw ExitCodes.code(for: error)
        }
    }

    /// A failure's line starts with the source the user gave (`loopplay: SOURCE: …`): a network
    /// error names the resource that failed (a segment, a variant playlist), said after the source.
    static func naming(_ source: String, _ message: String) -> String {
        let name = PrintableText.escaping(source)
        return name.isEmpty || message.hasPrefix(name + ": ") ? message : "\(name): \(message)"
    }

    private var fallbackSnapshot: String { "loopplay-snapshot.png" }

    /// A file the run will write at its end must be writable now: said at once, not lost at the end.
    /// `between -1 and 1`: a range of the library's, as an error message says it.
    static func describe<Bound: BinaryFloatingPoint>(_ range: ClosedRange<Bound>) -> String {
        "between \(String(format: "%g", Double(range.lowerBound))) and \(String(format: "%g", Double(range.upperBound)))"
    }

    static func checkWritable(_ path: String, flag: String) throws {
        guard !path.isEmpty else { throw ValidationError("\(flag) needs a file name (or - for stdout)") }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw ValidationError("\(flag) \(path) is a directory")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ValidationError("\(flag) \(path) cannot be written: \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }

    /// `--filter` values, then `--vf` (checked for syntax now; the graph itself when the video opens).
    private func parsedFilters() throws(FilterError) -> [VideoFilter] {
        var filters: [VideoFilter] = []
        for text in filter { filters.append(try VideoFilter(parsing: text)) }
        if let vf {
            try FilterChain.checkSyntax(vf)
            filters.append(.ffmpeg(vf))
        }
        return filters
    }
    private var timing: ExtVideoPlayer.Timing { untimed ? .untimed : .realTime }

    private func audioTrackChoice() throws -> AudioTrackChoice {
        switch audioTrack.lowercased() {
        case "auto", "": return .automatic
        case "no", "none": return .none
        case let text:
            if let number = Int(text) {
                guard number >= 0 else { throw ValidationError("--audio-track number must not be negative") }
                return .number(number)
            }
            guard LanguageCodeArgument.isPlausible(text) else {
                throw ValidationError("invalid --audio-track '\(audioTrack)': expected a language code, a number, auto or no")
            }
            return .language(text)
        }
    }

    private var windowOptions: WindowOptions {
        let size = (try? WindowSize.parse(windowSize, flag: "--window-size", range: 1...16384)) ?? nil  // validated
        var options = WindowOptions(title: title, size: size.map { ($0.width, $0.height) }, fullscreen: fullscreen,
                                    output: VideoOutputKind(rawValue: videoOutput) ?? .automatic, inputMap: .mpv,
                                    snapshotPath: { "loopplay-\(Int(Date().timeIntervalSince1970 * 1000)).png" })
        options.titleForSource = { "\($0) — loopplay" }
        return options
    }

    /// `--sub-file`, `--slang` and `--sid` as the player's subtitle options (nil: none given).
    private func subtitleOptions() throws -> SubtitleOptions? {
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

    /// `--hls-bitrate`, `--network-timeout`, `--allowed-hosts` and `--allowed-schemes`.
    private func networkSettings() throws -> (variant: VariantPreference?, timeout: Double?, allowed: AllowedSources?) {
        var variant: VariantPreference?
        if let hlsBitrate {
            do { variant = try VariantPreference(parsing: hlsBitrate) } catch {
                throw ValidationError("invalid --hls-bitrate '\(hlsBitrate)': expected max, min, auto or bits per second")
            }
        }
        if let networkTimeout, !NetworkTimeout.validRange.contains(networkTimeout) {
            let range = NetworkTimeout.validRange
            throw ValidationError("--network-timeout must be \(range.lowerBound)…\(range.upperBound) seconds")
        }
        func list(_ text: String, _ flag: String) throws -> [String] {
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard !items.isEmpty, !items.contains(where: \.isEmpty) else { throw ValidationError("\(flag) needs a comma-separated list") }
            return items
        }
        var allowed: AllowedSources?
        if allowedHosts != nil || allowedSchemes != nil {
            allowed = AllowedSources(schemes: try allowedSchemes.map { Set(try list($0, "--allowed-schemes")) } ?? AllowedSources.standard.schemes,
                                     hosts: try allowedHosts.map { try list($0, "--allowed-hosts") })
        }
        return (variant, networkTimeout, allowed)
    }

    private func makePlayer() throws -> ExtVideoPlayer {
        var settings = VideoSettings(
            sourceName: resolvedSource, ext: ext, gravity: try VideoGravity(parsing: gravity), timePublishing: timePublishing,
            // `--loop-playlist` with one source loops it, as mpv does.
            loop: loop || (loops != nil && !countsListPasses) || (loopPlaylist && !isPlaylist),
            events: events ? .all : .only([.errorAny]))
        let sources = try playlistSources()
        if isPlaylist {
            settings.playlist = sources
            settings.sourceName = sources.first
        }
        settings.loopPlaylist = loopPlaylist
        // `--loops N --loop-playlist` counts passes of the list (mpv's --loop-playlist=N).
        if countsListPasses { settings.loopPlaylistPasses = loops }
        settings.brightness = brightness
        settings.contrast = contrast
        settings.mute = mute
        if let errorColor { settings.errorColor = try Color(parsing: errorColor) }
        if let errorFontSize { settings.errorFontSize = errorFontSize }
        var layers: [any ShapeLayerBuilderProtocol] = overlay.map { SVGLayer(file: $0) }
        if !overlayText.isEmpty { layers.append(TextLayer(overlayText.joined(separator: "\n"))) }
        settings.vectorLayers = layers
        if let frameCache {
            guard FrameCache.validRange.contains(frameCache) else {
                throw ValidationError("--frame-cache must be \(FrameCache.validRange.lowerBound)…\(FrameCache.validRange.upperBound) MiB")
            }
            settings.frameCacheMegabytes = frameCache
        }
        let network = try networkSettings()
        if let variant = network.variant { settings.hlsVariant = variant }
        if let timeout = network.timeout { settings.networkTimeout = timeout }
        if let allowed = network.allowed { settings.allowedSources = allowed }
        if pip || pipSize != nil {
            let pipSize = try WindowSize.parse(pipSize, flag: "--pip-size", range: PictureInPicture.validSide)
            settings.pictureInPicture = PictureInPicture(width: pipSize?.width ?? PictureInPicture.defaultWidth,
                                                         height: pipSize?.height)
        }
        let player = ExtVideoPlayer(settings: settings)
        player.audioOutput = AudioOptions(track: try audioTrackChoice(), driver: audioDriver, device: audioDevice,
                                          maxChannels: audioChannels)
        player.subtitleOptions = try subtitleOptions()
        if volume != 100 { player.send(.volume(volume / 100)) }
        if speed != 1 { player.send(.playbackSpeed(Float(speed))) }
        if pip { player.send(.startPiP) }  // headless: a notSupportedPiP line on stderr, and it plays on
        // Checked once the player routes FFmpeg's log, so FFmpeg's own complaint stays out of the way.
        do { settings.filters = try parsedFilters() } catch { throw ValidationError(error.description) }
        player.settings = settings
        let (events, source) = (events, namingSource)
        player.onPlayerEventChange { batch in
            Self.warnings.print(batch, source: source)
            if events { JSONLines.write(["events": batch.map(\.jsonObject)]) }
        }
        if timePublishing != nil {
            player.onPlayerTimeChange { seconds in JSONLines.write(["time": seconds]) }
        }
        if snapshot != nil, snapshotAt > 0 { player.send(.seek(to: snapshotAt)) }
        return player
    }

    /// The flags' limits; the headless fallback is bounded when nothing else bounds it:
    /// one pass, or three when looping.
    private func stopCondition(fallback: Bool) -> StopCondition {
        // A window with --keep-open shows a failed source's error until it is closed.
        let holdFailure = keepOpen && !headless && !fallback
        var stop = StopCondition(duration: duration, frames: snapshot != nil ? 1 : frames, loops: countsListPasses ? nil : loops,
                                 exitAtEnd: !keepOpen || fallback, exitOnFailure: !holdFailure)
        if fallback && duration == nil && frames == nil && loops == nil && loop { stop.loops = 3 }
        return stop
    }

    private func describe(_ outcome: RunOutcome) -> String {
        switch outcome {
        case .finished: "finished"
        case .quit: "quit"
        case let .failed(error): "failed: \(error.kind)"
        }
    }
}

/// A language given on the command line: two to eight letters or dashes (`en`, `eng`, `pt-br`).
enum LanguageCodeArgument {
    static func isPlausible(_ text: String) -> Bool {
        (2...8).contains(text.count) && text.allSatisfy { $0.isLetter || $0 == "-" }
    }
}
