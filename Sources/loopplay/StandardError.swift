import Foundation
import Logging
import LoopPlayer

/// The one way loopplay writes to stderr: `loopplay: …`, one line, control characters escaped
/// (a `PlayerError` is escaped already; this covers what is not one: a display's reason, the
/// library's log lines, FFmpeg's).
enum StandardError {
    static func line(_ message: String) {
        let text = PrintableText.escaping(message.trimmingCharacters(in: .newlines))
        StandardStreams.err(Data("loopplay: \(text)\n".utf8))
    }
}

/// The library's log (and FFmpeg's, routed through it) in loopplay's one-line format. `--verbose`
/// adds the time, the level and the logger's label.
struct OneLineLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let label: String
    let detailed: Bool

    init(label: String, level: Logger.Level, detailed: Bool) {
        self.label = label
        logLevel = level
        self.detailed = detailed
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var text = event.message.description
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty { text += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
        if detailed {
            let time = String(format: "%.3f", Date().timeIntervalSince1970)
            text = "\(time) \(event.level) [\(label)] \(text)"
        }
        StandardError.line(text)
    }
}
