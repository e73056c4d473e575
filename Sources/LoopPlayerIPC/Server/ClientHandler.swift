import LoopPlayer
import NIOCore

/// One connected client on the server's event loop: reads its lines, answers them, and sends it
/// events while it reads them.
final class ClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = LineFrame
    typealias OutboundOut = ByteBuffer

    private var connection: MPVConnection
    private let remote: any MPVRemote
    private let hub: ClientHub
    private var context: ChannelHandlerContext?

    init(clientName: String, remote: any MPVRemote, hub: ClientHub) {
        self.connection = MPVConnection(clientName: clientName)
        self.remote = remote
        self.hub = hub
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        hub.add(self)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.remove(self)
        self.context = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let output: MPVConnection.Output
        switch unwrapInboundIn(data) {
        case let .line(buffer):
            output = connection.handle(line: Substring(String(buffer: buffer)), status: remote.status)
        case .tooLong:
            output = MPVConnection.Output(lines: [MPVConnection.reply(.failure(.invalidParameter), requestID: nil)])
        }
        send(output.lines)
        output.actions.forEach(remote.perform)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// The observed properties `status` changed.
    func statusChanged(_ status: PlayerStatus) {
        send(connection.statusChanged(status))
    }

    /// Writes `lines`. A client whose unread output has filled the buffer is let go: keeping its
    /// backlog would let one stuck client grow the player's memory without bound.
    func send(_ lines: [String]) {
        guard let context, !lines.isEmpty else { return }
        guard context.channel.isWritable else {
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

    var isFull: Bool { clients.count >= Self.maximumClients }

    /// A name for the next client (`client_name`).
    func nextClientName() -> String {
        connectionsMade += 1
        return "ipc-\(connectionsMade)"
    }

    func add(_ client: ClientHandler) { clients[ObjectIdentifier(client)] = client }
    func remove(_ client: ClientHandler) { clients[ObjectIdentifier(client)] = nil }

    func statusChanged(_ status: PlayerStatus) {
        clients.values.forEach { $0.statusChanged(status) }
    }

    func event(_ event: PlayerEvent) {
        let lines = MPVConnection.eventLines(for: event)
        guard !lines.isEmpty else { return }
        clients.values.forEach { $0.send(lines) }
    }

    func shutDown() {
        clients.values.forEach { $0.shutDown() }
    }
}
