import Foundation

/// A Unix socket's address: a path, or `@name` in Linux's abstract namespace (systemd's
/// `NOTIFY_SOCKET` may be either).
struct UnixSocketAddress: Sendable {
    /// The longest path a socket address holds.
    static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private var storage = sockaddr_un()
    /// The address's length as the kernel counts it: a path with its NUL, an abstract name without.
    let length: socklen_t

    /// nil if `path` is empty or longer than `maximumPathBytes`.
    init?(_ path: String) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumPathBytes else { return nil }
        let abstract = path.hasPrefix("@")
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            if abstract { buffer[0] = 0 }
        }
        length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
    }

    /// Calls `body` with the address as the socket calls take it.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
