import Foundation

/// One JSON object per line on stdout, for scripts (`--events`, `--time-publishing`).
enum JSONLines {
    static func write(_ object: [String: Any]) {
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(0x0A)
        StandardStreams.out(data)
    }
}
