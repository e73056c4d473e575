import Foundation

/// Python's http.server (threading) serving `root` on 127.0.0.1 at a free port, for the lifetime of
/// this object. `script` is a server of the test's own instead (run with `root` as its argument;
/// it prints `port N` once it listens).
final class LoopbackHTTPServer {
    let port: Int
    private let process = Process()

    init(root: URL, script: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = script.map { ["python3", "-u", "-c", $0, root.path] }
            ?? ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var text = ""
        while !text.contains("\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "port "), let number = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw requirementMissing("http.server did not start: \(text)")
        }
        port = number
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
