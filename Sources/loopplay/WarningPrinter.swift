import Foundation
import LoopPlayer
import Synchronization

/// Errors that do not stop playback (no sound, no such audio track, a bad filter at run time)
/// are printed as they happen; the one that ends the run is printed once, at the end.
final class WarningPrinter: Sendable {
    private let printed = Mutex<Set<String>>([])

    func print(_ events: [PlayerEvent]) {
        for case let .error(error) in events {
            if case .displayUnavailable = error { continue }  // the CLI falls back to headless and says so
            let message = error.description
            guard printed.withLock({ $0.insert(message).inserted }) else { continue }
            StandardError.line(message)
        }
    }

    func wasPrinted(_ error: PlayerError) -> Bool { printed.withLock { $0.contains(error.description) } }
}

/// True for the first `claim()` only, from any thread.
final class OnceFlag: Sendable {
    private let claimed = Atomic<Bool>(false)

    func claim() -> Bool { !claimed.exchange(true, ordering: .relaxed) }
}
