import Foundation
import LoopPlayer
@testable import LoopPlayerIPC
import XCTest

/// loopplay as a `Type=notify` service: a real datagram socket in place of systemd's, and
/// `contrib/loopplay.service` checked by `systemd-analyze verify`.
final class SystemdNotifyTests: XCTestCase {
    /// systemd's side of the notify socket: receives loopplay's datagrams.
    private final class NotifyListener {
        let path: String
        private let descriptor: Int32

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            guard let address = UnixSocketAddress(path), address.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else { throw IPCClientError(description: "bind \(path): \(String(cString: strerror(errno)))") }
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        /// The next message, or nil if none came within `timeout` seconds.
        func message(timeout: Double) -> String? {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
        }

        /// Messages until one satisfies `condition` (included), within `timeout` seconds.
        func messages(until condition: (String) -> Bool, timeout: Double = 20) -> [String] {
            let deadline = Date().addingTimeInterval(timeout)
            var seen: [String] = []
            while let message = message(timeout: max(0, deadline.timeIntervalSinceNow)) {
                seen.append(message)
                if condition(message) { break }
            }
            return seen
        }
    }

    func testReadyStatusRegularPingsAndStopping() throws {
        let listener = try NotifyListener()
        let clip = try TestMedia.loopClip()
        // Pings every 0.2 s (half of WATCHDOG_USEC).
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("notify-ipc-\(UUID().uuidString.prefix(8)).sock").path
        let player = try LoopplayTool.start(["--source", clip, "--loop", "--headless", "--input-ipc-server", socket],
                                            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000",
                                                          "WATCHDOG_PID": nil, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let start = listener.messages { $0 == "READY=1" }
        XCTAssertEqual(start.last, "READY=1", "\(start)")
        XCTAssertFalse(start.contains("WATCHDOG=1"), "no ping before READY: \(start)")
        XCTAssertTrue(start.contains("STATUS=Loading \(clip)"), "\(start)")
        let playing = start.contains("STATUS=Playing \(clip)") ? start : listener.messages { $0.hasPrefix("STATUS=") }
        XCTAssertTrue(playing.contains("STATUS=Playing \(clip)"), "\(start) \(playing)")
        var pings = 0
        let more = listener.messages { message in
            if message == "WATCHDOG=1" { pings += 1 }
            return pings == 5
        }
        XCTAssertEqual(pings, 5, "pings while frames come: \(more)")
        // Paused, nothing is due in the player's loop: the probe wakes it, and the pings go on.
        XCTAssertEqual(try IPCClient(path: socket).request(["set_property", "pause", true])?["error"] as? String, "success")
        _ = listener.messages { $0.hasPrefix("STATUS=Paused") }
        pings = 0
        let paused = listener.messages { message in
            if message == "WATCHDOG=1" { pings += 1 }
            return pings == 5
        }
        XCTAssertEqual(pings, 5, "pings while paused: \(paused)")
        player.process.terminate()
        let end = listener.messages { $0 == "STOPPING=1" }
        XCTAssertEqual(end.last, "STOPPING=1", "\(end)")
        XCTAssertTrue(waitFor(timeout: 10) { !player.process.isRunning })
        XCTAssertEqual(player.process.terminationStatus, 0)
    }

    /// An epoch an hour away: READY and pings while the first picture waits for it (an epoch
    /// further than `TimeoutStartSec` no longer fails the start).
    func testAPlayerWaitingForItsEpochIsReadyAndPings() throws {
        let listener = try NotifyListener()
        let player = try LoopplayTool.start(["--headless", "--sync-epoch", "now+3600", "swipe"],
                                            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000",
                                                          "WATCHDOG_PID": nil, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let start = listener.messages { $0 == "READY=1" }
        XCTAssertEqual(start.last, "READY=1", "\(start)")
        XCTAssertTrue(start.contains { $0.hasPrefix("STATUS=Waiting for the shared timeline's epoch: ") }, "\(start)")
        var pings = 0
        let more = listener.messages { message in
            if message == "WATCHDOG=1" { pings += 1 }
            return pings == 3
        }
        XCTAssertEqual(pings, 3, "pings while waiting: \(more)")
    }

    /// A network source that stops sending mid-file: the picture stops, and so do the pings, which
    /// is what lets systemd's watchdog restart a stuck player.
    func testAStalledPipelineStopsThePings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stall-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("long.ts").path
        let made = try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                                "testsrc2=s=320x180:r=30:d=20", "-c:v", "libx264", "-g", "30",
                                                "-pix_fmt", "yuv420p", "-f", "mpegts", clip])
        XCTAssertEqual(made.status, 0, made.output)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        let server = try FaultServer(root: folder)
        defer { server.stop() }
        try server.setFaults([FaultRule(stallAfter: size / 4)])  // about 5 s of pictures, then silence
        let listener = try NotifyListener()
        let player = try LoopplayTool.start(["--source", server.url("/long.ts"), "--headless", "--network-timeout", "120"],
                                            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000",
                                                          "WATCHDOG_PID": nil, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        XCTAssertEqual(listener.messages { $0 == "READY=1" }.last, "READY=1")
        var pings = 0
        _ = listener.messages { message in
            if message == "WATCHDOG=1" { pings += 1 }
            return pings == 3
        }
        XCTAssertEqual(pings, 3, "pings while the first seconds play")
        // The stall: the player says it is buffering, and from then on no ping comes.
        let untilStall = listener.messages { $0.hasPrefix("STATUS=Buffering") }
        XCTAssertEqual(untilStall.last?.hasPrefix("STATUS=Buffering"), true, "\(untilStall)")
        // One ping may still be due for the pictures shown before the stall; then none (a live
        // player sends 15 in these 3 s).
        let after = listener.messages(until: { _ in false }, timeout: 3)
        XCTAssertLessThanOrEqual(after.filter { $0 == "WATCHDOG=1" }.count, 1, "pings of a stalled pipeline: \(after)")
        XCTAssertTrue(player.process.isRunning, "still running: it is the watchdog's job to restart it")
    }

