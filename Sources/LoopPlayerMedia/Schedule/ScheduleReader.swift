import Foundation
import LoopPlayerCore
import Yams

/// Turns the composed YAML tree into a `Schedule`, checking every key and value on the way.
/// Reads only what a schedule has, so it never walks a structure it does not expect.
struct ScheduleReader {
    let file: String
    let systemTimeZone: TimeZone

    private static let rootKeys = ["timezone", "default", "sync", "entries"]
    private static let defaultKeys = ["playlist"]
    private static let entryKeys = ["name", "days", "dates", "from", "to", "playlist", "priority", "loop", "switch"]

    func schedule(from root: Node?) throws(ScheduleError) -> Schedule {
        guard let root else {
            throw error(.missingKey, line: 1, key: "default", "required but missing (what plays when no entry is on)")
        }
        let fields = try mapping(root, path: nil, allowed: Self.rootKeys)
        var timeZone = systemTimeZone
        if let node = fields["timezone"] {
            let name = try text(node, path: "timezone")
            // Foundation also takes abbreviations and offsets (`GMT+2`, `CET`) that follow no
            // daylight-saving rules of a place: only the tz database's Area/Location names are zones
            // (its list of known names misses some, Asia/Kolkata among them).
            let isAreaName = name.contains("/") && !name.hasPrefix("/") && !name.contains("..")
            guard name == "UTC" || isAreaName, let zone = TimeZone(identifier: name) else {
                throw error(.invalidValue, node, key: "timezone",
                            "\(quoted(name)) is not a known time zone (an IANA name such as Europe/Berlin)")
            }
            timeZone = zone
        }
        guard let defaultNode = fields["default"] else {
            throw error(.missingKey, line: fields.line, key: "default",
                        "required but missing (what plays when no entry is on)")
        }
        let defaultFields = try mapping(defaultNode, path: "default", allowed: Self.defaultKeys)
        let defaultPlaylist = try playlist(in: defaultFields, path: "default")
        let sync = try fields["sync"].map { node throws(ScheduleError) in try bool(node, path: "sync") } ?? false
        var entries: [ScheduleEntry] = []
        if let node = fields["entries"] {
            let list = try sequence(node, path: "entries")
            guard list.count <= ScheduleLimits.maxEntries else {
                throw error(.tooLarge, node, key: "entries",
                            "\(list.count) entries is more than a schedule may hold (\(ScheduleLimits.maxEntries))")
            }
            var names: [String: Int] = [:]
            for (index, item) in list.enumerated() {
                let (entry, nameLine) = try entry(item, path: "entries[\(index)]")
                if let first = names[entry.name] {
                    throw error(.duplicateName, line: nameLine, key: "entries[\(index)].name",
                                "\(quoted(entry.name)) is already the name of entries[\(first)]")
                }
                names[entry.name] = index
                entries.append(entry)
            }
        }
        return Schedule(file: file, timeZone: timeZone, defaultPlaylist: defaultPlaylist, sync: sync, entries: entries)
    }

    /// The entry, and the line of its name (for a duplicate's message).
    private func entry(_ node: Node, path: String) throws(ScheduleError) -> (ScheduleEntry, nameLine: Int) {
        let fields = try mapping(node, path: path, allowed: Self.entryKeys)
        let nameNode = try required("name", in: fields, path: path)
        let name = try text(nameNode, path: path + ".name")
        // `default` and `override` are what the player says for the default and for a `loadfile`.
        guard !["default", "override"].contains(name.lowercased()), !name.contains(where: \.isWhitespace),
              name.count <= 100 else {
            throw error(.invalidValue, nameNode, key: path + ".name",
                        "\(quoted(name)) cannot name an entry (one word of at most 100 characters, and not \"default\" or \"override\")")
        }
        let days = try fields["days"].map { node throws(ScheduleError) in try weekdays(node, path: path + ".days") }
        let dates = try fields["dates"].map { node throws(ScheduleError) in try dateRange(node, path: path + ".dates") }
        let fromNode = try required("from", in: fields, path: path)
        let from = try time(fromNode, path: path + ".from")
        guard from != .endOfDay else {
            throw error(.invalidValue, fromNode, key: path + ".from", "\"\(from)\" is only an end time (to), not a start")
        }
        let toNode = try required("to", in: fields, path: path)
        let to = try time(toNode, path: path + ".to")
        guard to != from else {
            throw error(.invalidValue, toNode, key: path + ".to", "\"\(to)\" is the same as from: the window would be"
                            + " empty (for a whole day write from \"00:00\" to \"24:00\")")
        }
        let entry = ScheduleEntry(
            name: name, days: days ?? Set(ScheduleWeekday.allCases), dates: dates, from: from, to: to,
            playlist: try playlist(in: fields, path: path),
            priority: try fields["priority"].map { node throws(ScheduleError) in try priority(node, path: path + ".priority") } ?? 0,
            loop: try fields["loop"].map { node throws(ScheduleError) in try bool(node, path: path + ".loop") } ?? true,
            switchMode: try fields["switch"].map { node throws(ScheduleError) in try switchMode(node, path: path + ".switch") } ?? .atTime,
            line: fields.line)
        return (entry, line(of: nameNode))
    }

