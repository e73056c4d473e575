import Foundation
import LoopPlayer

/// One setting of a config file: `name=value` or a bare `name` (a flag), and where it was written.
struct ConfigEntry: Equatable, Sendable {
    var name: String
    var value: String?
    var file: String
    var line: Int

    /// `FILE:LINE`, as an error names the place.
    var place: String { "\(file):\(line)" }
}

/// A line of a config file that cannot be read, named by file and line.
struct ConfigError: Error, CustomStringConvertible {
    var place: String
    var reason: String

    var description: String { "\(place): \(reason)" }
}

/// `loopplay.conf` in mpv.conf's syntax: one setting a line, `name=value` or a bare flag, loopplay's
/// own option names (without `--`, which is accepted too), `#` comments, blank lines. A value may be
/// quoted (`title="Lobby — east"`) to keep its spaces or a `#`.
enum ConfigFile {
    /// A config file larger than this is refused (a config is a few lines; this bounds the memory).
    static let maximumBytes = 1 << 20

    /// The settings written in `text`, in order; throws the first line that is not one.
    static func entries(in text: String, file: String) throws(ConfigError) -> [ConfigEntry] {
        var entries: [ConfigEntry] = []
        // A byte-order mark (an editor's) is no part of the first name.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // `\r\n` is one Character in Swift: split on every kind of line end.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            let place = "\(file):\(index + 1)"
            var line = Substring(rawLine.trimmingCharacters(in: .whitespaces))
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("[") { throw ConfigError(place: place, reason: "profiles ([name]) are not supported") }
            if line.hasPrefix("--") { line = line.dropFirst(2) }
            let name: String
            var value: String?
            if let equals = line.firstIndex(of: "=") {
                name = line[..<equals].trimmingCharacters(in: .whitespaces)
                value = try Self.value(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces), place: place)
            } else {
                name = Self.withoutComment(line).trimmingCharacters(in: .whitespaces)
            }
            guard !name.isEmpty else { throw ConfigError(place: place, reason: "a setting needs a name: NAME=VALUE or NAME") }
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw ConfigError(place: place, reason: "'\(PrintableText.escaping(name))' is not an option name")
            }
            entries.append(ConfigEntry(name: name, value: value, file: file, line: index + 1))
        }
        return entries
    }

    /// A value: quoted (the quotes removed, everything inside kept) or plain (a `#` starts a comment).
    private static func value(_ text: String, place: String) throws(ConfigError) -> String {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            return withoutComment(Substring(text)).trimmingCharacters(in: .whitespaces)
        }
        let inside = text.dropFirst()
        guard let end = inside.firstIndex(of: quote) else { throw ConfigError(place: place, reason: "the quote is not closed") }
        let after = inside[inside.index(after: end)...].trimmingCharacters(in: .whitespaces)
        guard after.isEmpty || after.hasPrefix("#") else {
            throw ConfigError(place: place, reason: "text after the quoted value")
        }
        return String(inside[..<end])
    }

    private static func withoutComment(_ text: Substring) -> Substring {
        text.firstIndex(of: "#").map { text[..<$0] } ?? text
    }
}
