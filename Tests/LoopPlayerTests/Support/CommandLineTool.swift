import Foundation
import Synchronization
import XCTest

/// Runs the built `loopplay` binary as a user would.
enum LoopplayTool {
    /// The products folder holds the test bundle and the executables.
    static let path: String = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("loopplay").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return "loopplay"
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs loopplay to completion with `environment` added to (or, for nil values, removed from) ours.
    static func run(_ arguments: [String], environment: [String: String?] = [:], directory: String? = nil,
                    timeout: Double = 60, launcher: [String] = []) throws -> Result {
        let process = try start(arguments, environment: environment, directory: directory, launcher: launcher)
        if !waitFor(timeout: timeout, { !process.process.isRunning }) { process.process.terminate() }
        process.process.waitUntilExit()
        return Result(status: process.process.terminationStatus,
                      stdout: String(decoding: process.stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                      stderr: String(decoding: process.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// `launcher`: a command that runs the tool, given its path and `arguments` after its own
    /// (e.g. `/bin/sh -c '…; exec "$0" "$@"'`).
    static func start(_ arguments: [String], environment: [String: String?] = [:], directory: String? = nil,
                      launcher: [String] = []) throws -> (process: Process, stdout: Pipe, stderr: Pipe) {
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        // The developer's own loopplay.conf stays out of the tests (a test that wants one sets this).
        merged["XDG_CONFIG_HOME"] = emptyConfigHome
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, stdout, stderr)
    }

    /// A folder with no loopplay.conf in it.
    static let emptyConfigHome: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-config-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }()

    static func json(_ text: String) -> [String: Any]? {
        let line = text.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

/// What a process writes to a pipe, read on a thread of its own as it comes: a test waits for the
/// line it expects (an event, a published time) instead of sleeping, and takes the whole text once
/// the process has ended. Read the pipe only through this once it is made.
final class PipeText: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let closed = ThreadResult<Bool>()

    init(_ pipe: Pipe) {
        // A descriptor of its own: the pipe may be let go before the process ends.
        let descriptor = dup(pipe.fileHandleForReading.fileDescriptor)
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while descriptor >= 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.withLock { $0 += buffer[0..<count] }
            }
            if descriptor >= 0 { close(descriptor) }
            closed.set(true)
        }.start()
    }

    /// What arrived so far.
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }

    /// The lines that arrived so far (a last one without its newline included).
    var lines: [Substring] { text.split(separator: "\n") }

    /// Waits until what arrived satisfies `condition`, for at most `timeout` seconds.
    func waitUntil(timeout: Double = 10, _ condition: (String) -> Bool) -> Bool {
        waitFor(timeout: timeout) { condition(text) }
    }

    /// Everything written, once the writer closed the pipe (the process ended), or what arrived
    /// within `timeout` seconds.
    func whole(timeout: Double = 10) -> String {
        _ = closed.wait(timeout: timeout)
        return text
    }

    /// The positions published by `loopplay --time-publishing` (lines `{"time":…}`), in order.
    var publishedTimes: [Double] { Self.times(in: text[...]) }

    /// The positions published in `text` (lines `{"time":…}`), in order.
    static func times(in text: Substring) -> [Double] {
        text.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("{\"time\""),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["time"] as? Double
        }
    }

    /// How many events of `type` `loopplay --events` printed (`"type":"paused"`…).
    func count(ofEvent type: String) -> Int {
        text.components(separatedBy: "\"type\":\"\(type)\"").count - 1
    }
}