    // MARK: - Values

    private func playlist(in fields: Fields, path: String) throws(ScheduleError) -> [ScheduleItem] {
        let node = try required("playlist", in: fields, path: path)
        let items = try sequence(node, path: path + ".playlist")
        guard !items.isEmpty else {
            throw error(.invalidValue, node, key: path + ".playlist", "is empty: a playlist needs at least one file or URL")
        }
        var playlist: [ScheduleItem] = []
        for (index, item) in items.enumerated() {
            playlist.append(ScheduleItem(written: try text(item, path: path + ".playlist[\(index)]"), relativeTo: file))
        }
        return playlist
    }

    private func weekdays(_ node: Node, path: String) throws(ScheduleError) -> Set<ScheduleWeekday> {
        let list = try sequence(node, path: path)
        guard !list.isEmpty else {
            throw error(.invalidValue, node, key: path, "is empty: the entry would never play (leave days out for every day)")
        }
        var days = Set<ScheduleWeekday>()
        for (index, item) in list.enumerated() {
            let name = try text(item, path: path + "[\(index)]")
            guard let day = ScheduleWeekday(rawValue: name) else {
                throw error(.invalidValue, item, key: path + "[\(index)]",
                            "\(quoted(name)) is not a day (mon, tue, wed, thu, fri, sat, sun)")
            }
            guard days.insert(day).inserted else {
                throw error(.invalidValue, item, key: path + "[\(index)]", "\(quoted(name)) is listed twice")
            }
        }
        return days
    }

    /// One date, or a list of one or two: an inclusive range.
    private func dateRange(_ node: Node, path: String) throws(ScheduleError) -> ClosedRange<ScheduleDate> {
        guard case .sequence = node else {
            let day = try date(node, path: path)
            return day...day
        }
        let list = try sequence(node, path: path)
        guard (1...2).contains(list.count) else {
            throw error(.invalidValue, node, key: path,
                        "expected one date or two (an inclusive range), found \(list.count)")
        }
        let first = try date(list[0], path: path + "[0]")
        let last = list.count == 2 ? try date(list[1], path: path + "[1]") : first
        guard first <= last else {
            throw error(.invalidValue, list[1], key: path, "ends (\(last)) before it starts (\(first))")
        }
        return first...last
    }

    private func date(_ node: Node, path: String) throws(ScheduleError) -> ScheduleDate {
        let value = try text(node, path: path)
        guard let date = ScheduleDate(value) else {
            throw error(.invalidValue, node, key: path, "\(quoted(value)) is not a date (YYYY-MM-DD)")
        }
        return date
    }

    private func time(_ node: Node, path: String) throws(ScheduleError) -> ScheduleTime {
        let value = try text(node, path: path)
        guard let time = ScheduleTime(value) else {
            throw error(.invalidValue, node, key: path, "\(quoted(value)) is not a time of day (HH:MM or HH:MM:SS)")
        }
        return time
    }

    private func priority(_ node: Node, path: String) throws(ScheduleError) -> Int {
        let value = try integer(node, path: path)
        guard ScheduleLimits.priorities.contains(value) else {
            throw error(.invalidValue, node, key: path, "\(value) is outside \(ScheduleLimits.priorities.lowerBound)"
                            + "...\(ScheduleLimits.priorities.upperBound)")
        }
        return value
    }

    private func switchMode(_ node: Node, path: String) throws(ScheduleError) -> ScheduleSwitch {
        let value = try text(node, path: path)
        guard let mode = ScheduleSwitch(rawValue: value) else {
            throw error(.invalidValue, node, key: path, "\(quoted(value)) is not a way to switch (at-time or after-pass)")
        }
        return mode
    }

    // MARK: - Types

    /// A mapping's values by key (text keys, each one the schedule knows).
    struct Fields {
        let line: Int
        let values: [String: Node]
        subscript(key: String) -> Node? { values[key] }
    }

