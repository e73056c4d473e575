import LoopPlayer

/// What a request asks of the player; `MPVRemote` carries it out.
package enum MPVAction: Sendable {
    /// A playback command as the library's API takes it.
    case send(PlaybackCommand)
    /// `loadfile`: play `source` now (replacing the playlist), or add it at the playlist's end.
    case load(String, append: Bool)
    /// `set`, `add`, `cycle`: a property of the player's table changed (`PlayerProperty`).
    case change(String, PropertyChange)
    /// `keypress`: what the key does in the player's window (`InputMap.mpv`).
    case press(PlayerAction)
    /// `stop`: nothing plays, and the playlist is emptied; the player waits, idle, for a `loadfile`.
    case stop
    /// `quit`: end the run; the process exits with `code`.
    case quit(code: Int32)
}

/// The player the IPC drives: its status for replies and its commands for actions.
package protocol MPVRemote: Sendable {
    var status: PlayerStatus { get }
    /// The player's queue of commands can take more (it is full while no source is ready and a
    /// client keeps sending).
    var acceptsCommands: Bool { get }
    /// Carries `action` out; for a command, the count `status.commandsApplied` reaches once it has
    /// taken effect.
    @discardableResult
    func perform(_ action: MPVAction) -> Int?
}
