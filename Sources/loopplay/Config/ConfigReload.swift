import ArgumentParser
import Foundation
import LoopPlayer
import Synchronization

/// SIGHUP reads the config files again, as a service's `systemctl reload` asks: settings that can
/// change while playing change (the source or playlist, looping, volume, filters…), the others are
/// named as needing a restart, and a bad file changes nothing. One line on stderr says which.
/// Only when loopplay started with a config file; otherwise SIGHUP (a closed terminal) ends it.
enum ConfigReload {
    private struct State: Sendable {
        var config: LoadedConfig
        let commandLine: [String]
        var player: ExtVideoPlayer?
    }

    private static let state = Mutex<State?>(nil)

    /// Settings a running player takes through its settings.
    static let settingsLive: Set<String> = [
        "source", "playlist", "ext", "loop", "loop-playlist", "gravity", "brightness", "contrast", "filter", "vf", "crop",
        "overlay", "overlay-text", "error-color", "error-font-size", "hls-bitrate", "network-timeout", "allowed-hosts",
        "allowed-schemes", "frame-cache", "mute",
    ]
    /// Settings a running player takes as commands.
    static let commandLive: Set<String> = ["volume", "speed", "audio-track", "sid", "slang"]

    /// Remembers what was read at start; SIGHUP reloads from now on if a file was read.
    static func start(with config: LoadedConfig, commandLine: [String]) {
        guard !config.files.isEmpty else { return }
        state.withLock { $0 = State(config: config, commandLine: commandLine) }
        SignalWatch.onHangUp { reload() }
    }

    /// The player the settings go to.
    static func attach(_ player: ExtVideoPlayer) {
        state.withLock { $0?.player = player }
    }

    static func reload() {
        guard let current = state.withLock({ $0 }) else { return }
        let outcome = apply(current)
        state.withLock { $0?.config = outcome.config }
        StandardError.line(outcome.line)
    }

    private static func apply(_ current: State) -> (config: LoadedConfig, line: String) {
        let config: LoadedConfig
        let command: Loopplay
        do {
            config = try LoadedConfig.load(commandLine: current.commandLine)
            command = try Loopplay.parse(TimePublishingArgument.withDefaultInterval(config.arguments + current.commandLine))
        } catch {
            return (current.config, "reload: \(describe(error)); the settings in use stay")
        }
        let files = config.files.joined(separator: ", ")
        let (old, new) = (current.config.values, config.values)
        let changed = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
        guard !changed.isEmpty else { return (config, "reloaded \(files): nothing changed") }
        guard let player = current.player else { return (config, "reloaded \(files): the player is not running yet") }
        var applied: [String] = []
        var restart: [String] = []
        do {
            if changed.contains(where: settingsLive.contains) {
                var settings = try command.videoSettings(filters: true)
                let running = player.settings
                // What only a restart changes stays as it is.
                (settings.events, settings.timePublishing) = (running.events, running.timePublishing)
                player.settings = settings
            }
            for name in changed {
                if settingsLive.contains(name) {
                    applied.append(name)
                } else if commandLive.contains(name), let sent = try commands(for: name, in: command), !sent.isEmpty {
                    sent.forEach(player.send)
                    applied.append(name)
                } else {
                    restart.append(name)
                }
            }
        } catch {
            return (current.config, "reload: \(describe(error)); the settings in use stay")
        }
        var line = "reloaded \(files): "
        if !applied.isEmpty { line += applied.joined(separator: ", ") + " changed" }
        if !restart.isEmpty { line += (applied.isEmpty ? "" : "; ") + restart.joined(separator: ", ")
            + (restart.count == 1 ? " needs" : " need") + " a restart" }
        return (config, line)
    }

    /// The commands that set `name` as `command` has it (nil: not settable while playing).
    private static func commands(for name: String, in command: Loopplay) throws -> [PlaybackCommand]? {
        switch name {
        case "volume": return [.volume(Float(command.sound.volume / 100))]
        case "speed": return [.playbackSpeed(Float(command.sound.speed))]
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
        let message = Loopplay.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "invalid"
        return message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
    }
}
