import LoopPlayer
import Synchronization

/// An `ExtVideoPlayer` as the IPC drives it; remembers the exit code a `quit` asked for.
final class PlayerRemote: MPVRemote {
    /// Commands waiting for a source, beyond which the IPC refuses more.
    static let maximumQueuedCommands = 256

    private let player: ExtVideoPlayer
    private let quitCode = Mutex<Int32?>(nil)

    init(player: ExtVideoPlayer) {
        self.player = player
    }

    var status: PlayerStatus { player.status }

    var acceptsCommands: Bool { player.queuedCommandCount < Self.maximumQueuedCommands }

    /// The code of the `quit` that ended the run, if one did.
    var requestedExitCode: Int32? { quitCode.withLock { $0 } }

    @discardableResult
    func perform(_ action: MPVAction) -> Int? {
        switch action {
        case let .send(command):
            player.send(command)
            return player.commandsSent
        case let .load(source, append: false):
            // mpv's `replace`: this file alone, instead of the playlist; the same file again starts over.
            let current = player.settings
            if current.playlist.isEmpty, current.sourceName == source {
                guard case .failed = player.state else {
                    player.send(.seek(to: 0, play: true))
                    return player.commandsSent
                }
                player.retry()
                return nil
            }
            player.updateSettings { settings in
                settings.playlist = []
                settings.sourceName = source
            }
        case let .load(source, append: true):
            // On a schedule the list is the entry's: the item goes at its end until the next change
            // (an entry of one item has none: an error event says so).
            guard player.settings.playlist.isEmpty, player.settings.schedule == nil else {
                player.send(.insert(source, at: Int.max))
                return player.commandsSent
            }
            // One source becomes a playlist of two (it plays on, the new one follows); with none, the
            // source alone plays.
            player.updateSettings { settings in
                if let current = settings.sourceName { settings.playlist = [current, source] } else { settings.sourceName = source }
            }
        case let .change(name, change):
            player.change(name, change)
            return player.commandsSent
        case let .press(action):
            player.press(action)
            return player.commandsSent
        case .stop:
            // mpv's: without --idle, stopping ends the player (as quit does); with it, nothing plays.
            guard player.settings.idles else {
                quitCode.withLock { $0 = 0 }
                player.stop()
                return nil
            }
            player.updateSettings { settings in
                (settings.playlist, settings.sourceName) = ([], nil)
            }
        case let .quit(code):
            quitCode.withLock { $0 = code }
            player.stop()
        }
        return nil
    }
}
