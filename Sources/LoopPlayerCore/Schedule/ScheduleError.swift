/// Why a schedule file cannot be used: one error, naming the file, the line and the key,
/// e.g. `menu.yaml:7: entries[0].from: "25:00" is not a time of day (HH:MM or HH:MM:SS)`.
/// It reaches the player as `PlayerError.invalidSetting` (`playerError`).
package struct ScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for tests and counters; `reason` says it for people.
    package enum Kind: String, Sendable, Equatable {
        /// Not YAML (libyaml's or Yams' message), or characters YAML does not allow.
        case syntax
        /// Larger than `ScheduleLimits.maxBytes`, or more entries than `ScheduleLimits.maxEntries`.
        case tooLarge
        /// YAML that a schedule does not use and that could make reading it costly: anchors, aliases, tags.
        case unsupportedYAML
        /// A key the schedule does not know (a typo would otherwise be dropped silently).
        case unknownKey
        /// A key that must be there is not.
        case missingKey
        /// A list where text was expected, text where a number was expected…
        case wrongType
        /// The right type with a value that cannot be: `25:00`, `2026-02-30`, an empty playlist…
        case invalidValue
        /// Two entries with one name.
        case duplicateName
        /// The file cannot be read: missing, not a regular file, no permission.
        case unreadable
    }

    package let kind: Kind
    /// The file as it was named (path or URL).
    package let file: String
    /// 1-based; nil for what concerns the whole file (its size).
    package let line: Int?
    /// The key's path, e.g. `entries[0].from`; nil where no key applies (a syntax error).
    package let key: String?
    package let reason: String

    package init(_ kind: Kind, file: String, line: Int?, key: String?, reason: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `file:line: key: reason`, leaving out what does not apply.
    package var description: String {
        file + (line.map { ":\($0)" } ?? "") + ": " + (key.map { "\($0): " } ?? "") + reason
    }

    /// The error as the player reports it.
    package var playerError: PlayerError {
        .invalidSetting(name: "schedule", value: file, reason: description)
    }
}