    private func mapping(_ node: Node, path: String?, allowed: [String]) throws(ScheduleError) -> Fields {
        guard case let .mapping(mapping) = node else {
            throw error(.wrongType, node, key: path,
                        "expected a mapping of \(allowed.joined(separator: ", ")), found \(kind(of: node))")
        }
        try refuseTag(mapping.tag, allowing: .map, node, path: path)
        var values: [String: Node] = [:]
        for (key, value) in mapping {
            let keyPath = { (name: String) in path.map { "\($0).\(name)" } ?? name }
            // Keys are read as text only: a key that is a list or a mapping is never looked into.
            guard case let .scalar(scalar) = key else {
                throw error(.wrongType, key, key: path, "a key must be text, found \(kind(of: key))")
            }
            guard allowed.contains(scalar.string) else {
                throw error(.unknownKey, key, key: keyPath(scalar.string),
                            "unknown key (expected one of: \(allowed.joined(separator: ", ")))")
            }
            values[scalar.string] = value
        }
        return Fields(line: line(of: node), values: values)
    }

    private func required(_ key: String, in fields: Fields, path: String) throws(ScheduleError) -> Node {
        guard let node = fields[key] else {
            throw error(.missingKey, line: fields.line, key: path + "." + key, "required but missing")
        }
        return node
    }

    private func sequence(_ node: Node, path: String) throws(ScheduleError) -> [Node] {
        guard case let .sequence(sequence) = node else {
            throw error(.wrongType, node, key: path, "expected a list, found \(kind(of: node))")
        }
        try refuseTag(sequence.tag, allowing: .seq, node, path: path)
        return Array(sequence)
    }

    /// Text that is not empty and holds no control characters (a line break in a name or a path is a mistake).
    private func text(_ node: Node, path: String) throws(ScheduleError) -> String {
        let scalar = try plainOrQuotedScalar(node, path: path, expected: "text")
        guard !scalar.string.isEmpty else { throw error(.invalidValue, node, key: path, "is empty") }
        guard !scalar.string.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw error(.invalidValue, node, key: path, "contains a control character (a line break, a tab…)")
        }
        return scalar.string
    }

    /// YAML 1.1's booleans, unquoted: `true`/`false`, `yes`/`no`, `on`/`off`.
    private func bool(_ node: Node, path: String) throws(ScheduleError) -> Bool {
        let scalar = try plainOrQuotedScalar(node, path: path, expected: "true or false")
        if scalar.style == .plain, scalar.tag.rawValue.isEmpty {
            switch scalar.string.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: break
            }
        }
        throw error(.wrongType, node, key: path, "expected true or false, found \(kind(of: node))")
    }

    /// A whole number written in decimal, unquoted.
    private func integer(_ node: Node, path: String) throws(ScheduleError) -> Int {
        let scalar = try plainOrQuotedScalar(node, path: path, expected: "a whole number")
        let digits = scalar.string.hasPrefix("-") || scalar.string.hasPrefix("+") ? scalar.string.dropFirst() : Substring(scalar.string)
        guard scalar.style == .plain, scalar.tag.rawValue.isEmpty, !digits.isEmpty, digits.count <= 18,
              digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(scalar.string) else {
            throw error(.wrongType, node, key: path, "expected a whole number, found \(kind(of: node))")
        }
        return value
    }

    private func plainOrQuotedScalar(_ node: Node, path: String, expected: String) throws(ScheduleError) -> Node.Scalar {
        guard case let .scalar(scalar) = node, !isNull(scalar) else {
            throw error(.wrongType, node, key: path, "expected \(expected), found \(kind(of: node))")
        }
        try refuseTag(scalar.tag, allowing: .str, node, path: path)
        return scalar
    }

    /// Explicit tags (`!!binary`, `!custom`) are not part of a schedule; Yams gives quoted text the
    /// tag `str`, and `!!str`, `!!seq` and `!!map` say what the node is anyway.
    private func refuseTag(_ tag: Tag, allowing kind: Tag.Name, _ node: Node, path: String?) throws(ScheduleError) {
        guard tag.rawValue.isEmpty || tag.rawValue == kind.rawValue else {
            throw error(.unsupportedYAML, node, key: path, "YAML tags (\(tag.rawValue)) are not used in a schedule")
        }
    }

    private func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// What a node is, for "expected …, found …".
    private func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case let .scalar(scalar):
            if isNull(scalar) { return "nothing" }
            return quoted(scalar.string)
        }
    }

    // MARK: - Errors

    /// A value in quotes for a message: at most 60 characters, control characters escaped.
    private func quoted(_ value: String) -> String {
        let shown = value.count > 60 ? String(value.prefix(60)) + "…" : value
        return "\"" + shown.unicodeScalars.map { $0.properties.generalCategory == .control
            ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }

    private func line(of node: Node) -> Int { node.mark?.line ?? 1 }

    private func error(_ kind: ScheduleError.Kind, _ node: Node, key: String?, _ reason: String) -> ScheduleError {
        error(kind, line: line(of: node), key: key, reason)
    }

    private func error(_ kind: ScheduleError.Kind, line: Int, key: String?, _ reason: String) -> ScheduleError {
        ScheduleError(kind, file: file, line: line, key: key, reason: reason)
    }
}
