/// The URL schemes and hosts an app lets the player open: the user's source and everything it
/// leads to (variants, segments, redirects).
///
/// ```swift
/// AllowedSources(schemes: ["https"], hosts: ["*.example.com", "media.example.org"])
/// ```
/// Schemes compare without case. A host entry matches that host exactly; `*.example.com` matches
/// any subdomain (`a.example.com`, `a.b.example.com`) but not `example.com` itself; `*` matches
/// every host. IPv6 hosts are written with or without brackets (`[::1]`, `::1`). Ports are not
/// compared. Hosts apply to network URLs only (a local file has none).
public struct AllowedSources: Sendable, Equatable {
    /// Lower-cased scheme names; a bare path counts as `file`.
    public var schemes: Set<String>
    /// Host patterns; nil allows every host.
    public var hosts: [String]?

    /// Local files and http(s) from any host: what a player opens by default.
    public static let standard = AllowedSources(schemes: ["file", "http", "https"], hosts: nil)

    /// Allows these schemes (any case) and host patterns (nil: every host); defaults to `standard`.
    public init(schemes: Set<String> = ["file", "http", "https"], hosts: [String]? = nil) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.hosts = hosts.map { $0.map(Self.normalized) }
    }

    /// True if URLs with `scheme` (any case) may be opened.
    package func allows(scheme: String) -> Bool { schemes.contains(scheme.lowercased()) }

    /// True if `host` (as in a URL, any case, IPv6 with or without brackets) is allowed.
    package func allows(host: String) -> Bool {
        guard let hosts else { return true }
        let name = Self.normalized(host)
        return hosts.contains { pattern in
            if pattern == "*" { return true }
            if pattern.hasPrefix("*.") {
                // Never a wildcard for an IP literal: "*.0.0.1" must not match 127.0.0.1.
                guard !name.contains(":"), !name.allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
                return name.hasSuffix(pattern.dropFirst()) && name.count > pattern.count - 1
            }
            return name == pattern
        }
    }

    package static func normalized(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }
}
