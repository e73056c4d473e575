import Foundation
import LoopPlayer
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Serves a player's metrics to Prometheus at `http://HOST:PORT/metrics` (what `loopplay
/// --metrics-address` opens), on one thread of its own, with swift-nio's HTTP/1 server.
///
/// `GET`/`HEAD /metrics` answers the text format (version 0.0.4); with a player to take pictures
/// of, `/snapshot.png` and `/snapshot.jpg` answer what its screen shows (`SnapshotQuery`); `/` says
/// where the metrics are; other paths get 404, other methods 405. A request must arrive whole within 10 s and a
/// kept-alive connection may wait 30 s for the next; at most 32 connections are open
/// at once, a new one closing the oldest (so idle connections cannot lock a scraper out); a client
/// that does not read its answers is not read from either (back pressure), so none can grow the memory.
public final class MetricsServer: Sendable {
    /// Connections served at once.
    package static let maximumConnections = 32
    /// A kept-alive connection with no request for this long is closed.
    package static let idleTimeout = TimeAmount.seconds(30)
    /// A request not received whole this long after it began (or after the connection opened) ends
    /// its connection: a client sending a byte now and then cannot hold a place.
    package static let requestTimeout = TimeAmount.seconds(10)

    /// Where the server listens (the port chosen by the system when 0 was asked for).
    public let address: MetricsAddress
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let closed = Mutex(false)

    /// A picture not made this long after its request is answered 503.
    package static let snapshotTimeout = TimeAmount.seconds(10)

    /// Listens at `address` for `metrics`, and for pictures of `player`'s screen when one is given.
    /// Throws `invalidSetting` (named `metrics-address`) when the address cannot be listened on (a
    /// port in use, a host that is not this machine's).
    public init(address: MetricsAddress, metrics: PlayerMetrics, snapshotsOf player: ExtVideoPlayer? = nil) throws(PlayerError) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connections = ConnectionTable()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 << 10, high: 256 << 10))
            .childChannelInitializer { channel in
                connections.open(channel)
                channel.closeFuture.whenComplete { _ in connections.closed(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(BackPressureHandler())
                    try operations.configureHTTPServerPipeline(withErrorHandling: true)
                    try operations.addHandler(MetricsHTTPHandler(metrics: metrics, snapshots: player))
                }
            }
        do {
            do {
                listener = try bootstrap.bind(host: address.host, port: address.port).wait()
            } catch where address.host == "::" {
                listener = try bootstrap.bind(host: "0.0.0.0", port: address.port).wait()  // a machine without IPv6
            }
        } catch {
            try? group.syncShutdownGracefully()
            throw .invalidSetting(name: "metrics-address", value: address.description,
                                  reason: "cannot listen there (\(Self.describe(error)))")
        }
        self.group = group
        let port = listener.localAddress?.port ?? address.port
        self.address = MetricsAddress(host: address.host, port: port)
    }

    /// Stops listening and closes every connection.
    public func close() {
        guard closed.withLock({ closed in
            defer { closed = true }
            return !closed
        }) else { return }
        try? listener.close().wait()
        try? group.syncShutdownGracefully()
    }

    deinit { close() }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if error is SocketAddressError { return "the host is not known" }
        return "\(error)"
    }
}

/// The connections open, oldest first: a new one past `maximumConnections` closes the oldest.
private final class ConnectionTable: Sendable {
    private let channels = Mutex<[any Channel]>([])

    func open(_ channel: any Channel) {
        let evicted = channels.withLock { open -> (any Channel)? in
            open.append(channel)
            return open.count > MetricsServer.maximumConnections ? open.removeFirst() : nil
        }
        evicted?.close(promise: nil)
    }

    func closed(_ channel: any Channel) {
        channels.withLock { open in open.removeAll { $0 === channel } }
    }
}

