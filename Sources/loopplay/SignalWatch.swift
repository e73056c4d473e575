import Foundation
import Synchronization

/// SIGINT, SIGTERM (a service manager's stop) and SIGHUP (a closed terminal; with a config file
/// it reloads it instead: `onHangUp`) end loopplay cleanly in every mode; SIGUSR1 only reopens the
/// files that are reopened (`reopenOnSignal`), as SIGHUP also does. The first stopping one
/// stops the player (threads joined, the sound device closed, `--stats-json` written); a second one
/// a second or more later exits at once (`timeout` sends its SIGTERM twice at once: to the child,
/// then to its process group). The signals are blocked in every thread and taken by one thread with `sigwait`,
/// so no code runs in a signal handler.
enum SignalWatch {
    private static let stopper = Mutex<(@Sendable () -> Void)?>(nil)
    /// What SIGHUP does: not decided yet (`nil`, until the config files were read), reload, or stop.
    private static let hangUp = Mutex<HangUp?>(nil)

    private enum HangUp {
        case reload(@Sendable () -> Void)
        case stop
        /// One came before it was decided.
        case pending
    }
    /// Files reopened at every SIGHUP and SIGUSR1 (`--play-log`, for logrotate).
    private static let reopeners = Mutex<[@Sendable () -> Void]>([])
    /// `StandardStreams.onTerminal`, read once: then SIGHUP still stops loopplay after reopening;
    /// without one (a service), a SIGHUP with files to reopen is logrotate's.
    private static let hasTerminal = Atomic<Bool>(false)
    private static let received = Atomic<Int32>(0)
    private static let firstAt = Mutex<Double?>(nil)

    /// Call first thing in `main`, before any other thread exists (threads inherit the mask).
    static func start() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGUSR1)
        hasTerminal.store(StandardStreams.onTerminal, ordering: .relaxed)
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
                if caught == SIGUSR1 {
                    reopeners.withLock { $0 }.forEach { $0() }
                    continue
                }
                if caught == SIGHUP {
                    let reopen = reopeners.withLock { $0 }
                    reopen.forEach { $0() }
                    let action = hangUp.withLock { state -> HangUp? in
                        switch state {
                        case nil, .pending?:
                            state = .pending
                            return .pending
                        case let decided?: return decided
                        }
                    }
                    switch action {
                    case .pending?: continue  // decided once the config files are read
                    case let .reload(reload)?:
                        reload()
                        continue
                    case .stop?, nil: if !reopen.isEmpty, !hasTerminal.load(ordering: .relaxed) { continue }
                    }
                }
                let now = ProcessInfo.processInfo.systemUptime
                let first = firstAt.withLock { first in
                    defer { first = first ?? now }
                    return first
                }
                received.store(caught, ordering: .relaxed)
                if let first {
                    // `_exit`: stdio's cleanup could wait on what held the stop (a blocked sound write).
                    if now - first >= 1 { _exit(128 + caught) }
                    continue  // the same stop, said twice
                }
                // Nothing started yet (the command line or the config is still being read): nothing to
                // stop cleanly either, so the process ends now, as a signal's default would.
                guard let stop = stopper.withLock({ $0 }) else { exit(128 + caught) }
                stop()
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

    /// Decides what SIGHUP does: `reload` (reading the config again, on the signal thread) or, when
    /// nil, stop as SIGTERM does. A SIGHUP that came before is acted on now.
    static func onHangUp(_ reload: (@Sendable () -> Void)?) {
        let earlier = hangUp.withLock { state -> Bool in
            defer { state = reload.map(HangUp.reload) ?? .stop }
            if case .pending? = state { return true }
            return false
        }
        guard earlier else { return }
        if let reload { reload() } else { kill(getpid(), SIGHUP) }
    }

    /// Runs `reopen` at every SIGUSR1 and SIGHUP (besides a reload). A SIGHUP then no longer stops
    /// a loopplay whose stderr is not a terminal (a service: logrotate's signal); one on a terminal
    /// still stops at its hang-up, and is sent SIGUSR1 to reopen.
    static func reopenOnSignal(_ reopen: @escaping @Sendable () -> Void) {
        reopeners.withLock { $0.append(reopen) }
    }

    /// The run is over: from now on a first signal ends the process at once, as 128 + its number.
    /// What is left to do (the snapshot, `--stats-json`) may wait on a reader that never comes (a
    /// FIFO), and the stop promise holds there too. A signal that already stopped the run is not
    /// acted on again (its stop writes the statistics; a second one a second later still exits).
    static func exitOnNextSignal() {
        stopper.withLock { $0 = { _exit(128 + received.load(ordering: .relaxed)) } }
    }

    /// A signal came: nothing new should start.
    static var wasReceived: Bool { received.load(ordering: .relaxed) != 0 }
}
