import Foundation

/// A directory of its own under the system's temporary one, removed when the value goes.
final class TemporaryDirectory {
    let url: URL

    init(prefix: String = "lp-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
