import Foundation
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
                    timeout: Double = 60) throws -> Result {
        let process = try start(arguments, environment: environment, directory: directory)
        let deadline = Date().addingTimeInterval(timeout)
        while process.process.isRunning && Date() < deadline { usleep(20_000) }
        if process.process.isRunning { process.process.terminate() }
        process.process.waitUntilExit()
        return Result(status: process.process.terminationStatus,
                      stdout: String(decoding: process.stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                      stderr: String(decoding: process.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    static func start(_ arguments: [String], environment: [String: String?] = [:],
                      directory: String? = nil) throws -> (process: Process, stdout: Pipe, stderr: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
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

    static func json(_ text: String) -> [String: Any]? {
        let line = text.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
