import ArgumentParser
import LoopPlayer
import LoopPlayerIPC
import LoopPlayerMetrics

/// How other programs drive a running loopplay.
struct ControlArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Listen on a Unix socket for mpv's JSON IPC (mpv client libraries, socat); "
                               + "the socket is the user's alone (0600).", valueName: "path"))
    var inputIpcServer: String?

    @Flag(help: "With nothing to play (no source given, the end, a remote control's stop), wait for a loadfile (mpv's --idle).")
    var idle = false

    @Option(help: ArgumentHelp("Serve Prometheus metrics at http://HOST:PORT/metrics (:PORT for every interface; "
                               + "port 0: one chosen by the system, said on stderr).", valueName: "host:port"))
    var metricsAddress: String?

    @Flag(help: ArgumentHelp("Also serve pictures of the screen at /snapshot.png and /snapshot.jpg (?width=N) beside the metrics; "
                             + "a :PORT address then listens on 127.0.0.1 only, /metrics included."))
    var metricsSnapshot = false

    @Flag(help: "Print the properties the IPC can get, set and observe (mpv's names and units), then exit.")
    var listProperties = false

    @Flag(name: .customLong("input-cmdlist"), help: "Print the commands the IPC takes, with their arguments, then exit (mpv's --input-cmdlist).")
    var inputCmdlist = false

    /// The listing asked for (`--list-properties`, `--input-cmdlist`), if one was.
    var listing: [String]? {
        if listProperties { return MPVListing.properties }
        return inputCmdlist ? MPVListing.commands : nil
    }

    func validate() throws {
        if inputIpcServer?.isEmpty == true { throw ValidationError("--input-ipc-server needs a socket path") }
        if let metricsAddress {
            do { _ = try MetricsAddress(parsing: metricsAddress) } catch { throw ValidationError(error.description) }
        } else if metricsSnapshot {
            throw ValidationError("--metrics-snapshot serves the pictures beside the metrics: give --metrics-address too")
        }
    }

    /// The metrics endpoint for `player`, if one was asked for. Pictures of the screen are not
    /// served to every interface unless a host says so: `:PORT` is then 127.0.0.1 alone (said).
    func startMetrics(for player: ExtVideoPlayer) throws(PlayerError) -> MetricsServer? {
        guard let metricsAddress else { return nil }
        var address = try MetricsAddress(parsing: metricsAddress)
        if metricsSnapshot, metricsAddress.hasPrefix(":") {
            address.host = "127.0.0.1"
            StandardError.line("the metrics and the screen's pictures are served on 127.0.0.1 only "
                               + "(--metrics-snapshot; give a host, e.g. 0.0.0.0\(metricsAddress) or [::]\(metricsAddress), to serve other machines)")
        }
        let server = try MetricsServer(address: address, metrics: PlayerMetrics(player: player),
                                       snapshotsOf: metricsSnapshot ? player : nil)
        if address.port == 0 { StandardError.line("metrics at \(server.address.metricsURL)") }
        return server
    }

    /// The IPC server for `player`, if one was asked for.
    func startServer(for player: ExtVideoPlayer) throws(PlayerError) -> MPVIPCServer? {
        guard let inputIpcServer else { return nil }
        return try MPVIPCServer(path: inputIpcServer, player: player)
    }
}
