import Foundation

/// Counts opens and reads of one file through inotify: proof that a refused source never touched
/// a local file (atime is unreliable under relatime).
final class FileAccessWatch {
    private let descriptor: Int32

    /// Nil if inotify is unavailable.
    init?(path: String) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, path, UInt32(IN_OPEN | IN_ACCESS)) >= 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Opens and reads seen since the last call.
    func accesses() -> Int {
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let length = read(descriptor, &buffer, buffer.count)
            guard length > 0 else { return count }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= length {
                let nameLength = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) }
                count += 1
                offset += MemoryLayout<inotify_event>.size + Int(nameLength)
            }
        }
    }
}
