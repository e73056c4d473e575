import LoopPlayer

/// Where metrics are served: a host and a port (`MetricsAddress(host: "127.0.0.1", port: 9100)`;
/// host `::` is every interface, IPv6 and IPv4; port 0 lets the system choose). `--metrics-address`
/// takes it as Prometheus's exporters do: `127.0.0.1:9100`, `[::1]:9100`, `:9100`.
public struct MetricsAddress: Sendable, Equatable, CustomStringConvertible {
    /// A name or an address (`::`: every interface, IPv6 and IPv4).
    public var host: String
    /// 0…65535; 0 lets the system choose.
    public var port: Int

    /// Where to listen, as given.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT`; throws `invalidSetting` (named `metrics-address`) saying what is wrong.
    package init(parsing text: String) throws(PlayerError) {
        func failure(_ reason: String) -> PlayerError { .invalidSetting(name: "metrics-address", value: text, reason: reason) }
        guard let colon = text.lastIndex(of: ":") else { throw failure("give HOST:PORT, e.g. 127.0.0.1:9100") }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(portText), port <= 65535 else {
            throw failure("the port must be a number from 0 to 65535")
        }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw failure("an IPv6 host is written [ADDRESS]:PORT") }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw failure("an IPv6 host is written in brackets: [ADDRESS]:PORT")
        }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { throw failure("the host is not a name or an address") }
        // Every interface: IPv6's any address, which takes IPv4 too on Linux (dual stack).
        self.init(host: host.isEmpty ? "::" : host, port: port)
    }

    /// `HOST:PORT`, with an IPv6 host in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The URL a scraper reads.
    public var metricsURL: String { "http://\(description)/metrics" }
}