/// Answers one HTTP request at a time on a connection (HTTP/1.1 keep-alive as Prometheus uses it;
/// NIO's pipelining handler holds the next request until the answer is sent, a picture's too).
private final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let metrics: PlayerMetrics
    private let snapshots: ExtVideoPlayer?
    private var request: HTTPRequestHead?
    /// Closes the connection unless the awaited request arrives in time.
    private var deadline: Scheduled<Void>?
    /// The request whose picture is being made (answered once: by the picture or its deadline).
    private var awaited: (number: Int, timeout: Scheduled<Void>, request: SnapshotRequest)?
    private var requestsTaken = 0

    init(metrics: PlayerMetrics, snapshots: ExtVideoPlayer?) {
        self.metrics = metrics
        self.snapshots = snapshots
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(MetricsServer.requestTimeout, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        awaited?.timeout.cancel()
        awaited?.request.abandoned.raise()  // the client went: its picture is not made
        awaited = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            request = head
            arm(MetricsServer.requestTimeout, context: context)
        case .body: break  // a scrape has no body; one sent is read past, not kept
        case .end:
            guard let request else { return }
            self.request = nil
            respond(to: request, context: context)
            arm(MetricsServer.idleTimeout, context: context)
        }
    }

    /// A request HTTP/1 cannot parse was answered 400 by NIO's error handler: the connection ends.
    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }

    /// The connection ends `after` from now unless this is called again first.
    private func arm(_ after: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: after) { channel.close(promise: nil) }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        if request.method != .GET, request.method != .HEAD {
            send(.methodNotAllowed, "only GET and HEAD\n", extra: [("Allow", "GET, HEAD")], to: request, context: context)
        } else if path == "/metrics" {
            send(.ok, context.channel.allocator.buffer(bytes: metrics.exposition()), type: "text/plain; version=0.0.4; charset=utf-8",
                 to: request, context: context)
        } else if path == "/" {
            let pictures = snapshots == nil ? "" : ", the screen at /snapshot.png and /snapshot.jpg"
            send(.ok, "loopplay: the metrics are at /metrics\(pictures)\n", to: request, context: context)
        } else if let format = SnapshotQuery.format(ofPath: path) {
            guard let snapshots else {
                send(.notFound, "not found: pictures of the screen are not served (loopplay --metrics-snapshot)\n",
                     to: request, context: context)
                return
            }
            switch SnapshotQuery.parse(parts.count > 1 ? String(parts[1]) : "") {
            case let .failure(problem): send(.badRequest, "\(problem)\n", to: request, context: context)
            case let .success(query): take(query, format: format, of: snapshots, for: request, context: context)
            }
        } else {
            send(.notFound, "not found: the metrics are at /metrics\n", to: request, context: context)
        }
    }

    /// Asks the player for the picture; the answer is sent when it is made, or 503 at the deadline.
    private func take(_ query: SnapshotQuery, format: SnapshotFormat, of player: ExtVideoPlayer,
                      for request: HTTPRequestHead, context: ChannelHandlerContext) {
        requestsTaken += 1
        let number = requestsTaken
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let capture = SnapshotRequest(content: query.content, format: format, width: query.width) { result in
            loop.execute {
                bound.value.handler.finish(number, result, format: format, request: request, context: bound.value.context)
            }
        }
        let timeout = loop.scheduleTask(in: MetricsServer.snapshotTimeout) {
            capture.abandoned.raise()  // late: not made at all, or not sent
            let late = PlayerError.renderFailed(reason: "no picture was made within \(MetricsServer.snapshotTimeout.nanoseconds / 1_000_000_000) s")
            bound.value.handler.finish(number, .failure(.unavailable(late)), format: format, request: request,
                                       context: bound.value.context)
        }
        awaited = (number, timeout, capture)
        player.capture(capture)
    }

    /// Sends the picture of request `number` (or why there is none), unless it was answered already:
    /// 503 and `Retry-After` when none could be made now, 500 when making it failed.
    private func finish(_ number: Int, _ result: Result<Data, SnapshotRequest.Failure>, format: SnapshotFormat,
                        request: HTTPRequestHead, context: ChannelHandlerContext) {
        guard let awaited, awaited.number == number else { return }
        awaited.timeout.cancel()
        self.awaited = nil
        guard context.channel.isActive else { return }
        switch result {
        case let .success(picture):
            send(.ok, context.channel.allocator.buffer(bytes: picture), type: format == .png ? "image/png" : "image/jpeg",
                 extra: [("Cache-Control", "no-store")], to: request, context: context)
        case let .failure(.unavailable(error)):
            send(.serviceUnavailable, "no picture: \(error.description)\n", extra: [("Retry-After", "1")],
                 to: request, context: context)
        case let .failure(.failed(error)):
            send(.internalServerError, "no picture: \(error.description)\n", to: request, context: context)
        }
    }

    private func send(_ status: HTTPResponseStatus, _ text: String, extra: [(String, String)] = [],
                      to request: HTTPRequestHead, context: ChannelHandlerContext) {
        send(status, context.channel.allocator.buffer(string: text), type: "text/plain; charset=utf-8", extra: extra,
             to: request, context: context)
    }

    private func send(_ status: HTTPResponseStatus, _ body: ByteBuffer, type: String, extra: [(String, String)] = [],
                      to request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders([("Content-Type", type)] + extra)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        let keepAlive = request.isKeepAlive
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
                      promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        if !keepAlive {
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
