import ArgumentParser
import Foundation
import LoopPlayer

/// The config files' settings as loopplay reads them at start and on SIGHUP:
/// `$XDG_CONFIG_HOME/loopplay/loopplay.conf` (`~/.config/…` without XDG_CONFIG_HOME; skipped with
/// `--no-config`), then `--config FILE`; a later file's setting replaces an earlier one, and the
/// command line's replaces both. Each line is checked alone, so an error names its file and line.
struct LoadedConfig: Sendable {
    /// The files read, in order.
    var files: [String] = []
    /// The settings in effect, in order (overridden ones dropped).
    var entries: [ConfigEntry] = []
    /// The settings as arguments, to go before the command line's.
    var arguments: [String] = []
    /// The files were named with `--config` (not only the default one found).
    var named = false

    /// Options that may be given several times: every line adds one.
    static let repeatable: Set<String> = ["filter", "overlay", "overlay-text", "sub-file", "panel"]
    /// Options that make no sense in a file.
    static let refused: Set<String> = ["config", "no-config", "help", "h", "version"]

    /// The default file's path, where it would be.
    static var defaultPath: String? {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/loopplay/loopplay.conf" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/loopplay/loopplay.conf"
    }

    /// Reads the files the command line asks for (none for `--help`). Throws a `ConfigError` for a
    /// bad line or a named file that cannot be read.
    static func load(commandLine: [String]) throws -> LoadedConfig {
        let scan = CommandLineScan(commandLine)
        guard !scan.asksForHelp else { return LoadedConfig() }
        if let problem = scan.configProblem { throw ConfigError(place: "--config", reason: problem) }
        if let typo = scan.singleDashWord {
            throw ConfigError(place: "Unknown option '\(typo.word)'",
                              reason: typo.meant.map { "did you mean '\($0)'? (loopplay --help lists the options)" }
                                  ?? "loopplay --help lists the options")
        }
        var paths: [(path: String, required: Bool)] = []
        if !scan.noConfig, let defaultPath { paths.append((defaultPath, false)) }
        if let named = scan.configFile { paths.append((named, true)) }
        var loaded = LoadedConfig()
        loaded.named = scan.configFile != nil
        var all: [ConfigEntry] = []
        for (path, required) in paths {
            guard let text = try read(path, required: required) else { continue }
            loaded.files.append(path)
            all += try ConfigFile.entries(in: text, file: path)
            if all.count > maximumSettings {
                throw ConfigError(place: path, reason: "more than \(maximumSettings) settings (a config file is a few lines)")
            }
        }
        let sourceOnCommandLine = scan.givesSource
        var kept: [ConfigEntry] = []
        for entry in all {
            guard !refused.contains(entry.name) else {
                throw ConfigError(place: entry.place, reason: "'\(entry.name)' cannot be set in a config file")
            }
            // The command line wins: its options, and its sources over the file's.
            if scan.names.contains(entry.name) { continue }
            if sourceOnCommandLine, ["source", "playlist"].contains(entry.name) { continue }
            if !repeatable.contains(entry.name) { kept.removeAll { $0.name == entry.name } }
            kept.append(entry)
        }
        var kinds = OptionKinds()
        let arguments = try kept.map { entry in (entry, try argument(for: entry, kinds: &kinds)) }
        loaded.entries = kept
        loaded.arguments = arguments.compactMap(\.1)
        // One parse of them all; only when it fails is each line parsed alone, to name the bad one.
        do {
            _ = try Loopplay.parse(loaded.arguments)
        } catch {
            for case let (entry, argument?) in arguments { try check([argument], entry) }
            throw ConfigError(place: loaded.files.joined(separator: ", "), reason: reason(for: error, name: nil))
        }
        return loaded
    }

    /// Settings read at most, over all files.
    static let maximumSettings = 1000

    /// The files' arguments followed by the command line's (a file's bare `time-publishing` is
    /// `--time-publishing=1` already: it cannot take the command line's first source as its value).
    func argumentsBefore(_ commandLine: [String]) -> [String] {
        arguments + TimePublishingArgument.withDefaultInterval(commandLine)
    }

    /// What each setting is set to, by name (repeatable ones joined), to compare two loads.
    var values: [String: [String]] {
        entries.reduce(into: [:]) { values, entry in values[entry.name, default: []].append(entry.value ?? "yes") }
    }

