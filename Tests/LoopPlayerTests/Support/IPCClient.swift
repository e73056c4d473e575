import Foundation
@testable import LoopPlayerIPC

/// A plain Unix-socket client of loopplay's IPC: writes raw bytes (half lines, huge lines, bad
/// JSON) and reads reply lines, each read bounded by a timeout.
final class IPCClient {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard let address = UnixSocketAddress(path), address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else {
            close(descriptor)
            throw IPCClientError(description: "connect \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            // MSG_NOSIGNAL: a server that hung up is an error here, not a SIGPIPE for the test process.
            let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw IPCClientError(description: "write: \(String(cString: strerror(errno)))") }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The next line, or nil if none came within `timeout` seconds or the server closed.
    func line(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending += buffer[..<count]
        }
    }

    /// The next line that is a reply (has `error`), skipping events; as a JSON object.
    func reply(timeout: Double = 10) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = line(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if let object = Self.object(line), object["event"] == nil { return object }
        }
        return nil
    }

    /// The next event named `name` (for which `matching` holds), skipping other lines.
    func event(_ name: String, timeout: Double = 10, matching: ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = line(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if let object = Self.object(line), object["event"] as? String == name, matching(object) { return object }
        }
        return nil
    }

    /// The names of the events among the next lines up to the first event named `last` (included), skipping
    /// replies; nil if `last` never came.
    func events(through last: String, timeout: Double = 10) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        var names: [String] = []
        while let line = line(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard let name = Self.object(line)?["event"] as? String else { continue }
            names.append(name)
            if name == last { return names }
        }
        return nil
    }

    /// Sends one JSON request and returns its reply.
    func request(_ command: [Any], id: Int = 1) throws -> [String: Any]? {
        let data = try JSONSerialization.data(withJSONObject: ["command": command, "request_id": id])
        try send(String(decoding: data, as: UTF8.self) + "\n")
        return reply()
    }

    /// Sends one JSON request whose `command` is mpv's named form (an object) and returns its reply.
    func request(_ command: [String: Any], id: Int = 1) throws -> [String: Any]? {
        let data = try JSONSerialization.data(withJSONObject: command.merging(["request_id": id]) { $1 })
        try send(String(decoding: data, as: UTF8.self) + "\n")
        return reply()
    }

    static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

struct IPCClientError: Error, CustomStringConvertible {
    let description: String
}
