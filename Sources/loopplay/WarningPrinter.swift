import Foundation
import LoopPlayer
import Synchronization

/// Errors that do not stop playback (no sound, no such audio track, a bad filter at run time)
/// are printed as they happen; the one that ends the run is printed once, at the end.
final class WarningPrinter: Sendable {
    private let printed = Mutex<Set<String>>([])
    private let stopped = Mutex<PlayerError?>(nil)
    private let cropRefusal = Mutex<PlayerError?>(nil)

    /// The "looping stops" warning, if one was printed (the exit code says `--loops` was not reached).
    var loopingStopped: PlayerError? { stopped.withLock { $0 } }

    /// The "crop is outside the picture" error, if one was printed: the picture went black, so a
    /// snapshot would be a wrong one (the run fails instead).
    var cropRefused: PlayerError? { cropRefusal.withLock { $0 } }

    /// Prints the errors among `events`; a source's failure names `source` (see `Loopplay.naming`).
    func print(_ events: [PlayerEvent], source: String) {
        for case let .error(error) in events {
            if case .displayUnavailable = error { continue }  // the CLI falls back to headless and says so
            if case .loopingStopped = error { stopped.withLock { $0 = error } }
            if case .cropOutsidePicture = error { cropRefusal.withLock { $0 = error } }
            let message = error.isMediaError ? Loopplay.naming(source, error.description) : error.description
            guard printed.withLock({ $0.insert(error.description).inserted }) else { continue }
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