    func testTheUnitFileVerifies() throws {
        try require(FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "systemd-analyze is not installed")
        let unit = IPCTests.packageRoot.appendingPathComponent("contrib/loopplay.service").path
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        XCTAssertTrue(text.contains("Type=notify"))
        XCTAssertTrue(text.contains("WatchdogSec="))
        XCTAssertTrue(text.contains("Restart=on-failure"))
        // verify wants ExecStart's program to exist: the unit names /usr/local/bin/loopplay.
        let check = try TestMedia.run("sh", ["-c", """
            dir=$(mktemp -d) && mkdir -p "$dir/usr/local/bin" && cp '\(unit)' "$dir/" && \
            sed -i "s|/usr/local/bin/loopplay|\(LoopplayTool.path)|" "$dir/loopplay.service" && \
            systemd-analyze verify "$dir/loopplay.service"; status=$?; rm -rf "$dir"; exit $status
            """])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertEqual(check.output.trimmingCharacters(in: .whitespacesAndNewlines), "", "no complaint: \(check.output)")
    }
}

/// The watchdog's rule and the environment it reads, without a socket.
final class LivenessTests: XCTestCase {
    func testAlivePingsNeedTheLoopToMoveAndAPictureShown() {
        var liveness = Liveness()
        var status = PlayerStatus()
        status.state = .loading
        _ = liveness.update(with: status, source: "a.mp4")
        XCTAssertFalse(liveness.isAlive(loopPasses: 1), "loading: no picture yet")
        status.state = .playing
        XCTAssertEqual(liveness.update(with: status, source: "a.mp4").ready, true)
        XCTAssertEqual(liveness.update(with: status, source: "a.mp4").ready, false, "READY once")
        XCTAssertTrue(liveness.isAlive(loopPasses: 5))
        XCTAssertFalse(liveness.isAlive(loopPasses: 5), "the loop did not move: stuck")
        status.state = .paused
        _ = liveness.update(with: status, source: "a.mp4")
        XCTAssertTrue(liveness.isAlive(loopPasses: 6), "paused and answering")
        status.state = .buffering
        _ = liveness.update(with: status, source: "a.mp4")
        XCTAssertFalse(liveness.isAlive(loopPasses: 7), "the picture starved")
        status.state = .failed(.sourceNotFound(source: "b\nWATCHDOG=1", searched: []))
        let text = liveness.update(with: status, source: "a.mp4").status ?? ""
        XCTAssertFalse(text.contains("\n"), text)
        XCTAssertFalse(liveness.isAlive(loopPasses: 8))
    }

