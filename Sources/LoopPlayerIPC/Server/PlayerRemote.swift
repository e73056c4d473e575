import LoopPlayer
import Synchronization

/// An `ExtVideoPlayer` as the IPC drives it; remembers the exit code a `quit` asked for.
final class PlayerRemote: MPVRemote {
    private let player: ExtVideoPlayer
    private let quitCode = Mutex<Int32?>(nil)

    init(player: ExtVideoPlayer) {
        self.player = player
    }

    var status: PlayerStatus { player.status }

    /// The code of the `quit` that ended the run, if one did.
    var requestedExitCode: Int32? { quitCode.withLock { $0 } }

    func perform(_ action: MPVAction) {
        switch action {
        case let .send(command):
            player.send(command)
        case let .load(source, append: false):
            // mpv's `replace`: this file alone, instead of the playlist.
            var settings = player.settings
            guard !settings.playlist.isEmpty || settings.sourceName != source else {
                return player.send(.seek(to: 0))  // the same file again: from its start
            }
            settings.playlist = []
            settings.sourceName = source
            player.settings = settings
        case let .load(source, append: true):
            var settings = player.settings
            if settings.playlist.isEmpty {
                // One source becomes a playlist of two (the current one starts over: it is a new list).
                settings.playlist = [settings.sourceName, source].compactMap { $0 }
                player.settings = settings
            } else {
                player.send(.insert(source, at: Int.max))
            }
        case let .loopPlaylist(loops):
            var settings = player.settings
            settings.loopPlaylist = loops
            player.settings = settings
        case let .quit(code):
            quitCode.withLock { $0 = code }
            player.stop()
        }
    }
}
