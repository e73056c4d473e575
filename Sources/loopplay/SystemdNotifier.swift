import Foundation
import LoopPlayer
import Synchronization

/// systemd's notify protocol (`sd_notify`), for `Type=notify` services: `READY=1` once the first
/// picture is shown, `STATUS=` with what plays, `WATCHDOG=1` every half `WATCHDOG_USEC` **only
/// while the player is alive** (frames keep coming, or it holds a picture by choice: paused, ended
/// with `--keep-open`, waiting for `play`), and `STOPPING=1` on a stop. A stalled pipeline (no new
/// picture while playing, buffering, failed) stops the pings, so the watchdog restarts the service.
/// Without `NOTIFY_SOCKET` nothing is done.
final class SystemdNotifier: Sendable {
    private let socketAddress: sockaddr_un
    private let addressLength: socklen_t
    private let descriptor: Int32
    private let pingInterval: Double?
    private let liveness = Mutex(Liveness())
    private let stopped = AbortFlag()
    private let stoppingSaid = OnceFlag()
    private let pinger = Mutex<WorkerThread?>(nil)

    /// From the environment systemd gives a service; nil without `NOTIFY_SOCKET` (or with one that
    /// cannot be used: said once on stderr).
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SystemdNotifier? {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        let interval = WatchdogSetting(environment: environment, pid: getpid()).pingInterval
        guard let notifier = SystemdNotifier(path: path, pingInterval: interval) else {
            StandardError.line("NOTIFY_SOCKET \(PrintableText.escaping(path)) cannot be used: \(String(cString: strerror(errno)))")
            return nil
        }
        return notifier
    }

    private init?(path: String, pingInterval: Double?) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity, path.hasPrefix("/") || path.hasPrefix("@") else {
            errno = EINVAL
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            if path.hasPrefix("@") { buffer[0] = 0 }  // an abstract socket
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.socketAddress = address
        self.addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (path.hasPrefix("@") ? 0 : 1))
        self.pingInterval = pingInterval
    }

    deinit { close(descriptor) }

    /// Follows `player`: READY and STATUS from its status, and the watchdog's pings from then on.
    func attach(to player: ExtVideoPlayer, source: String) {
        player.onStatusChange { [weak self] status in self?.statusChanged(status, source: source) }
    }

    /// The service is stopping (SIGTERM, quit, the end): said once, and the pings end with it.
    func stopping() {
        guard stoppingSaid.claim() else { return }
        stopped.raise()
        send("STOPPING=1")
    }

    /// Ends the pings (joins their thread).
    func finish() {
        stopped.raise()
        pinger.withLock { pinger in
            defer { pinger = nil }
            return pinger
        }?.join()
    }

    private func statusChanged(_ status: PlayerStatus, source: String) {
        let (ready, text) = liveness.withLock { liveness in liveness.update(with: status, source: source) }
        if let text { send("STATUS=\(text)") }
        if ready {
            send("READY=1")
            startPinging()
        }
    }

    private func startPinging() {
        guard let pingInterval else { return }
        let thread = WorkerThread(name: "lp-watchdog") { [self] in
            var next = MonotonicCondition.now + pingInterval
            while stopped.sleep(until: next) {
                if liveness.withLock({ $0.takeAliveness() }) { send("WATCHDOG=1") }
                next += pingInterval
            }
        }
        pinger.withLock { $0 = thread }
    }

    private func send(_ message: String) {
        var address = socketAddress
        _ = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, text, strlen(text), Int32(MSG_NOSIGNAL), $0, addressLength)
                }
            }
        }
    }
}

/// `WATCHDOG_USEC` (and `WATCHDOG_PID`, which must be this process if set): ping every half of it.
struct WatchdogSetting {
    let pingInterval: Double?

    init(environment: [String: String], pid: Int32) {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
              environment["WATCHDOG_PID"].map({ Int32($0) == pid }) ?? true else {
            pingInterval = nil
            return
        }
        pingInterval = Double(microseconds) / 2_000_000
    }
}

/// Whether the player showed it is alive since the last ping, and what to say of it. Pure.
struct Liveness {
    private var lastPosition: Double?
    private var progressed = false
    private var latest = PlayerStatus()
    private var announcedReady = false
    private var said: String?

    /// Takes a new status; returns whether READY is due now (the first picture is shown) and the
    /// STATUS text if it changed.
    mutating func update(with status: PlayerStatus, source: String) -> (ready: Bool, status: String?) {
        if status.state == .playing, status.position != lastPosition, !status.seeking { progressed = true }
        lastPosition = status.position
        latest = status
        let shown: Bool = switch status.state {
        case .playing, .paused, .ended: true
        default: false
        }
        let ready = shown && !announcedReady
        if ready { announcedReady = true }
        let text = Self.describe(status, source: status.source ?? source)
        guard text != said else { return (ready, nil) }
        said = text
        return (ready, text)
    }

    /// True if a new picture came since the last call, or the player holds one by choice.
    mutating func takeAliveness() -> Bool {
        defer { progressed = false }
        if progressed { return true }
        switch latest.state {
        case .paused, .ended, .ready: return true
        case .playing: return latest.paused || latest.speed == 0
        case .idle, .loading, .buffering, .failed: return false
        }
    }

    private static func describe(_ status: PlayerStatus, source: String) -> String {
        switch status.state {
        case .idle: "Idle"
        case .loading: "Loading \(source)"
        case .ready: "Ready: \(source)"
        case .playing: "Playing \(source)"
        case .paused: "Paused: \(source)"
        case .buffering: "Buffering \(source)"
        case .ended: "Ended: \(source)"
        case let .failed(error): "Failed: \(error.description)"
        }
    }
}
