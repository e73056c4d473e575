import Foundation
import LoopPlayer
import Synchronization

/// systemd's notify protocol (`sd_notify`), for `Type=notify` services: `READY=1` once the first
/// picture is shown (or decoded and waiting for a shared timeline's epoch, which may be hours away),
/// `STATUS=` with what plays, `WATCHDOG=1` every half `WATCHDOG_USEC` **only
/// while the player is alive** — its run loop answers (a probe wakes it) and it shows a picture
/// (playing, paused, ended with `--keep-open`, waiting for `play`) — and `STOPPING=1` on a stop. A
/// stuck loop, or a pipeline that starves the picture (the player is then buffering: a decoder or
/// network source that stopped) or failed, stops the pings, so the watchdog restarts the service.
/// Without `NOTIFY_SOCKET` nothing is done.
package final class SystemdNotifier: Sendable {
    private let address: UnixSocketAddress
    private let descriptor: Int32
    private let pingInterval: Double?
    private let liveness = Mutex(Liveness())
    private let stopped = AbortFlag()
    private let stoppingSaid = Atomic<Bool>(false)
    private let pinger = Mutex<WorkerThread?>(nil)

    /// From the environment systemd gives a service: nil without `NOTIFY_SOCKET`; an
    /// `invalidSetting` error for one that cannot be used.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(PlayerError) -> SystemdNotifier? {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        let interval = WatchdogSetting(environment: environment, pid: getpid()).pingInterval
        guard path.hasPrefix("/") || path.hasPrefix("@") else {
            throw .invalidSetting(name: "NOTIFY_SOCKET", value: path,
                                  reason: "an absolute socket path or an @abstract name is needed; not notifying systemd")
        }
        guard let notifier = SystemdNotifier(path: path, pingInterval: interval) else {
            throw .invalidSetting(name: "NOTIFY_SOCKET", value: path,
                                  reason: "\(String(cString: strerror(errno))); not notifying systemd")
        }
        return notifier
    }

    private init?(path: String, pingInterval: Double?) {
        guard let address = UnixSocketAddress(path), path.hasPrefix("/") || path.hasPrefix("@") else {
            errno = EINVAL
            return nil
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        (self.descriptor, self.address, self.pingInterval) = (descriptor, address, pingInterval)
    }

    deinit { close(descriptor) }

    /// Follows `player`: READY and STATUS from its status, and the watchdog's pings from then on.
    package func attach(to player: ExtVideoPlayer, source: String) {
        player.onStatusChange { [weak self] status in self?.statusChanged(status, source: source, player: player) }
    }

    /// The service is stopping (SIGTERM, quit, the end): said once, and the pings end with it.
    package func stopping() {
        guard !stoppingSaid.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopped.raise()
        send("STOPPING=1")
    }

    /// Ends the pings (joins their thread).
    package func finish() {
        stopped.raise()
        pinger.withLock { pinger in
            defer { pinger = nil }
            return pinger
        }?.join()
    }

    private func statusChanged(_ status: PlayerStatus, source: String, player: ExtVideoPlayer) {
        guard !stopped.isRaised else { return }  // nothing after STOPPING
        let (ready, text) = liveness.withLock { liveness in liveness.update(with: status, source: source) }
        if let text { send("STATUS=\(text)") }
        if ready {
            send("READY=1")
            startPinging(player)
        }
    }

    private func startPinging(_ player: ExtVideoPlayer) {
        guard let pingInterval else { return }
        let thread = WorkerThread(name: "lp-watchdog") { [self] in
            var next = MonotonicCondition.now + pingInterval
            while stopped.sleep(until: next) {
                let passes = player.probeRunLoop()
                if liveness.withLock({ $0.isAlive(loopPasses: passes) }) { send("WATCHDOG=1") }
                next += pingInterval
            }
        }
        pinger.withLock { $0 = thread }
    }

    private func send(_ message: String) {
        _ = message.withCString { text in
            address.withSockaddr {
                // Never blocks the run thread: a STATUS lost to a full queue is replaced by the next.
                sendto(descriptor, text, strlen(text), Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, $1)
            }
        }
    }
}

/// `WATCHDOG_USEC` (and `WATCHDOG_PID`, which must be this process if set): ping every half of it.
package struct WatchdogSetting {
    package let pingInterval: Double?

    package init(environment: [String: String], pid: Int32) {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
              environment["WATCHDOG_PID"].map({ Int32($0) == pid }) ?? true else {
            pingInterval = nil
            return
        }
        // At most 20 pings a second: a tiny WatchdogSec would flood the socket.
        pingInterval = max(Double(microseconds) / 2_000_000, 0.05)
    }
}

/// Whether the player is alive at a ping, and what to say of it. Pure.
package struct Liveness {
    private var latest = PlayerStatus()
    private var lastPasses: Int?
    private var announcedReady = false
    private var said: String?

    /// Takes a new status; returns whether READY is due now (the first picture is shown) and the
    /// STATUS text if it changed.
    package init() {}

    package mutating func update(with status: PlayerStatus, source: String) -> (ready: Bool, status: String?) {
        latest = status
        let ready = Self.isUp(status) && !announcedReady
        if ready { announcedReady = true }
        let text = Self.describe(status, source: status.source ?? source)
        guard text != said else { return (ready, nil) }
        said = text
        return (ready, text)
    }

    /// Alive: the run loop made passes since the last ping (`loopPasses` moved) and a picture is
    /// shown — buffering (the picture starved), loading, failed or idle are not.
    package mutating func isAlive(loopPasses: Int) -> Bool {
        defer { lastPasses = loopPasses }
        guard let lastPasses, loopPasses != lastPasses else { return lastPasses == nil && Self.isUp(latest) }
        return Self.isUp(latest)
    }

    /// A picture is shown, or the first one waits for a shared timeline's epoch.
    private static func isUp(_ status: PlayerStatus) -> Bool { showsAPicture(status.state) || status.waitingForEpoch }

    private static func showsAPicture(_ state: PlayerState) -> Bool {
        switch state {
        case .ready, .playing, .paused, .ended: true
        case .idle, .loading, .buffering, .failed: false
        }
    }

    /// One line: a newline in a file name or an error would start a line of its own in the message
    /// (a `WATCHDOG=1` smuggled in).
    private static func describe(_ status: PlayerStatus, source: String) -> String {
        let said = switch status.state {
        case .idle: "Idle"
        case .loading: "Loading \(source)"
        case .ready: "Ready: \(source)"
        case .playing: "Playing \(source)"
        case .paused: "Paused: \(source)"
        case .buffering: "Buffering \(source)"
        case .ended: "Ended: \(source)"
        case let .failed(error): "Failed: \(error.description)"
        }
        var text = status.waitingForEpoch ? "Waiting for the shared timeline's epoch: \(source)" : said
        // An alert leads: `systemctl status` cuts a long line at its end.
        if !status.displayAlerts.isEmpty {
            text = "Alert: " + status.displayAlerts.map(\.explanation).joined(separator: ", ") + " — " + text
        }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
