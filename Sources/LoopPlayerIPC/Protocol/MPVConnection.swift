import Foundation
import LoopPlayer

/// One client of mpv's JSON IPC: turns its lines into replies and player actions, and keeps its
/// observed properties. Pure: the server carries the actions out and writes the lines.
///
/// A line starting with `{` is a JSON request (`{"command": ["name", args…], "request_id": N}`)
/// and gets one reply; any other line is a text command as in mpv's input.conf (`cycle pause`),
/// which gets none; an empty line or a `#` comment is skipped.
package struct MPVConnection {
    /// What handling something produced: lines to send (replies, events) and what the player must do.
    package struct Output {
        package var lines: [String] = []
        package var actions: [MPVAction] = []
    }

    private struct Observation {
        let id: Int64
        let name: String
        /// nil for a name that is no property: observed as mpv does, always without a value.
        let property: MPVProperty?
        /// `observe_property_string`: values as `get_property_string` gives them.
        let asText: Bool
        /// The value last sent (`.null` where the property was unavailable).
        var sent: JSONValue

        func value(in status: PlayerStatus) -> JSONValue {
            guard let value = try? property?.value(in: status).get() else { return .null }
            return asText ? .string(MPVConnection.plainText(value)) : value
        }
    }

    /// More observations than this on one client are refused: each is looked at on every change.
    package static let maximumObservations = 1000
    /// A playlist grown by `loadfile … append` stops here (each item costs the player work).
    package static let maximumPlaylistItems = 1000

    package let clientName: String
    /// In the order of their ids, as they are sent.
    private var observations: [Observation] = []

    package init(clientName: String) {
        self.clientName = clientName
    }

    // MARK: Requests

    /// Handles one line. `acceptsCommands` false (the player's queue is full) refuses what would
    /// queue a command with `error running command`; a client cannot pile them up.
    package mutating func handle(line: Substring, status: PlayerStatus, acceptsCommands: Bool = true) -> Output {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()
        let text = Substring(String(trimmed))
        guard let first = text.first, first != "#" else { return Output() }
        var output = Output()
        guard first == "{" else {
            // A text command: done or not, it gets no reply (as in mpv).
            if let words = Self.words(of: text), let name = words.first {
                _ = run(name, words.dropFirst().map { JSONValue.string($0) }, status: status, accepts: acceptsCommands,
                        into: &output)
            }
            return output
        }
        guard case let .object(request)? = JSONValue.parse(text) else {
            output.lines.insert(Self.reply(.failure(.invalidParameter), requestID: nil), at: 0)
            return output
        }
        let requestID = request["request_id"]
        guard let (name, arguments) = Self.command(request["command"]) else {
            output.lines.insert(Self.reply(.failure(.invalidParameter), requestID: requestID), at: 0)
            return output
        }
        let result = run(name, arguments, status: status, accepts: acceptsCommands, into: &output)
        output.lines.insert(Self.reply(result, requestID: requestID), at: 0)
        return output
    }

    /// A request's command name and arguments: `["name", args…]`, or mpv's named form
    /// (`{"name": "loadfile", "url": …, "flags": …}`).
    private static func command(_ command: JSONValue?) -> (String, [JSONValue])? {
        switch command {
        case let .array(list)?:
            guard case let .string(name)? = list.first else { return nil }
            return (name, Array(list.dropFirst()))
        case let .object(fields)?:
            guard case let .string(name)? = fields["name"], let arguments = MPVCommandName(rawValue: name)?.arguments(named: fields)
            else { return nil }
            return (name, arguments)
        default:
            return nil
        }
    }

    /// An action a synced player refuses (a toggle of a paused one plays it: allowed).
    private static func leavesTheTimeline(_ action: MPVAction, _ status: PlayerStatus) -> Bool {
        switch action {
        case let .send(command): return command.leavesTheTimeline != nil
        case let .press(action):
            if action == .nextItem || action == .previousItem { return true }
            guard let (name, change) = action.propertyChange else { return false }
            return leavesTheTimeline(.change(name, change), status)
        case let .change(name, change):
            guard let property = PlayerProperty.named(name), let value = try? property.resolve(change, in: status).get() else {
                return false
            }
            return property.leavesTimeline(value, status)
        default: return false
        }
    }

    /// `show-text TEXT [DURATION_MS [LEVEL]]`: mpv's duration in milliseconds (-1: the OSD's own),
    /// up to an hour; levels 0…3. (mpv's `${property}` expansion is not done: the text shows as sent.)
    static func showText(_ arguments: [JSONValue]) -> Result<[MPVAction], MPVError> {
        guard (1...3).contains(arguments.count), let text = arguments[0].text else { return .failure(.invalidParameter) }
        var duration: Double?
        if arguments.count > 1 {
            guard let milliseconds = arguments[1].integer, milliseconds == -1 || (0...3_600_000).contains(milliseconds) else {
                return .failure(.invalidParameter)
            }
            duration = milliseconds == -1 ? nil : Double(milliseconds) / 1000
        }
        var level = 1
        if arguments.count > 2 {
            guard let chosen = arguments[2].integer, (0...3).contains(chosen) else { return .failure(.invalidParameter) }
            level = Int(chosen)
        }
        return .success([.send(.showText(text, duration: duration, level: level))])
    }

    /// Runs one command; its reply's data (nil: none) or error. Events it causes at once (an
    /// observed property's first value) go to `output` after the reply.
    private mutating func run(_ name: String, _ arguments: [JSONValue], status: PlayerStatus, accepts: Bool,
                              into output: inout Output) -> Result<JSONValue?, MPVError> {
        guard let command = MPVCommandName(rawValue: name) else { return .failure(.invalidParameter) }
        func take(_ result: Result<[MPVAction], MPVError>) -> Result<JSONValue?, MPVError> {
            result.flatMap { actions in
                guard accepts || actions.isEmpty else { return .failure(.command) }
                output.actions += actions
                // On a shared timeline the player refuses these (and says why in an event and on
                // screen): the client hears it too, not "success".
                if status.followsSharedTimeline, actions.contains(where: { Self.leavesTheTimeline($0, status) }) {
                    return .failure(.command)
                }
                return .success(nil)
            }
        }
        let first = arguments.first?.text
        switch command {
        case .getProperty, .getPropertyString:
            guard arguments.count == 1, let name = first else { return .failure(.invalidParameter) }
            let value = property(name).flatMap { $0.value(in: status) }
            if command == .getProperty { return value.map { $0 } }
            // mpv answers an unavailable property's text with success and no text.
            if case .failure(.propertyUnavailable) = value { return .success(.null) }
            return value.map { .string(Self.plainText($0)) }
        case .setProperty, .setPropertyString, .set:
            guard arguments.count == 2, let name = first else { return .failure(.invalidParameter) }
            return take(property(name).flatMap { $0.setting(arguments[1], in: status) }.map { [.change(name, $0)] })
        case .observeProperty, .observePropertyString:
            guard arguments.count == 2, case let .int(id) = arguments[0], let name = arguments[1].text else {
                return .failure(.invalidParameter)
            }
            observations.removeAll { $0.id == id }
            guard observations.count < Self.maximumObservations else { return .failure(.command) }
            var observation = Observation(id: id, name: name, property: MPVProperty(named: name),
                                          asText: command == .observePropertyString, sent: .null)
            observation.sent = observation.value(in: status)
            observations.insert(observation, at: observations.firstIndex { $0.id > id } ?? observations.endIndex)
            output.lines.append(Self.propertyChange(id: id, name: name, value: observation.sent))
            return .success(nil)
        case .unobserveProperty:
            guard arguments.count == 1, case let .int(id) = arguments[0] else { return .failure(.invalidParameter) }
            observations.removeAll { $0.id == id }  // an id never observed is no error, as in mpv
            return .success(nil)
        case .clientName, .getVersion, .getTimeUs:
            guard arguments.isEmpty else { return .failure(.invalidParameter) }
            switch command {
            case .clientName: return .success(.string(clientName))
            case .getVersion: return .success(.int(0x2_0003))  // the mpv client API this follows
            default: return .success(.int(Int64(DispatchTime.now().uptimeNanoseconds / 1000)))
            }
        case .requestLogMessages, .enableEvent, .disableEvent:
            guard arguments.count == 1, first != nil else { return .failure(.invalidParameter) }
            return .success(nil)
        case .loadfile: return take(Self.load(arguments, status: status))
        case .playlistNext: return take(.success([.send(.next)]))
        case .playlistPrev: return take(.success([.send(.previous)]))
        case .stop: return take(.success([.stop]))
        case .playlistClear:
            guard arguments.isEmpty else { return .failure(.invalidParameter) }
            return take(.success(status.playlistItems.isEmpty ? [] : [.send(.clearPlaylist)]))
        case .playlistRemove: return take(Self.removeItem(arguments, status: status))
        case .cycleValues: return take(cycleValues(arguments, status: status))
        case .keypress:
            guard let key = first, !key.isEmpty, arguments.count <= 2 else { return .failure(.invalidParameter) }
            // What the key does in the window (mpv's bindings); an unbound key does nothing, and so does
            // `ESC`: mpv's leaves fullscreen, and a kiosk's controller sending it must not end the player.
            guard key != "ESC", let press = KeyPress(mpvName: key), let action = InputMap.mpv.action(for: press) else {
                return .success(nil)
            }
            return take(.success([.press(action)]))
        case .seek: return take(Self.seek(arguments, status: status))
        case .scheduleOverride: return take(Self.scheduleOverride(arguments, status: status))
        case .cycle: return take(cycle(arguments, status: status))
        case .add: return take(add(arguments, status: status))
        case .screenshotToFile:
            // `screenshot-to-file FILE [subtitles|video|window]`: the server answers once the file is
            // written, or with `error running command` when it could not be (`ClientHandler`).
            guard let path = first, !path.isEmpty, arguments.count <= 2,
                  let content = arguments.count == 2 ? arguments[1].text.flatMap(SnapshotContent.init(rawValue:)) : .scene
            else { return .failure(.invalidParameter) }
            return take(.success([.send(.screenshot(to: path, content: content))]))
        case .showText: return take(Self.showText(arguments))
        case .quit:
            guard arguments.count <= 1 else { return .failure(.invalidParameter) }
            let code = arguments.isEmpty ? 0 : arguments[0].integer
            guard let code, (0...255).contains(code) else { return .failure(.invalidParameter) }
            return take(.success([.quit(code: Int32(code))]))
        }
    }

    private func property(_ name: String) -> Result<MPVProperty, MPVError> {
        MPVProperty(named: name).map { .success($0) } ?? .failure(.propertyNotFound)
    }

    /// `loadfile URL [replace|append|append-play]`.
    private static func load(_ arguments: [JSONValue], status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        guard let source = arguments.first?.text, !source.isEmpty, arguments.count <= 4 else { return .failure(.invalidParameter) }
        switch arguments.dropFirst().first?.text ?? "replace" {
        case "replace": return .success([.load(source, append: false)])
        case "append", "append-play":
            guard status.playlistCount < maximumPlaylistItems else { return .failure(.command) }
            // A synced source would become a playlist, which the shared timeline refuses (`SyncTimeline`).
            guard !status.followsSharedTimeline || status.playlistCount > 1 else { return .failure(.command) }
            return .success([.load(source, append: true)])
        default: return .failure(.invalidParameter)
        }
    }

    /// `schedule-override ITEMS SECONDS [START]`: ITEMS one item or an array of them, SECONDS 1 to
    /// 86400, START Unix seconds or RFC 3339 with its offset (`2027-01-04T10:00:00+01:00`; every screen
    /// given the same one switches together); `schedule-override clear` ends it. Refused without a
    /// schedule.
    private static func scheduleOverride(_ arguments: [JSONValue], status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        guard status.schedule != nil else { return .failure(.command) }
        if arguments.first?.text == "clear" {  // a file named so is `./clear`
            return arguments.count == 1 ? .success([.send(.clearScheduleOverride)]) : .failure(.invalidParameter)
        }
        guard (2...3).contains(arguments.count), let seconds = arguments[1].number else { return .failure(.invalidParameter) }
        let items: [String]
        switch arguments[0] {
        case let .string(item): items = [item]
        case let .array(values): items = values.compactMap(\.text).count == values.count ? values.compactMap(\.text) : []
        default: items = []
        }
        var start: Date?
        if arguments.count == 3 {
            guard let instant = instant(arguments[2]) else { return .failure(.invalidParameter) }
            start = instant
        }
        guard PlaybackCommand.scheduleOverrideRefusal(items: items, seconds: seconds, from: start,
                                                      now: Date().timeIntervalSince1970) == nil else { return .failure(.invalidParameter) }
        return .success([.send(.scheduleOverride(items, seconds: seconds, from: start))])
    }

    /// Unix seconds, or RFC 3339 with its offset or `Z` (a fraction of a second allowed).
    private static func instant(_ value: JSONValue) -> Date? {
        if let seconds = value.number { return abs(seconds) < 1e11 ? Date(timeIntervalSince1970: seconds) : nil }
        guard let text = value.text, text.count <= 40 else { return nil }
        let plain = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return plain.date(from: text) ?? fractional.date(from: text)
    }

    /// `playlist-remove INDEX|current`: one item goes; the only source going is a `stop`.
    private static func removeItem(_ arguments: [JSONValue], status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        guard arguments.count == 1 else { return .failure(.invalidParameter) }
        let current = status.playlistIndex ?? (status.source == nil ? nil : 0)
        let index: Int
        if arguments[0].text == "current" {
            guard let current else { return .failure(.command) }
            index = current
        } else {
            guard let given = arguments[0].integer else { return .failure(.invalidParameter) }
            guard given >= 0, given < status.playlistCount else { return .failure(.command) }
            index = Int(given)
        }
        return .success(status.playlistItems.isEmpty ? [.stop] : [.send(.remove(at: index))])
    }

    /// `cycle-values [!reverse] NAME VALUE…`: the value after the current one (the first when the
    /// current one is not listed), compared as mpv does: as numbers, flags, or else text.
    private func cycleValues(_ arguments: [JSONValue], status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        var arguments = arguments[...]
        let reverse = arguments.first?.text == "!reverse"
        if reverse { arguments = arguments.dropFirst() }
        guard case let .string(name)? = arguments.first, arguments.count >= 2 else { return .failure(.invalidParameter) }
        let values = Array(arguments.dropFirst())
        return property(name).flatMap { property in
            let current = try? property.value(in: status).get()
            let index = current.flatMap { current in values.firstIndex { Self.same(current, $0) } }
            let next = index.map { (values.count + $0 + (reverse ? -1 : 1)) % values.count } ?? (reverse ? values.count - 1 : 0)
            return property.setting(values[next], in: status).map { [.change(name, $0)] }
        }
    }

    /// Whether a listed value is the property's value.
    private static func same(_ value: JSONValue, _ listed: JSONValue) -> Bool {
        if let number = value.number, let other = listed.number { return number == other }
        if let flag = value.flag, let other = listed.flag { return flag == other }
        return plainText(value) == plainText(listed)
    }

    /// `seek TARGET [relative|absolute|absolute-percent|relative-percent][+exact|+keyframes]`.
    private static func seek(_ arguments: [JSONValue], status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        guard let amount = arguments.first?.number, arguments.count <= 3 else { return .failure(.invalidParameter) }
        let flags = Set((arguments.dropFirst().first?.text ?? "relative").split(separator: "+").map(String.init))
        guard flags.isSubset(of: ["relative", "absolute", "absolute-percent", "relative-percent", "exact", "keyframes"]) else {
            return .failure(.invalidParameter)
        }
        guard PlayerProperty.named("time-pos")?.read(status) != nil else { return .failure(.command) }  // nothing plays
        // Relative seeks are worked out when the player applies them, from where it is then; all
        // keep the player playing or paused.
        let duration = status.duration ?? 0
        let command: PlaybackCommand = if flags.contains("absolute-percent") {
            .seek(to: duration * amount / 100, play: nil)
        } else if flags.contains("relative-percent") {
            .seekBy(duration * amount / 100)
        } else if flags.contains("absolute") {
            .seek(to: amount, play: nil)
        } else {
            .seekBy(amount)
        }
        return .success([.send(command)])
    }

    /// `cycle NAME [up|down]`: flags flip; tracks go to the next id, then none, then the first;
    /// with no tracks nothing changes.
    private func cycle(_ arguments: [JSONValue], status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        guard case let .string(name)? = arguments.first, arguments.count <= 2 else { return .failure(.invalidParameter) }
        let direction = arguments.dropFirst().first?.text ?? "up"
        guard direction == "up" || direction == "down" else { return .failure(.invalidParameter) }
        let down = direction == "down"
        return property(name).flatMap { property in
            let change = property.cycling(down: down, in: status)
            if case .failure(.propertyUnavailable) = change, case .track? = property.property?.kind { return .success([]) }
            return change.map { [.change(name, $0)] }
        }
    }

    /// `add NAME [VALUE]`: a number property moved by VALUE (1 if none), kept in its range.
    private func add(_ arguments: [JSONValue], status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        guard case let .string(name)? = arguments.first, arguments.count <= 2 else { return .failure(.invalidParameter) }
        let delta: Double
        if let given = arguments.dropFirst().first {
            guard let number = given.number else { return .failure(.invalidParameter) }
            delta = number
        } else {
            delta = 1
        }
        // A relative seek, worked out where the player is when it applies it.
        if name == "time-pos" || name == "playback-time" { return Self.seek([.double(delta), .string("relative")], status: status) }
        return property(name).flatMap { $0.adding(delta, in: status) }.map { [.change(name, $0)] }
    }

    // MARK: Changes

    /// `property-change` events for the observed properties whose value `status` changed (each
    /// against the value last sent: on the server's loop, for the observed ones alone).
    package mutating func statusChanged(_ status: PlayerStatus) -> [String] {
        var lines: [String] = []
        for index in observations.indices {
            let value = observations[index].value(in: status)
            guard value != observations[index].sent else { continue }
            observations[index].sent = value
            lines.append(Self.propertyChange(id: observations[index].id, name: observations[index].name, value: value))
        }
        return lines
    }

    /// mpv's events for a player event (ours under `loopplay-` names); none for most.
    package static func eventLines(for event: PlayerEvent) -> [String] {
        func line(_ name: String, _ fields: [String: JSONValue] = [:]) -> String {
            JSONValue.object(fields.merging(["event": .string(name)]) { $1 }).encoded
        }
        switch event {
        case .currentItemChanged: return [line("start-file")]
        case .itemStatusChanged(.readyToPlay): return [line("file-loaded")]
        case .itemStatusChanged(.failed): return [line("end-file", ["reason": .string("error")])]
        case .seek(true, _): return [line("seek")]  // `playback-restart` once its picture shows
        case .ended: return [line("end-file", ["reason": .string("eof")])]
        case .currentItemRemoved: return [line("end-file", ["reason": .string("stop")])]
        case let .loopCompleted(count): return [line("loopplay-loop-completed", ["count": .int(Int64(count))])]
        case .playlistEnded: return [line("loopplay-playlist-ended")]
        case let .scheduleChanged(entry): return [line("loopplay-schedule-changed", ["entry": .string(entry)])]
        case let .displayAlert(alert, active):
            return [line("loopplay-display-alert", ["alert": .string(alert.rawValue), "active": .bool(active)])]
        case let .played(record):
            return [line("loopplay-played", ["source": .string(record.source), "ending": .string(record.ending.rawValue),
                                             "frames-shown": .int(Int64(record.framesShown))])]
        case let .error(error):
            return [line("loopplay-error", ["kind": .string(error.kind), "message": .string(error.description)])]
        default: return []
        }
    }

    /// The event a client gets before the player goes away.
    package static let shutdownLine = JSONValue.object(["event": .string("shutdown")]).encoded

    // MARK: Forms

    static func reply(_ result: Result<JSONValue?, MPVError>, requestID: JSONValue?) -> String {
        var fields: [String: JSONValue] = [:]
        switch result {
        case let .success(data):
            fields["error"] = .string("success")
            if let data { fields["data"] = data }
        case let .failure(error):
            fields["error"] = .string(error.rawValue)
        }
        fields["request_id"] = requestID ?? .int(0)  // mpv answers 0 to a request without one
        return JSONValue.object(fields).encoded
    }

    /// mpv's event once a seek's first picture is shown.
    package static let playbackRestartLine = JSONValue.object(["event": .string("playback-restart")]).encoded

    /// An unavailable property's change has no `data`, as mpv sends it.
    private static func propertyChange(id: Int64, name: String, value: JSONValue) -> String {
        var fields: [String: JSONValue] = ["event": .string("property-change"), "id": .int(id), "name": .string(name)]
        if value != .null { fields["data"] = value }
        return JSONValue.object(fields).encoded
    }

    /// A value as `get_property_string` gives it: mpv's `yes`/`no` for flags, plain numbers and text.
    static func plainText(_ value: JSONValue) -> String {
        switch value {
        case let .bool(flag): flag ? "yes" : "no"
        case let .string(text): text
        case let .int(number): String(number)
        case let .double(number): String(format: "%.6f", number)
        default: value.encoded
        }
    }

    /// A text command's words: split at blanks, with `"…"` and `'…'` quoting; nil if a quote is
    /// left open.
    static func words(of line: Substring) -> [String]? {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { return nil }
        if inWord { words.append(current) }
        return words
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
