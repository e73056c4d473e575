import LoopPlayer
import NIOCore
import Synchronization

/// One connected client on the server's event loop: reads its lines, answers them, and sends it
/// events while it reads them.
///
/// A request that sent the player a command is answered once the player has carried it out (as
/// mpv's are), and the client's next lines are read only then, so `set pause yes` then
/// `get_property pause` reads `true` even sent in one write. None waits longer than `longestWait`,
/// but `screenshot-to-file`'s, which waits for its file to be written (as mpv's does) and says
/// `error running command` when it could not be.
final class ClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = LineFrame
    typealias OutboundOut = ByteBuffer

    /// An answer waits at most this long for its command (a player with no source ready holds them).
    static let longestWait = TimeAmount.seconds(1)

    private var connection: MPVConnection
    private let remote: any MPVRemote
    private let hub: ClientHub
    /// Brings a screenshot's end back to this loop (unless the server has closed).
    private let gate: LoopGate
    private var context: ChannelHandlerContext?
    /// Screenshots of the held answer not written yet, and whether one failed.
    private var screenshotsAwaited = 0
    private var screenshotFailed = false
    /// The answer waiting for `commandsApplied` to reach its ticket.
    private var held: (lines: [String], ticket: Int)?
    /// `commandsApplied` when an answer last waited in vain: until the player moves past it (it
    /// holds its commands, e.g. with no source ready), answers are not held again.
    private var stalledAt: Int?
    /// Lines that came while an answer was held, read once it is sent.
    private var waiting: [LineFrame] = []
    /// More lines than this waiting behind a held answer: the client floods, and is let go.
    static let maximumWaitingLines = 4096
    /// The client closed its sending side (`socat` at the end of its input): what it sent is carried
    /// out and answered, then the connection closes (mpv's behaviour).
    private var inputEnded = false
    /// The last write, which the connection's close waits for.
    private var lastWrite: EventLoopFuture<Void>?

    init(clientName: String, remote: any MPVRemote, hub: ClientHub, gate: LoopGate) {
        self.connection = MPVConnection(clientName: clientName)
        self.remote = remote
        self.hub = hub
        self.gate = gate
    }

    /// Counted from here (not from `channelActive`): the cap holds for connections that arrive together.
    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        hub.add(self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        hub.remove(self)
        let unread = self.context == nil ? [] : waiting  // a client let go for flooding: its lines are not done
        self.context = nil
        (held, waiting, screenshotsAwaited) = (nil, [], 0)
        // The client closed while an answer was held (`echo … | socat` closes at once): what it sent
        // is still carried out, in order, with no one left to answer.
        for case let .line(buffer) in unread {
            let output = connection.handle(line: Substring(String(buffer: buffer)), status: remote.status,
                                           acceptsCommands: remote.acceptsCommands)
            output.actions.forEach { remote.perform($0) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard self.context != nil else { return }  // let go (it stopped reading): its requests are not done
        let frame = unwrapInboundIn(data)
        guard held == nil else {
            waiting.append(frame)
            if waiting.count > Self.maximumWaitingLines { letGo() }
            return
        }
        handle(frame)
    }

    private func handle(_ frame: LineFrame) {
        guard let context else { return }
        let output: MPVConnection.Output
        switch frame {
        case let .line(buffer):
            output = connection.handle(line: Substring(String(buffer: buffer)), status: remote.status,
                                       acceptsCommands: remote.acceptsCommands)
        case .tooLong:
            output = MPVConnection.Output(lines: [MPVConnection.reply(.failure(.invalidParameter), requestID: nil)])
        }
        var screenshots = 0
        let ticket = output.actions.compactMap { action in
            guard case let .send(.screenshot(path, content, _)) = action else { return remote.perform(action) }
            screenshots += 1
            return remote.perform(.send(.screenshot(to: path, content: content, done: screenshotDone(context))))
        }.max()
        let applied = remote.status.commandsApplied
        if stalledAt != nil, stalledAt != applied { stalledAt = nil }
        if screenshots > 0 {
            // Held until written, however long that takes: the writer never waits on a reader, and a
            // command the player drops says it failed as it goes (`ScreenshotReply`).
            held = (output.lines, 0)
            (screenshotsAwaited, screenshotFailed) = (screenshots, false)
            return
        }
        guard let ticket, ticket > applied, stalledAt == nil else { return send(output.lines) }
        held = (output.lines, ticket)
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: Self.longestWait) { bound.value.timeOut(ticket) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case ChannelEvent.inputClosed? = event as? ChannelEvent else {
            return context.fireUserInboundEventTriggered(event)
        }
        inputEnded = true
        closeIfDone()
    }

    /// After the client's end of input: closes once every line it sent is answered.
    private func closeIfDone() {
        guard inputEnded, held == nil, waiting.isEmpty, let context else { return }
        self.context = nil
        let channel = context.channel
        if let lastWrite {
            lastWrite.whenComplete { _ in channel.close(promise: nil) }
        } else {
            context.close(promise: nil)
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

    /// The held answer waited `longestWait`: it goes out, and later ones are not held until the
    /// player carries out commands again.
    private func timeOut(_ ticket: Int) {
        guard let answer = held, answer.ticket == ticket, screenshotsAwaited == 0 else { return }
        stalledAt = remote.status.commandsApplied
        release(upTo: ticket)
    }

    /// Sends the held answer once `applied` reached its ticket, then reads the lines that waited
    /// (until one holds its answer again).
    private func release(upTo applied: Int) {
        guard let answer = held, answer.ticket <= applied, screenshotsAwaited == 0 else { return }
        held = nil
        send(screenshotFailed ? answer.lines.map(Self.failed) : answer.lines)
        screenshotFailed = false
        while held == nil, context != nil, !waiting.isEmpty {
            handle(waiting.removeFirst())
        }
        closeIfDone()
    }

    /// What a screenshot of the held answer calls when its file is written (nil) or not: back on the loop.
    private func screenshotDone(_ context: ChannelHandlerContext) -> @Sendable (PlayerError?) -> Void {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let reply = ScreenshotReply { [gate] written in gate.run { bound.value.screenshotWritten(written) } }
        return { error in reply.call(written: error == nil) }
    }

    private func screenshotWritten(_ written: Bool) {
        guard held != nil, screenshotsAwaited > 0 else { return }
        screenshotsAwaited -= 1
        if !written { screenshotFailed = true }
        release(upTo: .max)
    }

    /// A reply line turned into `error running command` (other lines as they are).
    private static func failed(_ line: String) -> String {
        guard case var .object(fields)? = JSONValue.parse(Substring(line)), fields["error"] != nil, fields["event"] == nil else {
            return line
        }
        fields["error"] = .string(MPVError.command.rawValue)
        return JSONValue.object(fields).encoded
    }

    /// Writes `lines`. A client whose unread output has filled the buffer is let go: keeping its
    /// backlog would let one stuck client grow the player's memory without bound.
    func send(_ lines: [String]) {
        guard let context, !lines.isEmpty else { return }
        guard context.channel.isWritable else { return letGo() }
        var buffer = context.channel.allocator.buffer(capacity: lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            buffer.writeString(line)
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
        lastWrite = promise.futureResult
    }

    /// Closes the connection of a client that does not read what it is sent, or floods.
    private func letGo() {
        guard let context else { return }
        self.context = nil
        (held, waiting, screenshotsAwaited) = (nil, [], 0)
        context.close(promise: nil)
    }

    /// Says `shutdown` and closes the connection (the player is going away).
    func shutDown() {
        waiting = []  // not carried out on a player that is going away
        if screenshotsAwaited > 0 { (screenshotsAwaited, screenshotFailed) = (0, true) }  // not written
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
        if case .currentItemChanged = event { restartDue = false }  // a seek that never showed: gone with its source
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

/// Says once whether a screenshot was written; a command dropped before the player carried it out
/// (the player stopped) says it was not as it goes.
final class ScreenshotReply: Sendable {
    private let report: Mutex<(@Sendable (_ written: Bool) -> Void)?>

    init(_ report: @escaping @Sendable (_ written: Bool) -> Void) {
        self.report = Mutex(report)
    }

    func call(written: Bool) {
        let report = self.report.withLock { report in
            defer { report = nil }
            return report
        }
        report?(written)
    }

    deinit { call(written: false) }
}

/// Runs work on the server's loop until the server closes (then drops it: a loop shut down takes
/// no more tasks), for what ends on another thread (a screenshot's writer).
final class LoopGate: Sendable {
    private let loop: any EventLoop
    private let closed = Mutex(false)

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func run(_ work: @escaping @Sendable () -> Void) {
        closed.withLock { closed in
            if !closed { loop.execute(work) }
        }
    }

    func close() {
        closed.withLock { $0 = true }
    }
}
