import ArgumentParser
import CBuildInfo
import Foundation
import Logging
import Filters
import LoopPlayer
import LoopPlayerIPC
import LoopPlayerMetrics

struct Loopplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loopplay",
        abstract: "Play a video in a seamless loop (FFmpeg + SDL2).",
        discussion: """
            Keys: space pause; ←/→ seek −/+5 s; ↑/↓ seek −/+60 s; L loop on/off;
            f fullscreen; s snapshot; q or Esc quit; m mute; 9/0 volume −/+ (or /, *);
            1/2 contrast −/+; 3/4 brightness −/+; F clear the filters;
            [/] speed ÷/× 1.1; backspace speed 1; # next audio track;
            j next subtitle track; v subtitles on/off; >/< next/previous item
            (Enter next); the play media key pauses.

            Several sources (or --playlist) play one after the other without a gap.

            Exit codes: 0 done; 64 usage error; 65 media error (not found,
            unreadable, no picture); 70 other failure.
            """,
        version: "loopplay \(LibraryVersions.loopPlayer)\(buildCommit)\n\(LibraryVersions.libraries)")

    /// ` (commit 4d78a2a)` where the build was told its commit (the package's), else nothing.
    private static var buildCommit: String {
        let commit = String(cString: lp_build_commit())
        return commit.isEmpty ? "" : " (commit \(commit))"
    }

    @OptionGroup(title: "Source") var sources: SourceArguments
    @OptionGroup(title: "Window") var window: WindowArguments
    @OptionGroup(title: "Run") var runLimits: RunArguments
    @OptionGroup(title: "Picture") var picture: PictureArguments
    @OptionGroup(title: "Sound") var sound: SoundArguments
    @OptionGroup(title: "Subtitles") var subtitles: SubtitleArguments
    @OptionGroup(title: "Network") var network: NetworkArguments
    @OptionGroup(title: "Output") var report: ReportArguments
    @OptionGroup(title: "Control") var control: ControlArguments
    @OptionGroup(title: "Config") var configuration: ConfigArguments
    @OptionGroup(title: "Schedule") var scheduling: ScheduleArguments

    private static let warnings = WarningPrinter()

    /// What each group cannot check alone.
    func validate() throws {
        if scheduling.printSchedule, sources.isGiven {
            throw ValidationError("--print-schedule prints the schedule and plays nothing: leave out the source")
        }
        if scheduling.schedule != nil, !scheduling.printSchedule {
            if sources.isGiven { throw ValidationError("--schedule says what plays: leave out the source") }
            if runLimits.syncEpoch != nil {
                throw ValidationError("--schedule keeps its entries in step with `sync: true` in the file: leave out --sync-epoch")
            }
            if sources.loop || sources.loopPlaylist || runLimits.loops != nil {
                throw ValidationError("--schedule loops its entries itself: leave out --loop, --loop-playlist and --loops")
            }
        }
        if runLimits.syncEpoch != nil {
            // Each would put this screen somewhere else than the timeline says.
            if sound.speed != 1 { throw ValidationError("--sync-epoch plays at the timeline's speed: leave out --speed") }
            if runLimits.untimed { throw ValidationError("--sync-epoch follows the system clock: leave out --untimed") }
            if runLimits.snapshotAt > 0 { throw ValidationError("--sync-epoch shows the timeline's frame: leave out --snapshot-at") }
            if sources.isPlaylist, sources.loop {
                throw ValidationError("--sync-epoch with a playlist repeats the list on the timeline: leave out --loop")
            }
        }
        if runLimits.snapshot == "-", report.events || report.timePublishing != nil {
            throw ValidationError("--snapshot - writes the picture to stdout: --events and --time-publishing cannot share it")
        }
        // Counted for the first item alone (not looping the list, or looping the item), the later
        // items would never play.
        if runLimits.loops != nil, sources.isPlaylist, !sources.loopPlaylist || sources.loop {
            throw ValidationError("--loops with a playlist counts passes of the list: "
                + (sources.loop ? "use --loop-playlist without --loop" : "add --loop-playlist"))
        }
    }

    func run() throws {
        if scheduling.printSchedule {
            for line in try scheduling.transitionLines() { print(line) }
            return
        }
        if let listing = control.listing {
            for line in listing { print(line) }
            return
        }
        // Checked here, not in validate(): ArgumentParser validates before it reports an unknown
        // option, and `loopplay --bogus` must name --bogus.
        guard sources.isGiven || picture.printFilterGraph || control.idle || scheduling.schedule != nil else {
            throw ValidationError("no source: give a path, URL or name, or --playlist FILE")
        }
        let verbose = report.verbose
        LoggingSystem.bootstrap { label in
            OneLineLogHandler(label: label, level: verbose ? .debug : .warning, detailed: verbose)
        }
        if let bytes = RawArguments.undecodable[sources.resolved], !picture.printFilterGraph {
            let error = PlayerError.sourceInaccessible(
                source: bytes, reason: "the file name is not valid UTF-8 (LoopPlayer opens UTF-8 names only)")
            StandardError.line(error.description)
            throw ExitCodes.code(for: error)
        }
        let player = try makePlayer()
        let playLog: PlayLog?
        do { playLog = try report.openPlayLog() } catch {
            StandardError.line(error.description)
            throw ExitCodes.code(for: error)
        }
        if let playLog {
            player.onEachEvent { if case let .played(record) = $0 { playLog.append(record) } }
            SignalWatch.reopenOnSignal { playLog.reopen() }
        }
        defer { playLog?.close() }
        let notifier: SystemdNotifier?
        do {
            notifier = try SystemdNotifier.fromEnvironment()
        } catch {
            StandardError.line(error.description)  // a service without notifications still plays
            notifier = nil
        }
        notifier?.attach(to: player, source: sources.naming)
        SignalWatch.onSignal {
            notifier?.stopping()
            player.stop()
        }
        defer {
            notifier?.stopping()
            notifier?.finish()
        }
        let server: MPVIPCServer?
        let metrics: MetricsServer?
        do {
            server = try control.startServer(for: player)
            metrics = try control.startMetrics(for: player)
        } catch {
            StandardError.line(error.description)
            throw ExitCodes.code(for: error)
        }
        defer {
            server?.close()
            metrics?.close()
        }
        if picture.printFilterGraph {
            print(player.settings.filterStack.graphDescription ?? "")
            return
        }
        let timing = runLimits.timing
        var outcome = window.headless ? player.runHeadless(timing: timing, until: stopCondition(fallback: false))
            : player.run(window: window.options, timing: timing, until: stopCondition(fallback: false))
        var snapshotPath = runLimits.snapshot
        var statsPath = runLimits.statsJson
        // The stats the headless fallback prints unasked are a played run's: a failure is its one line.
        var statsUnasked = false
        // (With --require-display the failure stays, said in its one line at the end: exit 70.)
        if case let .failed(.displayUnavailable(reason)) = outcome, !window.requireDisplay, !SignalWatch.wasReceived {
            // No display: play headless, with stats and a snapshot, and say so in one line once the
            // media has opened, so that a source that fails is reported alone.
            // The stats go to stdout unless the picture does (`--snapshot -`).
            let snapshotTarget = snapshotPath ?? fallbackSnapshot
            let statsTarget = statsPath ?? (snapshotTarget == "-" ? nil : "-")
            (snapshotPath, statsPath, statsUnasked) = (snapshotTarget, statsTarget, statsPath == nil)
            let said = statsTarget.map { $0 == "-" ? "stats below, " : "stats in \($0), " } ?? ""
            let notice = "no display (\(reason)); playing headless: \(said)snapshot "
                + (snapshotTarget == "-" ? "on stdout" : "in \(snapshotTarget)")
            let once = OnceFlag()
            player.onStateChange { state in
                switch state {
                case .idle, .loading, .failed: return
                case .ready, .playing, .paused, .buffering, .ended: if once.claim() { StandardError.line(notice) }
                }
            }
            outcome = player.runHeadless(timing: timing, until: stopCondition(fallback: true))
        }
        // `--keep-open` (or a remote control, which waits for the next `loadfile`) kept a failed
        // source's error up until the window was closed or a limit came: the exit code still says it
        // failed. Applied to the headless fallback's run too. (Not for a playlist: a failed item
        // there is skipped at the next iteration.)
        // (Not on a schedule: its entry failing is the schedule's, and a stop asked for ends it cleanly.)
        if case .quit = outcome, scheduling.schedule == nil, case let .failed(error) = player.state { outcome = .failed(error) }
        if case .finished = outcome, runLimits.keepOpen || control.inputIpcServer != nil, !sources.isPlaylist,
           case let .failed(error) = player.state {
            outcome = .failed(error)
        }
        // `--loops N` not reached because looping had to stop is a failure, not a silent exit 0.
        if case .finished = outcome, let loops = runLimits.loops, !sources.countsListPasses, runLimits.duration == nil,
           runLimits.frames == nil, snapshotPath == nil, player.statistics.loopsCompleted < loops {
            outcome = .failed(Self.warnings.loopingStopped ?? .loopingStopped(
                source: sources.resolved, reason: "\(player.statistics.loopsCompleted) of \(loops) passes played"))
        }
        // A refused crop left the picture black: no snapshot of that, and no exit 0 (65, its line said once).
        if case .finished = outcome, snapshotPath != nil, let refused = Self.warnings.cropRefused { outcome = .failed(refused) }
        // `--snapshot` stopped by a signal before its frame: no file, and a script must not read
        // one (it exited 0 with nothing written).
        if case .quit = outcome, runLimits.snapshot != nil, SignalWatch.wasReceived, server?.requestedExitCode == nil {
            outcome = .failed(.writeFailed(path: runLimits.snapshot ?? "", reason: "stopped by a signal before the snapshot was taken"))
        }
        // The run is over: the remote control and the metrics go (their socket file with them, even
        // if a signal ends a blocked write below), and a signal from here on ends the process at once.
        server?.close()
        metrics?.close()
        SignalWatch.exitOnNextSignal()
        if case .finished = outcome, let snapshotPath {
            do throws(PlayerError) {
                // `-`: the PNG goes to stdout.
                if snapshotPath == "-" {
                    try OutputFile.write(Snapshot.encoded(player.snapshot(), as: .png), to: "-")
                } else {
                    try player.writeSnapshot(to: snapshotPath)
                }
            } catch {
                outcome = .failed(error)
            }
        }
        if case .failed = outcome, statsUnasked { statsPath = nil }
        // Statistics that cannot be written are said in one line, and the run did not do what was
        // asked: 70 unless it failed already (its own code) or a `quit N` chose one.
        var statsFailed = false
        if let statsPath {
            var report = StatsReport(source: sources.resolved, outcome: describe(outcome), statistics: player.statistics)
            report.schedule = player.status.schedule.map { ($0.entry, $0.transitions) }
            do throws(PlayerError) { try report.write(to: statsPath) } catch {
                StandardError.line(error.description)
                statsFailed = true
            }
        }
        // An IPC client's `quit 3` ends the process with 3, as mpv's does (also after a failed source).
        if let code = server?.requestedExitCode {
            if code != 0 { throw ExitCode(code) }
            if statsFailed { throw ExitCodes.runtimeError }
            return
        }
        if case let .failed(error) = outcome {
            if case .writeFailed = error {
                StandardError.line(error.description)  // about the file, not the source
            } else if !Self.warnings.wasPrinted(error) {
                StandardError.line(Self.naming(sources.naming(playing: player.settings), error.description))
            }
            throw ExitCodes.code(for: error)
        }
        if statsFailed { throw ExitCodes.runtimeError }
    }

    /// A failure's line starts with the source the user gave (`loopplay: SOURCE: …`): a network
    /// error names the resource that failed (a segment, a variant playlist), said after the source.
    static func naming(_ source: String, _ message: String) -> String {
        let name = PrintableText.escaping(source)
        guard !name.isEmpty, !message.hasPrefix(name + ": ") else { return message }
        // "small.mp4: /srv/show/small.mp4: …" says the file twice: a message naming the same
        // file by its full path is left as it is.
        if let named = message.range(of: ": ").map({ String(message[..<$0.lowerBound]) }), named.hasPrefix("/"),
           URL(fileURLWithPath: named).standardized.path == URL(fileURLWithPath: source).standardized.path {
            return message
        }
        return "\(name): \(message)"
    }

    private var fallbackSnapshot: String { "loopplay-snapshot.png" }

    /// `between -1 and 1`: a range of the library's, as an error message says it.
    static func describe<Bound: BinaryFloatingPoint>(_ range: ClosedRange<Bound>) -> String {
        "between \(number(range.lowerBound)) and \(number(range.upperBound))"
    }

    /// `-1…1`: a range of the library's, as the help says it.
    static func span<Bound: BinaryFloatingPoint>(_ range: ClosedRange<Bound>) -> String {
        "\(number(range.lowerBound))…\(number(range.upperBound))"
    }

    private static func number<Value: BinaryFloatingPoint>(_ value: Value) -> String { String(format: "%g", Double(value)) }

    /// A file the run will write at its end must be writable now: said at once, not lost at the end.
    static func checkWritable(_ path: String, flag: String) throws {
        guard !path.isEmpty else { throw ValidationError("\(flag) needs a file name (or - for stdout)") }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw ValidationError("\(flag) \(path) is a directory")
        }
        let existed = stat(path, &status) == 0
        // A FIFO or a device is written as it is at the end: opening it now would wait for a
        // reader (and end that reader's input before the real write).
        if existed, status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFCHR {
            guard access(path, W_OK) == 0 else {
                throw ValidationError("\(flag) \(path) cannot be written: \(String(cString: strerror(errno)))")
            }
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ValidationError("\(flag) \(path) cannot be written: \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        // Made only to see that it can be: a usage error after this check leaves no empty file.
        if !existed { unlink(path) }
    }

    /// The settings the options describe. `filters`: also the filter stack (checked by FFmpeg,
    /// whose log goes through the library once a player exists).
    func videoSettings(filters: Bool) throws -> VideoSettings {
        var settings = VideoSettings(
            sourceName: sources.resolved, ext: sources.ext, timePublishing: report.timePublishing,
            // `--loop-playlist` with one source loops it, as mpv does.
            loop: sources.loop || (runLimits.loops != nil && !sources.countsListPasses)
                || (sources.loopPlaylist && !sources.isPlaylist) || (runLimits.syncEpoch != nil && !sources.isPlaylist),
            events: report.events ? .all : .only([.errorAny, .displayAlertAny]))
        if sources.isPlaylist {
            let items = try sources.sources()
            settings.playlist = items
            settings.sourceName = items.first
        }
        settings.loopPlaylist = sources.loopPlaylist || (runLimits.syncEpoch != nil && sources.isPlaylist)
        // `--loops N --loop-playlist` counts passes of the list (mpv's --loop-playlist=N).
        if sources.countsListPasses { settings.loopPlaylistPasses = runLimits.loops }
        settings.mute = sound.mute
        if control.idle { (settings.idles, settings.sourceName) = (true, sources.isGiven ? settings.sourceName : nil) }
        try picture.apply(to: &settings)
        settings.pictureAlerts = report.pictureAlerts
        if let frameCache = runLimits.frameCache { settings.frameCacheMegabytes = frameCache }
        try network.apply(to: &settings)
        settings.pictureInPicture = try window.pictureInPicture()
        settings.syncEpoch = runLimits.syncEpochSeconds
        if let schedule = try scheduling.loaded() { (settings.schedule, settings.sourceName) = (schedule, nil) }
        if filters {
            do { settings.filters = try picture.filters() } catch { throw ValidationError(error.description) }
        }
        return settings
    }

    private func makePlayer() throws -> ExtVideoPlayer {
        var settings = try videoSettings(filters: false)
        let player = ExtVideoPlayer(settings: settings)
        player.audioOutput = try sound.options
        player.subtitleOptions = try subtitles.options()
        sound.commands.forEach(player.send)
        if window.pip { player.send(.startPiP) }  // headless: a notSupportedPiP line on stderr, and it plays on
        // Checked once the player routes FFmpeg's log, so FFmpeg's own complaint stays out of the way.
        do { settings.filters = try picture.filters() } catch { throw ValidationError(error.description) }
        player.settings = settings
        ConfigReload.attach(player)
        // SIGHUP reads the schedule again too (the entry on and unchanged plays on), as a service's
        // `systemctl reload` asks; a terminal's SIGHUP (it was closed) ends loopplay as before.
        if let path = scheduling.schedule, !StandardStreams.onTerminal {
            let scheduling = self.scheduling
            SignalWatch.onHangUp { [weak player] in
                ConfigReload.reload()
                guard let player else { return }
                do {
                    let schedule = try scheduling.loaded()
                    player.updateSettings { $0.schedule = schedule }
                    player.retry()  // an entry that failed is tried again now (its file may be there now)
                    StandardError.line("reload: \(path) read again")
                } catch {
                    let said = (error as? ScheduleFileError)?.line ?? Self.message(for: error)
                    StandardError.line("reload: \(said); the schedule in use stays")
                }
            }
        }
        let (events, sources) = (report.events, self.sources)
        player.onPlayerEventChange { [unowned player] batch in
            Self.warnings.print(batch, source: sources.naming(playing: player.settings))
            if events { JSONLines.write(["events": batch.map(\.jsonObject)]) }
        }
        if report.timePublishing != nil {
            player.onPlayerTimeChange { seconds in JSONLines.write(["time": seconds]) }
        }
        if runLimits.snapshot != nil, runLimits.snapshotAt > 0 { player.send(.seek(to: runLimits.snapshotAt)) }
        return player
    }

    private func stopCondition(fallback: Bool) -> StopCondition {
        var stop = runLimits.stopCondition(fallback: fallback, headless: window.headless, looping: sources.loop || runLimits.syncEpoch != nil,
                                           countsListPasses: sources.countsListPasses, remote: control.inputIpcServer != nil)
        // It waits for the next loadfile; a schedule's next change comes.
        if control.idle || scheduling.schedule != nil { (stop.exitAtEnd, stop.exitOnFailure) = (false, false) }
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
