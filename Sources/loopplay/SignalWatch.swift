import Foundation
import Synchronization

/// SIGINT, SIGTERM (a service manager's stop) and SIGHUP (a closed terminal; with a config file
/// it reloads it instead: `onHangUp`) end loopplay cleanly in every mode: the first one
/// stops the player (threads joined, the sound device closed, `--stats-json` written); a second one
/// a second or more later exits at once (`timeout` sends its SIGTERM twice at once: to the child,
/// then to its process group). The signals are blocked in every thread and taken by one thread with `sigwait`,
/// so no code runs in a signal handler.
enum SignalWatch {
    private static let stopper = Mutex<(@Sendable () -> Void)?>(nil)
    private static let hangUp = Mutex<(@Sendable () -> Void)?>(nil)
    private static let received = Atomic<Int32>(0)
    private static let firstAt = Mutex<Double?>(nil)

    /// Call first thing in `main`, before any other thread exists (threads inherit the mask).
    static func start() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        // Not under nohup: a blocked signal is still delivered to sigwait even when ignored.
        var hangup = sigaction()
        // SIG_IGN is the handler 1, which Swift cannot import.
        if sigaction(SIGHUP, nil, &hangup) == 0, unsafeBitCast(hangup.__sigaction_handler.sa_handler, to: Int.self) != 1 {
            sigaddset(&signals, SIGHUP)
        }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let watched = signals
        let watcher = Thread {
            var signals = watched
            var caught: Int32 = 0
            while sigwait(&signals, &caught) == 0 {
                if caught == SIGHUP, let reload = hangUp.withLock({ $0 }) {
                    reload()
                    continue
                }
                let now = ProcessInfo.processInfo.systemUptime
                let first = firstAt.withLock { first in
                    defer { first = first ?? now }
                    return first
                }
                received.store(caught, ordering: .relaxed)
                if let first {
                    if now - first >= 1 { exit(128 + caught) }
                    continue  // the same stop, said twice
                }
                stopper.withLock { $0 }?()
            }
        }
        watcher.name = "lp-signals"
        watcher.start()
    }

    /// What the first signal does (stopping the current player); runs at once if one already came.
    static func onSignal(_ stop: @escaping @Sendable () -> Void) {
        stopper.withLock { $0 = stop }
        if wasReceived { stop() }
    }

    /// What SIGHUP does instead of stopping (reading the config again); runs on the signal thread.
    static func onHangUp(_ action: @escaping @Sendable () -> Void) {
        hangUp.withLock { $0 = action }
    }

    /// A signal came: nothing new should start.
    static var wasReceived: Bool { received.load(ordering: .relaxed) != 0 }
}
