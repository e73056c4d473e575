import ArgumentParser
import Foundation
import LoopPlayer
import Synchronization

/// SIGHUP reads the config files again, as a service's `systemctl reload` asks: settings that can
/// change while playing change (the source or playlist, looping, volume, filters…), the others are
/// named as needing a restart, and a bad file changes nothing. One line on stderr says which.
///
/// Only the settings whose lines changed are touched: what a remote control changed meanwhile (a
/// `loadfile`, the volume) stays unless the file changes that very setting. SIGHUP reloads when a
/// file was named with `--config`, or when a default file was read and stderr is not a terminal (a
/// service); a terminal's SIGHUP (it was closed) ends loopplay as before.
enum ConfigReload {
    private struct State: Sendable {
        var config: LoadedConfig
        /// The settings the player started with: a setting only a restart changes is compared with these.
        let startup: [String: [String]]
        let commandLine: [String]
        var player: ExtVideoPlayer?
        /// A SIGHUP came before the player existed: reload once it does.
        var pending = false
    }

    private static let state = Mutex<State?>(nil)

    /// The settings a running player takes through its `VideoSettings`, and the fields each changes.
    static let settingsLive: [String: @Sendable (inout VideoSettings, VideoSettings) -> Void] = {
        let source: @Sendable (inout VideoSettings, VideoSettings) -> Void = { running, new in
            (running.sourceName, running.playlist, running.ext) = (new.sourceName, new.playlist, new.ext)
        }
        let filters: @Sendable (inout VideoSettings, VideoSettings) -> Void = { $0.filters = $1.filters }
        let layers: @Sendable (inout VideoSettings, VideoSettings) -> Void = { $0.vectorLayers = $1.vectorLayers }
        let errorText: @Sendable (inout VideoSettings, VideoSettings) -> Void = { running, new in
            (running.errorColor, running.errorFontSize) = (new.errorColor, new.errorFontSize)
        }
        let network: @Sendable (inout VideoSettings, VideoSettings) -> Void = { running, new in
            (running.hlsVariant, running.networkTimeout, running.allowedSources) = (new.hlsVariant, new.networkTimeout, new.allowedSources)
        }
        return [
            "source": source, "playlist": source, "ext": source,
            "loop": { $0.loop = $1.loop },
            "loop-playlist": { running, new in
                (running.loop, running.loopPlaylist, running.loopPlaylistPasses) = (new.loop, new.loopPlaylist, new.loopPlaylistPasses)
            },
            "gravity": { $0.gravity = $1.gravity },
            "brightness": { $0.brightness = $1.brightness },
            "contrast": { $0.contrast = $1.contrast },
            "filter": filters, "vf": filters, "crop": filters,
            "overlay": layers, "overlay-text": layers,
            "error-color": errorText, "error-font-size": errorText,
            "hls-bitrate": network, "network-timeout": network, "allowed-hosts": network, "allowed-schemes": network,
            "frame-cache": { $0.frameCacheMegabytes = $1.frameCacheMegabytes },
            "mute": { $0.mute = $1.mute },
            "alert-black": { $0.pictureAlerts = $1.pictureAlerts }, "alert-frozen": { $0.pictureAlerts = $1.pictureAlerts },
        ]
    }()

    /// Remembers what was read at start; SIGHUP reloads from now on if it should (see above).
    static func start(with config: LoadedConfig, commandLine: [String]) {
        guard !config.files.isEmpty, config.named || !StandardStreams.onTerminal else {
            SignalWatch.onHangUp(nil)
            return
        }
        state.withLock { $0 = State(config: config, startup: config.values, commandLine: commandLine) }
        SignalWatch.onHangUp { reload() }
    }

    /// The player the settings go to; a reload asked for before it existed happens now.
    static func attach(_ player: ExtVideoPlayer) {
        let pending = state.withLock { state -> Bool in
            state?.player = player
            defer { state?.pending = false }
            return state?.pending ?? false
        }
        if pending { reload() }
    }

    static func reload() {
        let current = state.withLock { state -> State? in
            if state?.player == nil { state?.pending = true }
            return state
        }
        guard let current, current.player != nil else { return }
        let outcome = apply(current)
        state.withLock { $0?.config = outcome.config }
        StandardError.line(outcome.line)
    }