    /// A shared timeline's epoch hours away: the player is up (READY, pings), its picture waits.
    func testWaitingForAnEpochIsUp() {
        var liveness = Liveness()
        var status = PlayerStatus()
        status.state = .loading
        status.waitingForEpoch = true
        let update = liveness.update(with: status, source: "wall.mp4")
        XCTAssertTrue(update.ready)
        XCTAssertEqual(update.status, "Waiting for the shared timeline's epoch: wall.mp4")
        XCTAssertTrue(liveness.isAlive(loopPasses: 1))
        XCTAssertTrue(liveness.isAlive(loopPasses: 2))
        XCTAssertFalse(liveness.isAlive(loopPasses: 2), "the loop did not move: stuck")
    }

    func testTheWatchdogIntervalIsHalfAndForThisProcessOnly() {
        XCTAssertEqual(WatchdogSetting(environment: ["WATCHDOG_USEC": "10000000"], pid: 7).pingInterval, 5)
        XCTAssertEqual(WatchdogSetting(environment: ["WATCHDOG_USEC": "400000", "WATCHDOG_PID": "7"], pid: 7).pingInterval, 0.2)
        XCTAssertNil(WatchdogSetting(environment: ["WATCHDOG_USEC": "400000", "WATCHDOG_PID": "8"], pid: 7).pingInterval)
        XCTAssertNil(WatchdogSetting(environment: ["WATCHDOG_USEC": "0"], pid: 7).pingInterval)
        XCTAssertNil(WatchdogSetting(environment: ["WATCHDOG_USEC": "soon"], pid: 7).pingInterval)
        XCTAssertNil(WatchdogSetting(environment: [:], pid: 7).pingInterval)
    }
}

/// Socket addresses as the kernel counts them (systemd's `NOTIFY_SOCKET` may be abstract).
final class UnixSocketAddressTests: XCTestCase {
    func testPathsCountTheirNulAndAbstractNamesDoNot() {
        XCTAssertEqual(UnixSocketAddress("/run/x")?.length, 2 + 6 + 1)
        XCTAssertEqual(UnixSocketAddress("@systemd/notify")?.length, 2 + 15)
        XCTAssertNotNil(UnixSocketAddress("/" + String(repeating: "s", count: UnixSocketAddress.maximumPathBytes - 1)))
        XCTAssertNil(UnixSocketAddress("/" + String(repeating: "s", count: UnixSocketAddress.maximumPathBytes)))
        XCTAssertNil(UnixSocketAddress(""))
    }

    /// An abstract notify socket receives what a path one does.
    func testAnAbstractNotifySocketGetsReady() throws {
        let name = "@loopplay-test-\(UUID().uuidString.prefix(8))"
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener) }
        let address = try XCTUnwrap(UnixSocketAddress(name))
        XCTAssertEqual(address.withSockaddr { bind(listener, $0, $1) }, 0)
        let player = try LoopplayTool.start(["--source", "swipe", "--loop", "--headless"],
                                            environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": nil, "SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(20)
        while !seen.contains("READY=1"), deadline.timeIntervalSinceNow > 0 {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(listener, &buffer, buffer.count, 0)
            if count > 0 { seen.append(String(decoding: buffer[..<count], as: UTF8.self)) }
        }
        XCTAssertTrue(seen.contains("READY=1"), "\(seen)")
    }
}
