import Foundation
import LoopPlayer
import NIOCore
import NIOPosix
import Synchronization

/// mpv's JSON IPC on a Unix socket, driving an `ExtVideoPlayer`: what `loopplay
/// --input-ipc-server PATH` opens, and what a host embedding the library can open too.
///
/// Clients send one JSON request a line (`{"command": ["set_property", "pause", true],
/// "request_id": 1}`) and get `{"error": "success", "data": …, "request_id": 1}`, or text
/// commands as in mpv's input.conf (`cycle pause`). They receive mpv's events (`property-change`
/// for what they observe, `start-file`, `file-loaded`, `end-file`, `seek`, `playback-restart`,
/// `shutdown`) and ours (`loopplay-loop-completed`, `loopplay-error`). The socket is the user's
/// alone (0600). Several clients may connect; a line over `maximumLineBytes` gets an error reply
/// and is skipped; a client that stops reading its events is disconnected.
public final class MPVIPCServer: Sendable {
    /// The longest request line read.
    public static let maximumLineBytes = 1 << 16

    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let hub: NIOLoopBound<ClientHub>
    private let remote: PlayerRemote
    private let path: String
    private let closed = Mutex(false)

    /// Listens at `path` for `player`. Throws `invalidSetting` (named `input-ipc-server`) when
    /// the path is in use by a running program, is not a socket, or cannot be created. A socket
    /// left behind by a player that ended is replaced.
    public init(path: String, player: ExtVideoPlayer) throws(PlayerError) {
        func failure(_ reason: String) -> PlayerError { .invalidSetting(name: "input-ipc-server", value: path, reason: reason) }
        guard !path.isEmpty else { throw failure("the path is empty") }
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw failure("a socket path has at most \(MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1) bytes")
        }
        try Self.clearStaleSocket(at: path, failure: failure)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let remote = PlayerRemote(player: player)
        let hub: NIOLoopBound<ClientHub>
        do {
            hub = try loop.submit { NIOLoopBound(ClientHub(), eventLoop: loop) }.wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw failure("the server's thread did not start (\(error))")
        }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 << 10, high: 1 << 20))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let clients = hub.value
                    guard !clients.isFull else { throw ChannelError.ioOnClosedChannel }
                    let handler = ClientHandler(clientName: clients.nextClientName(), remote: remote, hub: clients)
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(maximumLength: Self.maximumLineBytes)))
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        // The socket is created with the user's permissions only: nobody else may drive the player.
        let previousMask = umask(0o177)
        let listener: any Channel
        do {
            listener = try bootstrap.bind(unixDomainSocketPath: path).wait()
            umask(previousMask)
        } catch {
            umask(previousMask)
            try? group.syncShutdownGracefully()
            throw failure("cannot listen there (\(Self.describe(error)))")
        }
        chmod(path, 0o600)
        (self.group, self.listener, self.hub, self.remote, self.path) = (group, listener, hub, remote, path)
        player.onStatusChange { [weak self] status in self?.onLoop { $0.statusChanged(status) } }
        player.onEachEvent { [weak self] event in self?.onLoop { $0.event(event) } }
    }

    /// The exit code a client's `quit` asked for, once one did.
    public var requestedExitCode: Int32? { remote.requestedExitCode }

    /// Says `shutdown` to every client, closes the connections and removes the socket.
    public func close() {
        guard closed.withLock({ closed in
            defer { closed = true }
            return !closed
        }) else { return }
        let hub = self.hub
        try? listener.eventLoop.submit { hub.value.shutDown() }.wait()
        try? listener.close().wait()
        try? group.syncShutdownGracefully()
        unlink(path)
    }

    deinit { close() }

    /// Runs `work` with the clients on the server's loop, unless the server is closed.
    private func onLoop(_ work: @escaping @Sendable (ClientHub) -> Void) {
        let hub = self.hub
        // Under the lock: `close` cannot shut the loop down between the check and the call.
        closed.withLock { closed in
            guard !closed else { return }
            listener.eventLoop.execute { work(hub.value) }
        }
    }

    /// Removes a socket that nobody listens on any more; refuses a live one or any other file.
    private static func clearStaleSocket(at path: String, failure: (String) -> PlayerError) throws(PlayerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw failure("the path exists and is not a socket") }
        guard !listens(at: path) else { throw failure("another program is listening on that socket") }
        guard unlink(path) == 0 else { throw failure("the socket left there cannot be removed (\(String(cString: strerror(errno))))") }
    }

    /// Whether a connection to the socket at `path` is taken (without waiting for it).
    private static func listens(at path: String) -> Bool {
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { Glibc.close(socketFD) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8.prefix(bytes.count - 1))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0 || errno == EAGAIN || errno == EINPROGRESS
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }
}
