import Foundation

/// A minimal HTTP/1.1 GET over a plain socket, for testing the fault server itself: it reports
/// exactly what arrived and how the connection ended (closed, reset, or silent past the timeout).
enum RawHTTP {
    enum Ending: Equatable { case closed, reset, timedOut, refused }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var ending: Ending
        var seconds: Double
    }

    /// `timeout` bounds the whole read. With `bodyBytes`, once the headers and that many body
    /// bytes arrived (however long they took, within `timeout`: a hang guard) the read waits only
    /// `quiet` seconds more: what comes then is what a server sends past them.
    static func get(port: Int, path: String, method: String = "GET", headers: [String: String] = [:],
                    timeout: Double = 5, bodyBytes: Int? = nil, quiet: Double = 0.5) -> Response {
        let started = Date()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return Response(status: 0, headers: [:], body: [], ending: .refused, seconds: 0) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return Response(status: 0, headers: [:], body: [], ending: .refused, seconds: 0) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }

        var received: [UInt8] = []
        var ending = Ending.closed
        var buffer = [UInt8](repeating: 0, count: 65536)
        var arrived: Date?  // when the headers and `bodyBytes` had come
        while true {
            if arrived == nil, let bodyBytes, let split = received.firstRange(of: Array("\r\n\r\n".utf8)),
               received.count - split.upperBound >= bodyBytes {
                arrived = Date()
            }
            var left = timeout - Date().timeIntervalSince(started)
            if let arrived { left = min(left, quiet - Date().timeIntervalSince(arrived)) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&descriptor, 1, Int32(left * 1000)) > 0 else { ending = .timedOut; break }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { received += buffer[0..<count]; continue }
            ending = count == 0 ? .closed : (errno == ECONNRESET ? .reset : .closed)
            break
        }
        let seconds = Date().timeIntervalSince(started)
        guard let split = received.firstRange(of: Array("\r\n\r\n".utf8)) else {
            return Response(status: 0, headers: [:], body: [], ending: ending, seconds: seconds)
        }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: fields, body: Array(received[split.upperBound...]), ending: ending, seconds: seconds)
    }
}

/// A loopback TCP port nobody listens on now (the system's choice, let go at once).
func unusedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
