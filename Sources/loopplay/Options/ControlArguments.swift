import ArgumentParser
import LoopPlayer
import LoopPlayerIPC

/// How other programs drive a running loopplay.
struct ControlArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Listen on a Unix socket for mpv's JSON IPC (mpv client libraries, socat); "
                               + "the socket is the user's alone (0600).", valueName: "path"))
    var inputIpcServer: String?

    func validate() throws {
        if inputIpcServer?.isEmpty == true { throw ValidationError("--input-ipc-server needs a socket path") }
    }

    /// The IPC server for `player`, if one was asked for.
    func startServer(for player: ExtVideoPlayer) throws(PlayerError) -> MPVIPCServer? {
        guard let inputIpcServer else { return nil }
        return try MPVIPCServer(path: inputIpcServer, player: player)
    }
}
