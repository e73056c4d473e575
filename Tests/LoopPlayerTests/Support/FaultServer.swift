import Foundation
import XCTest

/// A real HTTP server on 127.0.0.1 (`fault_server.py`, Python's standard library) serving a folder,
/// with faults set while it runs and a request log the test reads back.
///
/// ```swift
/// let server = try FaultServer(root: folder)
/// try server.setFaults([FaultRule(prefix: "/hls/720/", throttle: 50_000), FaultRule(pattern: "seg003", status: 404)])
/// let url = server.url("/hls/master.m3u8")
/// server.stop(); try server.restart()          // the same port again
/// let log = try server.requestLog()
/// ```
/// Faults live in a control file the server reads on every request, so they apply at once and
/// survive a restart; `clearFaults()` removes them. Every wait is bounded.
// @unchecked: a test drives it from one thread at a time (a helper thread may stop and restart it).
final class FaultServer: @unchecked Sendable {
    let root: URL
    /// The port the server listens on; a restart keeps it.
    private(set) var port: Int
    private let stateFolder: URL
    private let controlFile: URL
    private let logFile: URL
    private var process: Process?

    static let script: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("fault_server.py").path

    /// Serves https with a self-signed certificate (FFmpeg does not verify by default) instead of http.
    let tls: Bool

    /// Starts serving `root` on `port` (0: an ephemeral port), over TLS when `tls`.
    init(root: URL, port: Int = 0, tls: Bool = false, startTimeout: TimeInterval = 10) throws {
        self.root = root
        self.port = port
        self.tls = tls
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("fault-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        stateFolder = state
        controlFile = state.appendingPathComponent("control.json")
        logFile = state.appendingPathComponent("requests.jsonl")
        try Data("{}".utf8).write(to: controlFile)
        try start(timeout: startTimeout)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: stateFolder)
    }

    var baseURL: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

    /// The server's URL for `path` ("/hls/master.m3u8").
    func url(_ path: String) -> String { baseURL + (path.hasPrefix("/") ? path : "/" + path) }

    var isRunning: Bool { process?.isRunning ?? false }

