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
/// alone (0600). Several clients may connect; a line over 64 KiB gets an error reply
/// and is skipped; a client that stops reading its events is disconnected.
public final class MPVIPCServer: Sendable {
    /// The longest request line read.
    package static let maximumLineBytes = 1 << 16

    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let hub: NIOLoopBound<ClientHub>
    private let remote: PlayerRemote
    private let path: String
    /// The socket's file, to remove at the end only if it is still ours.
    private let socketFile: (device: UInt, inode: UInt)
    private let closed = Mutex(false)
    /// The hub's count of connected clients.
    private let clients: ClientCount
    private let latestStatus = StatusMailbox()
    /// Screenshots' ends come back to the loop through it; closed before the loop shuts down.
    private let gate: LoopGate

    /// Listens at `path` for `player`. Throws `invalidSetting` (named `input-ipc-server`) when
    /// the path is in use by a running program, is not a socket, or cannot be created. A socket
    /// left behind by a player that ended is replaced.
    public init(path: String, player: ExtVideoPlayer) throws(PlayerError) {
        let path = Self.expandingHome(path)
        func failure(_ reason: String) -> PlayerError { .invalidSetting(name: "input-ipc-server", value: path, reason: reason) }
        guard !path.isEmpty else { throw failure("the path is empty") }
        guard UnixSocketAddress(path) != nil else {
            throw failure("a socket path has at most \(UnixSocketAddress.maximumPathBytes) bytes")
        }
        try Self.clearStaleSocket(at: path, failure: failure)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let remote = PlayerRemote(player: player)
        let clients = ClientCount()
        let gate = LoopGate(loop: loop)
        let hub: NIOLoopBound<ClientHub>
        do {
            hub = try loop.submit { NIOLoopBound(ClientHub(remote: remote, count: clients), eventLoop: loop) }.wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw failure("the server's thread did not start (\(error))")
        }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 << 10, high: 1 << 20))
            // A client that closes its sending side still gets its answers (`socat` piping lines in).
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let hub = hub.value
                    guard !hub.isFull else { throw ChannelError.ioOnClosedChannel }
                    let handler = ClientHandler(clientName: hub.nextClientName(), remote: remote, hub: hub, gate: gate)
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(maximumLength: Self.maximumLineBytes)))
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        let listener: any Channel
        let file: (UInt, UInt)
        do {
            (listener, file) = try Self.bind(bootstrap, at: path)
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        (self.group, self.listener, self.hub, self.remote, self.path, self.socketFile, self.clients)
            = (group, listener, hub, remote, path, file, clients)
        self.gate = gate
        player.onStatusChange { [weak self] status in self?.statusChanged(status) }
        player.onEachEvent { [weak self] event in
            guard let self, self.clients.value > 0 else { return }
            self.onLoop { $0.event(event) }
        }
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
        gate.close()
        try? listener.close().wait()
        try? group.syncShutdownGracefully()
        // Only our socket: another program may have put something there since.
        var info = stat()
        if lstat(path, &info) == 0, UInt(info.st_dev) == socketFile.device, UInt(info.st_ino) == socketFile.inode {
            unlink(path)
        }
    }

    deinit { close() }

    /// Hands the newest status to the loop: one task at a time, however often it changes (every
    /// frame while playing); none while no client is connected.
    private func statusChanged(_ status: PlayerStatus) {
        guard clients.value > 0, latestStatus.put(status) else { return }
        let mailbox = latestStatus
        onLoop { hub in
            if let status = mailbox.take() { hub.statusChanged(status) }
        }
    }

    /// Runs `work` with the clients on the server's loop, unless the server is closed.
    private func onLoop(_ work: @escaping @Sendable (ClientHub) -> Void) {
        let hub = self.hub
        // Under the lock: `close` cannot shut the loop down between the check and the call.
        closed.withLock { closed in
            guard !closed else { return }
            listener.eventLoop.execute { work(hub.value) }
        }
    }

    /// `~` or `~/…` in the home folder (`$HOME`), as mpv reads the path.
    static func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else {
            return path
        }
        return home + path.dropFirst()
    }

    /// Removes a socket that nobody listens on any more; refuses a live one or any other file.
    private static func clearStaleSocket(at path: String, failure: (String) -> PlayerError) throws(PlayerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw failure("the path exists and is not a socket") }
        guard connectionRefused(at: path) else { throw failure("another program is listening on that socket") }
        guard unlink(path) == 0 else { throw failure("the socket left there cannot be removed (\(String(cString: strerror(errno))))") }
    }

    /// Whether connecting to the socket at `path` is refused: nobody listens (a socket left by a
    /// player that was killed). Anything else (accepted, busy, not ours to reach) means it is not
    /// stale, and it is left alone.
    private static func connectionRefused(at path: String) -> Bool {
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { Glibc.close(socketFD) }
        guard let address = UnixSocketAddress(path) else { return false }
        return address.withSockaddr { connect(socketFD, $0, $1) } != 0 && errno == ECONNREFUSED
    }

    /// Binds in a private folder (0700) beside `path`, makes the socket 0600, and renames it into
    /// place: nobody else can connect in between, and the process's umask is left alone (it is
    /// every thread's).
    private static func bind(_ bootstrap: ServerBootstrap, at path: String) throws(PlayerError) -> (any Channel, (UInt, UInt)) {
        func failure(_ reason: String) -> PlayerError { .invalidSetting(name: "input-ipc-server", value: path, reason: reason) }
        let folder = (path as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/.lp-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw failure("cannot listen there (\(String(cString: strerror(errno))))")
        }
        let privateFolder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { rmdir(privateFolder) }
        let temporary = privateFolder + "/s"
        guard UnixSocketAddress(temporary) != nil else {
            throw failure("the folder's path is too long for a socket beside it")
        }
        let listener: any Channel
        do {
            listener = try bootstrap.bind(unixDomainSocketPath: temporary).wait()
        } catch {
            unlink(temporary)
            throw failure("cannot listen there (\(describe(error)))")
        }
        // link, not rename: it fails if something appeared at the path meanwhile (another player
        // started at the same moment) instead of silently replacing it.
        var info = stat()
        guard chmod(temporary, 0o600) == 0, lstat(temporary, &info) == 0, link(temporary, path) == 0 else {
            let reason = errno == EEXIST ? "another program took the path meanwhile" : String(cString: strerror(errno))
            try? listener.close().wait()
            unlink(temporary)
            throw failure("cannot listen there (\(reason))")
        }
        unlink(temporary)
        return (listener, (UInt(info.st_dev), UInt(info.st_ino)))
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }
}

/// How many clients are connected, counted on the loop and read on the player's thread.
final class ClientCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func set(_ value: Int) { count.store(value, ordering: .relaxed) }
}

/// The newest status not yet handed to the loop.
final class StatusMailbox: Sendable {
    private let slot = Mutex<PlayerStatus?>(nil)

    /// Leaves `status` for the loop; true if the slot was empty (a task must be scheduled to take it).
    func put(_ status: PlayerStatus) -> Bool {
        slot.withLock { slot in
            defer { slot = status }
            return slot == nil
        }
    }

    func take() -> PlayerStatus? {
        slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}
