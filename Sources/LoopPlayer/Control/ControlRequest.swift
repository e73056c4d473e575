/// What the player's queue holds: a command of the public API, a change of a property by its
/// table name (the IPC's `set`, `add`, `cycle`), or what a key asked for (`keypress`). All are
/// numbered alike: `PlayerStatus.commandsApplied` counts them.
enum ControlRequest: Sendable {
    case command(PlaybackCommand)
    case property(String, PropertyChange)
    case action(PlayerAction)
    /// A server's picture of the screen (not a command of the API: hosts' servers ask for it).
    case capture(SnapshotRequest)

    /// Applied even while no source is ready (see `PlaybackCommand.appliesWithoutSource`): what
    /// chooses the playlist's item, a snapshot, quitting.
    var appliesWithoutSource: Bool {
        switch self {
        case let .command(command): command.appliesWithoutSource
        case let .property(name, _): name == "playlist-pos"
        case .capture: true
        case let .action(action): [.nextItem, .previousItem, .quit, .snapshot, .toggleFullscreen].contains(action)
        }
    }
}
