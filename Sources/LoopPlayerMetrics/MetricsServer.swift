import LoopPlayer
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Serves a player's metrics to Prometheus at `http://HOST:PORT/metrics` (what `loopplay
/// --metrics-address` opens), on one thread of its own, with swift-nio's HTTP/1 server.
///
/// `GET`/`HEAD /metrics` answers the text format (version 0.0.4); `/` says where the metrics are;
/// other paths get 404, other methods 405. A request must arrive whole within 10 s and a
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

    /// Listens at `address` for `metrics`. Throws `invalidSetting` (named `metrics-address`) when
    /// the address cannot be listened on (a port in use, a host that is not this machine's).
    public init(address: MetricsAddress, metrics: PlayerMetrics) throws(PlayerError) {
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
                    try operations.addHandler(MetricsHTTPHandler(metrics: metrics))
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

/// Answers one HTTP request at a time on a connection (HTTP/1.1 keep-alive as Prometheus uses it).
private final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let metrics: PlayerMetrics
    private var request: HTTPRequestHead?
    /// Closes the connection unless the awaited request arrives in time.
    private var deadline: Scheduled<Void>?

    init(metrics: PlayerMetrics) { self.metrics = metrics }

    func channelActive(context: ChannelHandlerContext) {
        arm(MetricsServer.requestTimeout, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
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
        let path = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var headers = HTTPHeaders()
        let status: HTTPResponseStatus
        let body: [UInt8]
        if request.method != .GET, request.method != .HEAD {
            (status, body) = (.methodNotAllowed, Array("only GET and HEAD\n".utf8))
            headers.add(name: "Allow", value: "GET, HEAD")
        } else if path == "/metrics" {
            (status, body) = (.ok, metrics.exposition())
            headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
        } else if path == "/" {
            (status, body) = (.ok, Array("loopplay: the metrics are at /metrics\n".utf8))
        } else {
            (status, body) = (.notFound, Array("not found: the metrics are at /metrics\n".utf8))
        }
        if headers["Content-Type"].isEmpty { headers.add(name: "Content-Type", value: "text/plain; charset=utf-8") }
        headers.add(name: "Content-Length", value: String(body.count))
        let keepAlive = request.isKeepAlive
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
                      promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        if !keepAlive {
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
