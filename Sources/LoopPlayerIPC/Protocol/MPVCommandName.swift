/// The commands loopplay answers, by mpv's names (what `command-list` lists).
package enum MPVCommandName: String, CaseIterable, Sendable {
    case getProperty = "get_property"
    case getPropertyString = "get_property_string"
    case setProperty = "set_property"
    case setPropertyString = "set_property_string"
    case observeProperty = "observe_property"
    case observePropertyString = "observe_property_string"
    case unobserveProperty = "unobserve_property"
    case clientName = "client_name"
    case getVersion = "get_version"
    case getTimeUs = "get_time_us"
    case requestLogMessages = "request_log_messages"
    case enableEvent = "enable_event"
    case disableEvent = "disable_event"
    case loadfile
    case playlistNext = "playlist-next"
    case playlistPrev = "playlist-prev"
    case seek
    case cycle
    case set
    case add
    case screenshotToFile = "screenshot-to-file"
    case showText = "show-text"
    case quit
    case stop
    case playlistClear = "playlist-clear"
    case playlistRemove = "playlist-remove"
    case cycleValues = "cycle-values"
    case keypress
    /// loopplay's own: a timed override of the schedule (`schedule-override ITEMS SECONDS [START]`, `… clear`).
    case scheduleOverride = "schedule-override"

    /// The arguments of mpv's named form (`{"command": {"name": "seek", "target": 5}}`), in their
    /// order, each with the value that stands for it when left out before one that is given (nil:
    /// it must be given then). None for the IPC's own commands and `cycle-values`, which mpv takes
    /// in the array form alone.
    var namedArguments: [(name: String, standIn: JSONValue?)]? {
        switch self {
        case .loadfile: [("url", nil), ("flags", .string("replace")), ("index", .int(-1)), ("options", .string(""))]
        case .playlistNext, .playlistPrev, .stop: [("flags", nil)]
        case .seek: [("target", nil), ("flags", .string("relative"))]
        case .cycle, .set, .add: [("name", nil), ("value", nil)]
        case .screenshotToFile: [("filename", nil), ("flags", nil)]
        case .showText: [("text", nil), ("duration", .int(-1)), ("level", .int(1))]
        case .quit: [("code", nil)]
        case .playlistClear: []
        case .playlistRemove: [("index", nil)]
        case .keypress: [("name", nil), ("scale", nil)]
        default: nil
        }
    }

    /// The arguments of a named request, in order; nil if one is not the command's, or one before a
    /// given one is missing and has no stand-in.
    func arguments(named fields: [String: JSONValue]) -> [JSONValue]? {
        guard let parameters = namedArguments else { return nil }
        guard fields.keys.allSatisfy({ $0 == "name" || $0 == "_flags" || parameters.map(\.name).contains($0) }) else {
            return nil
        }
        var given = parameters.map { fields[$0.name] }
        while let last = given.last, last == nil { given.removeLast() }
        var arguments: [JSONValue] = []
        for (value, parameter) in zip(given, parameters) {
            guard let value = value ?? parameter.standIn else { return nil }
            arguments.append(value)
        }
        return arguments
    }
}
