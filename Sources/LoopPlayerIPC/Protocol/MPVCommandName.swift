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
}
