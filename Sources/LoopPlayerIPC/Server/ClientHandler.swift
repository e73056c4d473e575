import LoopPlayer
import NIOCore

/// One connected client on the server's event loop: reads its lines, answers them, and sends it
/// events while it reads them.
///
/// A request that sent the player a command is answered once the player has carried it out (as
/// mpv's are), so `set pause yes` then `get_property pause` reads `true`; the answers keep their
/// order, and none waits longer than `longestWait`.
final class ClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = LineFrame
    typealias OutboundOut = ByteBuffer

    /// An answer waits at most this long for its command (a player with no source ready holds them).
    static let longestWait = TimeAmount.seconds(1)

    private var connection: MPVConnection
    private let remote: any MPVRemote
    private let hub: ClientHub
    private var context: ChannelHandlerContext?
    /// Answers waiting for `commandsApplied` to reach their ticket, in order.
    private var held: [(lines: [String], ticket: Int)] = []

    init(clientName: String, remote: any MPVRemote, hub: ClientHub) {
        self.connection = MPVConnection(clientName: clientName)
        self.remote = remote
        self.hub = hub
    }

    /// Counted from here (not from `channelActive`): the cap holds for connections that arrive together.
    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        hub.add(self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        hub.remove(self)
        self.context = nil
        held.removeAll()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard self.context != nil else { return }  // let go (it stopped reading): its requests are not done
        let output: MPVConnection.Output
        switch unwrapInboundIn(data) {
        case let .line(buffer):
            output = connection.handle(line: Substring(String(buffer: buffer)), status: remote.status,
                                       acceptsCommands: remote.acceptsCommands)
        case .tooLong:
            output = MPVConnection.Output(lines: [MPVConnection.reply(.failure(.invalidParameter), requestID: nil)])
        }
        let ticket = output.actions.compactMap { remote.perform($0) }.max()
        if let ticket, ticket > remote.status.commandsApplied {
            held.append((output.lines, ticket))
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: Self.longestWait) { bound.value.release(upTo: .max) }
        } else if held.isEmpty {
            send(output.lines)
        } else {
            held.append((output.lines, held.last?.ticket ?? 0))  // after the answers before it
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// The player's status changed: answers whose commands are done go out, then the observed
    /// properties that changed.
    func statusChanged(_ status: PlayerStatus) {
        release(upTo: status.commandsApplied)
        send(connection.statusChanged(status))
    }

    /// Sends the held answers whose tickets `applied` has reached, keeping their order.
    private func release(upTo applied: Int) {
        let ready = held.prefix { $0.ticket <= applied }
        guard !ready.isEmpty else { return }
        held.removeFirst(ready.count)
        send(ready.flatMap(\.lines))
    }

    /// Writes `lines`. A client whose unread output has filled the buffer is let go: keeping its
    /// backlog would let one stuck client grow the player's memory without bound.
    func send(_ lines: [String]) {
        guard let context, !lines.isEmpty else { return }
        guard context.channel.isWritable else {
            self.context = nil
            held.removeAll()
            context.close(promise: nil)
            return
        }
        var buffer = context.channel.allocator.buffer(capacity: lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            buffer.writeString(line)
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    /// Says `shutdown` and closes the connection (the player is going away).
    func shutDown() {
        release(upTo: .max)
        send([MPVConnection.shutdownLine])
        context?.close(promise: nil)
    }
}

/// The connected clients, on the server's event loop.
final class ClientHub {
    /// More at once are refused: each holds buffers and observations.
    static let maximumClients = 64

    private var clients: [ObjectIdentifier: ClientHandler] = [:]
    private var connectionsMade = 0
    private let remote: any MPVRemote
    /// A seek was made and its first picture has not been seen yet (`playback-restart` is due).
    private var restartDue = false
    /// How many clients are connected, for the player's thread (nothing is sent to none).
    let count: ClientCount

    init(remote: any MPVRemote, count: ClientCount) {
        self.remote = remote
        self.count = count
    }

    var isFull: Bool { clients.count >= Self.maximumClients }

    /// A name for the next client (`client_name`).
    func nextClientName() -> String {
        connectionsMade += 1
        return "ipc-\(connectionsMade)"
    }

    func add(_ client: ClientHandler) {
        clients[ObjectIdentifier(client)] = client
        count.set(clients.count)
    }

    func remove(_ client: ClientHandler) {
        clients[ObjectIdentifier(client)] = nil
        count.set(clients.count)
    }

    func statusChanged(_ status: PlayerStatus) {
        clients.values.forEach { $0.statusChanged(status) }
        restartIfShown(status)
    }

    func event(_ event: PlayerEvent) {
        let lines = MPVConnection.eventLines(for: event)
        clients.values.forEach { $0.send(lines) }
        if case .seek(true, _) = event {
            restartDue = true
            restartIfShown(remote.status)  // a paused player may have shown it already
        }
    }

    private func restartIfShown(_ status: PlayerStatus) {
        guard restartDue, !status.seeking else { return }
        restartDue = false
        clients.values.forEach { $0.send([MPVConnection.playbackRestartLine]) }
    }

    func shutDown() {
        clients.values.forEach { $0.shutDown() }
    }
}