    private static func apply(_ current: State) -> (config: LoadedConfig, line: String) {
        func refused(_ error: any Error) -> (LoadedConfig, String) {
            (current.config, "reload: \(describe(error)); the settings in use stay")
        }
        let config: LoadedConfig
        let command: Loopplay
        do {
            config = try LoadedConfig.load(commandLine: current.commandLine)
            command = try Loopplay.parse(config.argumentsBefore(current.commandLine))
        } catch {
            return refused(error)
        }
        let files = config.files.joined(separator: ", ")
        let (old, new) = (current.config.values, config.values)
        // Live settings change from what the last reload set; the others are named as long as they
        // differ from what the player started with (a line put back needs no restart).
        let names = Set(old.keys).union(new.keys).union(current.startup.keys)
        let changed = names.filter { Self.isLive($0) && old[$0] != new[$0] }.sorted()
        var restart = names.filter { !Self.isLive($0) && current.startup[$0] != new[$0] }.sorted()
        guard !changed.isEmpty else { return (config, Self.summary(files, applied: [], restart: restart)) }
        guard let player = current.player else { return (current.config, "reload: the player is not running yet") }
        var applied: [String] = []
        var commands: [PlaybackCommand] = []
        var changes: [(String, PropertyChange)] = []
        do {
            let live = changed.compactMap { settingsLive[$0] }
            if !live.isEmpty {
                let wanted = try command.videoSettings(filters: true)
                // A local source that is not there would fail the player (and end it without a remote
                // control): refused here, as a bad line is.
                if changed.contains(where: { ["source", "playlist", "ext"].contains($0) }) {
                    for source in wanted.playlist.isEmpty ? [wanted.sourceName ?? ""] : wanted.playlist {
                        _ = try SourceResolver.standard().resolve(source, ext: wanted.ext)
                    }
                }
                var checked: Result<Void, PlayerError> = .success(())
                player.updateSettings { running in
                    var next = running
                    live.forEach { $0(&next, wanted) }
                    do throws(PlayerError) {
                        try next.validate()
                        running = next
                    } catch {
                        checked = .failure(error)
                    }
                }
                try checked.get()
            }
            for name in changed {
                if let property = Self.tableProperty(name) {
                    // The command line wins over the file (`argumentsBefore`): its value stays.
                    guard !Self.names(name, in: current.commandLine) else { continue }
                    changes.append((property.name, try Self.change(of: property, to: new[name]?.last)))
                } else if settingsLive[name] == nil {
                    // A command-set one; nil: a choice only a new source applies (`sid=auto`, a file).
                    guard let sent = try Self.commands(for: name, in: command) else {
                        restart.append(name)
                        continue
                    }
                    commands += sent
                }
                applied.append(name)
            }
        } catch {
            return refused(error)
        }
        commands.forEach(player.send)
        changes.forEach { player.change($0.0, $0.1) }
        return (config, Self.summary(files, applied: applied, restart: restart))
    }

    /// `reloaded FILES: a, b changed; c needs a restart` (or `nothing changed`).
    private static func summary(_ files: String, applied: [String], restart: [String]) -> String {
        var line = "reloaded \(files): " + (applied.isEmpty ? "nothing changed" : applied.joined(separator: ", ") + " changed")
        if !restart.isEmpty {
            line += "; " + restart.joined(separator: ", ") + (restart.count == 1 ? " needs" : " need") + " a restart"
        }
        return line
    }

    /// Settings a running player takes as commands (`commands(for:in:)`): the track choices.
    static let commandLive: Set<String> = ["audio-track", "sid", "slang"]

    /// A setting a running player takes: through its settings, as a command, or as a property of
    /// the table set from the line's text (`PlayerProperty.configName`).
    private static func isLive(_ name: String) -> Bool {
        settingsLive[name] != nil || commandLive.contains(name) || tableProperty(name) != nil
    }

    /// The table's property a config line sets, where the settings do not carry it.
    private static func tableProperty(_ name: String) -> PlayerProperty? {
        guard settingsLive[name] == nil else { return nil }
        return PlayerProperty.configurable.first { $0.configName == name }
    }

    /// The command line gives option `name` (`--volume 40`, `--volume=40`).
    private static func names(_ name: String, in commandLine: [String]) -> Bool {
        commandLine.contains { $0 == "--" + name || $0.hasPrefix("--" + name + "=") }
    }

    /// Setting `property` to the line's text (nil: the line is gone, the default again).
    private static func change(of property: PlayerProperty, to text: String?) throws -> PropertyChange {
        guard let text else { return .set(property.defaultValue ?? .off) }
        switch property.value(mpvText: text) {
        case let .success(value): return .set(value)
        case let .failure(refusal):
            throw ConfigError(place: property.configName ?? property.name, reason: "\(text): " + refusal.reason(for: property))
        }
    }

    /// The commands that set `name` as `command` has it (nil: not settable while playing).
    private static func commands(for name: String, in command: Loopplay) throws -> [PlaybackCommand]? {
        switch name {
        case "audio-track":
            switch try command.sound.trackChoice() {
            case .automatic: return [.audioTrackNumber(0)]
            case let .language(code): return [.audioTrack(languageCode: code)]
            case let .number(number): return [.audioTrackNumber(number)]
            case .none: return [.audioTrackNumber(nil)]
            }
        case "sid", "slang":
            switch try command.subtitles.options()?.choice {
            case let .language(code)?: return [.subtitles(code)]
            case let .number(number)?: return [.subtitleTrackNumber(number)]
            case .off?: return [.subtitleTrackNumber(nil)]
            default: return nil
            }
        default: return nil
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? ConfigError { return error.description }
        if let error = error as? PlayerError { return error.description }
        let message = Loopplay.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "invalid"
        return message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
    }
}
