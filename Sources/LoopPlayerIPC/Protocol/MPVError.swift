/// mpv's error replies, by the text its IPC sends (`mpv_error_string`): a client library matches on
/// these strings.
package enum MPVError: String, Error, Sendable {
    case invalidParameter = "invalid parameter"
    case propertyNotFound = "property not found"
    case propertyFormat = "unsupported format for accessing property"
    case propertyUnavailable = "property unavailable"
    case propertyError = "error accessing property"
    case command = "error running command"
    case notImplemented = "operation not implemented"
}
