import Foundation
import LoopPlayer
import Synchronization

/// Errors that do not stop playback (no sound, no such audio track, a bad filter at run time)
/// are printed as they happen; the same one again once a minute at most (a schedule's entry
/// retried for days says it still fails, without a line every 30 s); the one that ends the run
/// is printed once, at the end.
final class WarningPrinter: Sendable {
    /// Each message printed, and when (seconds of uptime); the oldest go past `remembered`.
    private let printed = Mutex<[String: Double]>([:])
    private static let repeatAfter = 60.0
    private static let remembered = 256
    private let stopped = Mutex<PlayerError?>(nil)
    private let cropRefusal = Mutex<PlayerError?>(nil)

    /// The "looping stops" warning, if one was printed (the exit code says `--loops` was not reached).
    var loopingStopped: PlayerError? { stopped.withLock { $0 } }

    /// The "crop is outside the picture" error, if one was printed: the picture went black, so a
    /// snapshot would be a wrong one (the run fails instead).
    var cropRefused: PlayerError? { cropRefusal.withLock { $0 } }

    /// Prints the errors among `events`; a source's failure names `source` (see `Loopplay.naming`).
    func print(_ events: [PlayerEvent], source: String) {
        for case let .displayAlert(alert, active) in events {
            StandardError.line(Loopplay.naming(source, "display alert: " + (active ? alert.explanation : alert.endExplanation)))
        }
        for case let .error(error) in events {
            if case .displayUnavailable = error { continue }  // the CLI falls back to headless and says so
            if case .loopingStopped = error { stopped.withLock { $0 = error } }
            if case .cropOutsidePicture = error { cropRefusal.withLock { $0 = error } }
            let message = error.isMediaError ? Loopplay.naming(source, error.description) : error.description
            let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
            let due = printed.withLock { printed in
                if let last = printed[error.description], now - last < Self.repeatAfter { return false }
                if printed.count >= Self.remembered, let oldest = printed.min(by: { $0.value < $1.value }) {
                    printed[oldest.key] = nil
                }
                printed[error.description] = now
                return true
            }
            if due { StandardError.line(message) }
        }
    }

    func wasPrinted(_ error: PlayerError) -> Bool { printed.withLock { $0[error.description] != nil } }
}

/// True for the first `claim()` only, from any thread.
final class OnceFlag: Sendable {
    private let claimed = Atomic<Bool>(false)

    func claim() -> Bool { !claimed.exchange(true, ordering: .relaxed) }
}
