import Foundation

/// Whether the tests run under a sanitizer (`scripts/sanitize.sh` says which). AddressSanitizer keeps
/// freed memory in quarantine and ThreadSanitizer adds a thread of its own, so the resident-memory
/// and thread-count checks of the lifecycle tests do not hold there; everything else does.
enum Sanitizer {
    static var name: String? { ProcessInfo.processInfo.environment["LOOPPLAYER_SANITIZER"].flatMap { $0.isEmpty ? nil : $0 } }
    static var isActive: Bool { name != nil }
}