    /// Kills the server at once (SIGKILL: open connections end as if the machine went away).
    func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = waitFor(timeout: 5) { !process.isRunning }
    }

    /// Starts the server again on the same port (the faults and the log carry over).
    func restart(timeout: TimeInterval = 10) throws {
        stop()
        // The old listening socket may take a moment to be released even with SO_REUSEADDR: tried
        // again until it starts.
        let deadline = Date().addingTimeInterval(timeout)
        var failure: Error?
        let started = pollFor(timeout: timeout) { () -> Bool? in
            do {
                try start(timeout: max(0.5, deadline.timeIntervalSinceNow))
                return true
            } catch {
                failure = error
                return nil
            }
        }
        if started == nil { throw failure ?? FaultServerError.didNotStart(port: port) }
    }

    // MARK: Faults

    /// Replaces the fault rules (the first matching rule applies to a request). `acceptRanges:
    /// false` makes the server ignore Range headers and answer 200 with the whole file.
    func setFaults(_ rules: [FaultRule], acceptRanges: Bool = true) throws {
        let object: [String: Any] = ["acceptRanges": acceptRanges, "rules": rules.map(\.json),
                                     "generation": UUID().uuidString]
        let data = try JSONSerialization.data(withJSONObject: object)
        // Written aside and renamed, so the server never reads half a file.
        let partial = controlFile.appendingPathExtension("part")
        try data.write(to: partial)
        guard rename(partial.path, controlFile.path) == 0 else { throw FaultServerError.controlFileNotWritten(errno) }
    }

    func clearFaults() throws { try setFaults([]) }

    // MARK: Request log

    struct Request: Equatable {
        var method: String
        var path: String
        var range: String?
        /// 0 while the request is still being answered.
        var status: Int
        var bytes: Int
        /// ok, truncated, dropped, stalled, clientGone; nil while the request is still being answered.
        var outcome: String?
        var start: Date
        var end: Date?
    }

    /// Every request since the server was first started, in arrival order.
    func requestLog() throws -> [Request] {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return [] }
        var requests: [String: Request] = [:]
        var order: [String] = []
        for line in text.split(separator: "\n") {
            guard let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = entry["id"] as? String, let time = entry["time"] as? Double else { continue }
            if entry["event"] as? String == "begin" {
                order.append(id)
                requests[id] = Request(method: entry["method"] as? String ?? "", path: entry["path"] as? String ?? "",
                                       range: entry["range"] as? String, status: 0, bytes: 0, outcome: nil,
                                       start: Date(timeIntervalSince1970: time), end: nil)
            } else if var request = requests[id] {
                request.status = entry["status"] as? Int ?? 0
                request.bytes = entry["bytes"] as? Int ?? 0
                request.outcome = entry["outcome"] as? String
                request.end = Date(timeIntervalSince1970: time)
                requests[id] = request
            }
        }
        return order.compactMap { requests[$0] }
    }

    /// Waits (bounded) until the log holds a request matching `predicate`; returns it.
    @discardableResult
    func waitForRequest(timeout: TimeInterval = 5, where predicate: (Request) -> Bool) throws -> Request? {
        try pollFor(timeout: timeout) { try requestLog().first(where: predicate) }
    }

    // MARK: Process

    private func start(timeout: TimeInterval) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", Self.script, "--root", root.path, "--control", controlFile.path,
                             "--log", logFile.path, "--port", String(port)]
        if tls {
            let (certificate, key) = try Self.selfSignedCertificate()
            process.arguments? += ["--tls-cert", certificate, "--tls-key", key]
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw requirementMissing("python3 cannot run: \(error)") }
        guard let line = Self.readLine(from: output.fileHandleForReading, timeout: timeout),
              let number = Int(line.split(separator: " ").last ?? "") else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw FaultServerError.didNotStart(port: port)
        }
        port = number
        self.process = process
    }

    /// A certificate and key for 127.0.0.1 made once per test run with openssl.
    private static func selfSignedCertificate() throws -> (certificate: String, key: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fault-server-tls-\(getpid())")
        let certificate = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        if FileManager.default.fileExists(atPath: certificate) { return (certificate, key) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-keyout", key + ".part", "-out", certificate + ".part"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw requirementMissing("openssl cannot run: \(error)") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw requirementMissing("openssl could not make a certificate") }
        guard rename(key + ".part", key) == 0, rename(certificate + ".part", certificate) == 0 else {
            throw FaultServerError.controlFileNotWritten(errno)
        }
        return (certificate, key)
    }

    /// One line from `handle`, or nil after `timeout` seconds.
    private static func readLine(from handle: FileHandle, timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !bytes.contains(UInt8(ascii: "\n")) {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0, poll(&descriptor, 1, left) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(handle.fileDescriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

enum FaultServerError: Error, CustomStringConvertible {
    case didNotStart(port: Int)
    case controlFileNotWritten(Int32)
    var description: String {
        switch self {
        case let .didNotStart(port): "the fault server did not start on port \(port)"
        case let .controlFileNotWritten(code): "the fault server's control file was not written: errno \(code)"
        }
    }
}

/// One fault: applies to requests whose path matches `pattern` (a regular expression; nil: all).
struct FaultRule {
    var pattern: String?
    var status: Int?
    var redirect: String?
    var stall = false
    var stallAfter: Int?
    var truncateAfter: Int?
    var dropAfter: Int?
    /// Bytes per second for the body.
    var throttle: Int?
    /// Seconds before answering.
    var delay: Double?
    /// How many requests it applies to (nil: all).
    var times: Int?

    init(pattern: String? = nil, status: Int? = nil, redirect: String? = nil, stall: Bool = false,
         stallAfter: Int? = nil, truncateAfter: Int? = nil, dropAfter: Int? = nil, throttle: Int? = nil,
         delay: Double? = nil, times: Int? = nil) {
        self.pattern = pattern
        self.status = status
        self.redirect = redirect
        self.stall = stall
        self.stallAfter = stallAfter
        self.truncateAfter = truncateAfter
        self.dropAfter = dropAfter
        self.throttle = throttle
        self.delay = delay
        self.times = times
    }

    /// A rule for every path starting with `prefix`.
    init(prefix: String, status: Int? = nil, stall: Bool = false, stallAfter: Int? = nil, truncateAfter: Int? = nil,
         dropAfter: Int? = nil, throttle: Int? = nil, times: Int? = nil) {
        self.init(pattern: "^" + NSRegularExpression.escapedPattern(for: prefix), status: status, stall: stall,
                  stallAfter: stallAfter, truncateAfter: truncateAfter, dropAfter: dropAfter, throttle: throttle,
                  times: times)
    }

    var json: [String: Any] {
        var object: [String: Any] = [:]
        if let pattern { object["pattern"] = pattern }
        if let status { object["status"] = status }
        if let redirect { object["redirect"] = redirect }
        if stall { object["stall"] = true }
        if let stallAfter { object["stallAfter"] = stallAfter }
        if let truncateAfter { object["truncateAfter"] = truncateAfter }
        if let dropAfter { object["dropAfter"] = dropAfter }
        if let throttle { object["throttle"] = throttle }
        if let delay { object["delay"] = delay }
        if let times { object["times"] = times }
        return object
    }
}