    /// A file's text; nil for the default file when it is not there (or its folder cannot be
    /// searched: another user's home).
    private static func read(_ path: String, required: Bool) throws -> String? {
        if path == "/dev/null" { return "" }  // the usual way to say "no settings"
        var status = stat()
        if stat(path, &status) != 0 {
            guard required else { return nil }
            throw ConfigError(place: path, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw ConfigError(place: path, reason: "is not a regular file") }
        guard Int(status.st_size) <= ConfigFile.maximumBytes else {
            throw ConfigError(place: path, reason: "is larger than \(ConfigFile.maximumBytes >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(place: path, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
        guard let text = String(validating: data, as: UTF8.self) else { throw ConfigError(place: path, reason: "is not UTF-8 text") }
        return text
    }

    /// The argument a setting stands for (nil: a flag set to no): `--name=value` for an option,
    /// `--name` for a flag (mpv.conf's `name=yes` too).
    private static func argument(for entry: ConfigEntry, kinds: inout OptionKinds) throws(ConfigError) -> String? {
        let option = "--" + entry.name
        switch kinds.kind(of: entry.name) {
        case .unknown:
            throw ConfigError(place: entry.place, reason: "unknown option '\(entry.name)'")
        case .option:
            // The one option whose value may be left out (every second).
            if entry.value == nil, option == TimePublishingArgument.flag { return option + "=1" }
            guard let value = entry.value else {
                throw ConfigError(place: entry.place, reason: "'\(entry.name)' needs a value: \(entry.name)=VALUE")
            }
            return option + "=" + value
        case .flag:
            switch entry.value?.lowercased() {
            case nil, "yes", "true", "1", "on": return option
            case "no", "false", "0", "off": return nil
            default:
                throw ConfigError(place: entry.place, reason: "'\(entry.name)' is a flag: write \(entry.name), \(entry.name)=yes or \(entry.name)=no")
            }
        }
    }

    /// Parses `arguments` as loopplay would; its error as the setting's.
    private static func check(_ arguments: [String], _ entry: ConfigEntry) throws(ConfigError) {
        do {
            _ = try Loopplay.parse(arguments)
        } catch {
            throw ConfigError(place: entry.place, reason: reason(for: error, name: entry.name))
        }
    }

    /// The parser's message, on one line.
    private static func reason(for error: any Error, name: String?) -> String {
        let message = Loopplay.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "invalid"
        let reason = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        if let name, reason.hasPrefix("Unknown option") { return "unknown option '\(name)'" }
        return reason
    }
}

/// Whether each option name is a flag, takes a value or is not loopplay's: asked of its own parser
/// once per name.
struct OptionKinds {
    enum Kind { case flag, option, unknown }
    private var known: [String: Kind] = [:]

    mutating func kind(of name: String) -> Kind {
        if let kind = known[name] { return kind }
        let kind: Kind
        do {
            _ = try Loopplay.parse(["--" + name])
            kind = .flag
        } catch {
            let message = Loopplay.message(for: error)
            kind = message.contains("Missing value") ? .option : message.contains("Unknown option") ? .unknown : .flag
        }
        known[name] = kind
        return kind
    }
}

/// What the command line says before it is parsed: the options it gives (they win over the
/// files'), whether it names a source, and the config files to read.
struct CommandLineScan {
    var names: Set<String> = []
    var configFile: String?
    var noConfig = false
    var asksForHelp = false
    /// `--source`, `--playlist` or a positional source.
    var givesSource = false
    /// `--config` given twice, or empty.
    var configProblem: String?
    /// A word with one dash that is no option (loopplay has no short options but `-h`): the parser
    /// would read `-sync-epoch` as `-s -y -n … -h` and print the help.
    var singleDashWord: (word: String, meant: String?)?

    init(_ arguments: [String]) {
        var kinds = OptionKinds()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                givesSource = givesSource || index < arguments.count
                break
            }
            if argument == "-h" || argument == "--help" || argument == "--version" { asksForHelp = true }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                givesSource = true  // not an option, nor an option's value (those are skipped below)
                continue
            }
            guard argument.hasPrefix("--") else {
                if argument.count > 2, Double(argument) == nil, singleDashWord == nil {
                    let name = String(argument.dropFirst().prefix { $0 != "=" })
                    singleDashWord = (argument, kinds.kind(of: name) == .unknown ? nil : "--" + name)
                }
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            names.insert(name)
            if name == "source" || name == "playlist" { givesSource = true }
            if name == "no-config" { noConfig = true }
            guard !body.contains("="), kinds.kind(of: name) == .option, index < arguments.count else {
                if name == "config", body.contains("=") { setConfig(String(body.drop { $0 != "=" }.dropFirst())) }
                continue
            }
            if name == "config" { setConfig(arguments[index]) }
            // `--time-publishing` alone takes the default interval: its value only when it looks like one.
            if name == "time-publishing", TimePublishingArgument.withDefaultInterval([argument, arguments[index]]).count == 3 {
                continue
            }
            index += 1
        }
    }

    private mutating func setConfig(_ path: String) {
        if configFile != nil { configProblem = "give one config file (it is read after the default one)" }
        if path.isEmpty { configProblem = "needs a file name" }
        configFile = path
    }
}
