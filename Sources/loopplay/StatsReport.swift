import Foundation
import LoopPlayer

/// The `--stats-json` object: the engine's statistics plus what the CLI knows.
struct StatsReport: Encodable {
    let source: String
    let outcome: String
    let statistics: PlaybackStatistics

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var object = (try? JSONSerialization.jsonObject(with: encoder.encode(statistics))) as? [String: Any] ?? [:]
        object["source"] = source
        object["outcome"] = outcome
        if statistics.loopDurationMs == nil { object["loopDurationMs"] = NSNull() }
        if statistics.firstFrameMs == nil { object["firstFrameMs"] = NSNull() }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    func write(to destination: String) throws {
        var data = encoded()
        data.append(0x0A)
        if destination == "-" {
            FileHandle.standardOutput.write(data)
        } else {
            try data.write(to: URL(fileURLWithPath: destination))
        }
    }
}
