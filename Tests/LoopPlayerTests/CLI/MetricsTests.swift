import Foundation
import LoopPlayer
@testable import LoopPlayerMetrics
import Prometheus
import XCTest

/// `loopplay --metrics-address`: scraped over real HTTP, checked by Debian's `promtool`, and
/// scraped every second by a real Prometheus server.
final class MetricsTests: XCTestCase {
    private struct RunningPlayer {
        let process: Process
        let stderr: PipeText
        let port: Int
    }

    /// loopplay looping a one-second clip headless, with metrics on a port the system chose.
    private func startPlayer(_ source: String? = nil, extra: [String] = []) throws -> RunningPlayer {
        let clip = try source ?? TestMedia.testPattern("metrics-30.mp4", frames: 30, codec: TestMedia.h264)
        let started = try LoopplayTool.start(["--source", clip, "--loop", "--headless", "--metrics-address", "127.0.0.1:0"] + extra,
                                             environment: ["SDL_AUDIODRIVER": "dummy"])
        let stderr = PipeText(started.stderr)
        let line = #/metrics at http://127\.0\.0\.1:(\d+)/metrics/#
        guard stderr.waitUntil(timeout: 20, { $0.contains(line) }),
              let match = stderr.text.firstMatch(of: line), let port = Int(match.1) else {
            stop(started.process)
            throw IPCClientError(description: "no metrics address said: \(stderr.text)")
        }
        return RunningPlayer(process: started.process, stderr: stderr, port: port)
    }

    /// The samples of one scrape: `name{labels}` → value.
    private func scrape(_ port: Int) -> (response: RawHTTP.Response, samples: [String: Double]) {
        let response = RawHTTP.get(port: port, path: "/metrics")
        var samples: [String: Double] = [:]
        for line in String(decoding: response.body, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            samples[String(line[..<space])] = Double(line[line.index(after: space)...])
        }
        return (response, samples)
    }

    /// A player on a shared timeline says how far its frames are from it, and that it waited for its
    /// epoch; one on its own timeline says NaN.
    func testASyncedPlayerExportsItsOffsets() throws {
        // An epoch an hour ahead is still ahead however slowly the player starts.
        let waiting = try startPlayer(extra: ["--sync-epoch", "now+3600"])
        defer { stop(waiting.process) }
        XCTAssertNotNil(pollFor(timeout: 30) { scrape(waiting.port).samples["loopplay_sync_waiting_for_epoch"] == 1 ? true : nil },
                        "waiting for the epoch: \(waiting.stderr.text)")
        XCTAssertEqual(scrape(waiting.port).samples["loopplay_sync_offset_max_seconds"]?.isNaN, true, "no frame yet")
        stop(waiting.process)
        let player = try startPlayer(extra: ["--sync-epoch", "now"])
        defer { stop(player.process) }
        let synced = pollFor(timeout: 30) { () -> [String: Double]? in
            let samples = scrape(player.port).samples
            return samples["loopplay_sync_offset_max_seconds"].map { $0.isFinite } == true ? samples : nil
        }
        let samples = try XCTUnwrap(synced, player.stderr.text)
        XCTAssertEqual(samples["loopplay_sync_waiting_for_epoch"], 0)
        XCTAssertNotNil(samples["loopplay_sync_offset_mean_seconds"].flatMap { $0.isFinite ? $0 : nil })
        // No sound (SDL's dummy driver is no clock): nothing resampled.
        XCTAssertEqual(samples["loopplay_sync_sound_rate_correction_ratio"]?.isNaN, true)
        let own = try startPlayer()
        defer { stop(own.process) }
        XCTAssertEqual(scrape(own.port).samples["loopplay_sync_offset_max_seconds"]?.isNaN, true)
    }

    func testScrapesCountFramesAndLoopsAndPassPromtool() throws {
        let clip = try TestMedia.testPattern("metrics-30.mp4", frames: 30, codec: TestMedia.h264)
        let player = try startPlayer(clip)
        defer { stop(player.process) }
        let looped = pollFor(timeout: 30) { () -> [String: Double]? in
            let samples = scrape(player.port).samples
            return (samples["loopplay_loops_completed_total"] ?? 0) >= 1 ? samples : nil
        }
        let first = try XCTUnwrap(looped, "no loop counted: \(player.stderr.text)")
        let presented = try XCTUnwrap(first["loopplay_frames_presented_total"])
        XCTAssertGreaterThan(presented, 0)
        XCTAssertEqual(first["loopplay_state{state=\"playing\"}"], 1)
        XCTAssertEqual(first["loopplay_state{state=\"paused\"}"], 0)
        XCTAssertEqual(first["loopplay_source_info{source=\"\(clip)\"}"], 1)
        XCTAssertEqual(try XCTUnwrap(first["loopplay_frame_interval_seconds"]), 1.0 / 30, accuracy: 1e-6)
        XCTAssertGreaterThanOrEqual(first["loopplay_seam_deviation_seconds_count"] ?? 0, 1, "each seam is in the histogram")
        XCTAssertGreaterThan(first["loopplay_frames_decoded_total"] ?? 0, 0)
        XCTAssertGreaterThan(first["process_resident_memory_bytes"] ?? 0, 1_000_000)
        XCTAssertGreaterThan(first["process_cpu_seconds_total"] ?? 0, 0)
        // Each property the table gives a gauge, at its value (the player's own defaults here).
        let expected: [String: Double] = ["loopplay_paused": 0, "loopplay_muted": 0, "loopplay_volume": 1, "loopplay_speed": 1,
                                          "loopplay_video_rotation_degrees": 0]
        for (name, value) in expected { XCTAssertEqual(first[name], value, name) }
        XCTAssertEqual(Set(PlayerProperty.all.compactMap(\.metric?.name)), Set(expected.keys), "a table entry with a metric is scraped")
        // The counts rise from scrape to scrape.
        let later = pollFor(timeout: 20) { () -> [String: Double]? in
            let samples = scrape(player.port).samples
            return (samples["loopplay_frames_presented_total"] ?? 0) > presented ? samples : nil
        }
        XCTAssertNotNil(later, "frames presented did not rise")

        let response = scrape(player.port).response
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
        let promtool = try promtoolPath()
        let check = Process()
        check.executableURL = URL(fileURLWithPath: promtool)
        check.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        (check.standardInput, check.standardOutput, check.standardError) = (input, output, output)
        try check.run()
        input.fileHandleForWriting.write(Data(response.body))
        try input.fileHandleForWriting.close()
        check.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(check.terminationStatus, 0, said)
        XCTAssertEqual(said.trimmingCharacters(in: .whitespacesAndNewlines), "", "promtool's lint: \(said)")
    }

    /// Debian's Prometheus scrapes loopplay every second and sees frames and loops rise.
    func testARealPrometheusScrapesItEverySecond() throws {
        let prometheus = try toolPath("prometheus")
        let player = try startPlayer()
        defer { stop(player.process) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prometheus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("prometheus.yml")
        try """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: loopplay
                static_configs:
                  - targets: ['127.0.0.1:\(player.port)']
            """.write(to: config, atomically: true, encoding: .utf8)
        let webPort = unusedLoopbackPort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: prometheus)
        server.arguments = ["--config.file=\(config.path)", "--storage.tsdb.path=\(folder.appendingPathComponent("data").path)",
                            "--web.listen-address=127.0.0.1:\(webPort)", "--log.level=warn"]
        let log = Pipe()
        (server.standardOutput, server.standardError) = (log, log)
        let serverLog = PipeText(log)
        try server.run()
        defer { stop(server) }

        func query(_ expression: String) -> Double? {
            let encoded = expression.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? expression
            let response = RawHTTP.get(port: webPort, path: "/api/v1/query?query=\(encoded)")
            guard response.status == 200,
                  let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                  let data = object["data"] as? [String: Any], let result = (data["result"] as? [[String: Any]])?.first,
                  let value = result["value"] as? [Any], value.count == 2, let text = value[1] as? String else { return nil }
            return Double(text)
        }
        let up = pollFor(timeout: 60) { query("up{job=\"loopplay\"}").flatMap { $0 == 1 ? $0 : nil } }
        XCTAssertEqual(up, 1, "the target is not up: \(serverLog.text)")
        let firstFrames = try XCTUnwrap(pollFor(timeout: 30) { query("loopplay_frames_presented_total") }, serverLog.text)
        let firstLoops = try XCTUnwrap(pollFor(timeout: 30) { query("loopplay_loops_completed_total") })
        // Each scrape is a second apart: later samples are higher.
        XCTAssertNotNil(pollFor(timeout: 30) { query("loopplay_frames_presented_total").flatMap { $0 > firstFrames ? $0 : nil } },
                        "frames did not rise in Prometheus")
        XCTAssertNotNil(pollFor(timeout: 30) { query("loopplay_loops_completed_total").flatMap { $0 > firstLoops ? $0 : nil } },
                        "loops did not rise in Prometheus")
        // Scraped every second: several samples within the last few seconds.
        XCTAssertNotNil(pollFor(timeout: 30) {
            query("count_over_time(loopplay_frames_presented_total[5s])").flatMap { $0 >= 3 ? $0 : nil }
        }, "fewer than 3 scrapes in 5 s")
        XCTAssertEqual(query("loopplay_state{state=\"playing\"}"), 1)
    }

    func testOtherPathsMethodsAndAHead() throws {
        let player = try startPlayer()
        defer { stop(player.process) }
        let missing = RawHTTP.get(port: player.port, path: "/nothing")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(String(decoding: missing.body, as: UTF8.self).contains("/metrics"))
        let posted = RawHTTP.get(port: player.port, path: "/metrics", method: "POST")
        XCTAssertEqual(posted.status, 405)
        XCTAssertEqual(posted.headers["allow"], "GET, HEAD")
        let head = RawHTTP.get(port: player.port, path: "/metrics", method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, [], "no body for HEAD")
        XCTAssertEqual(RawHTTP.get(port: player.port, path: "/").status, 200)
        XCTAssertEqual(RawHTTP.get(port: player.port, path: "/metrics?x=1").status, 200)
        // Junk is answered with 400 and the endpoint still serves.
        let junk = RawHTTP.get(port: player.port, path: "\u{01}\u{02} nonsense")
        XCTAssertEqual(junk.status, 400, "\(junk)")
        XCTAssertEqual(junk.ending, .closed)
        XCTAssertEqual(RawHTTP.get(port: player.port, path: "/metrics").status, 200)
        XCTAssertTrue(player.process.isRunning)
    }

    func testAPortInUseAndBadAddressesAreOneLineAndExit64() throws {
        let clip = try TestMedia.testPattern("metrics-30.mp4", frames: 30, codec: TestMedia.h264)
        let holder = try LoopplayTool.start(["--source", clip, "--loop", "--headless", "--metrics-address", "127.0.0.1:0"],
                                            environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(holder.process) }
        let holderText = PipeText(holder.stderr)
        let line = #/metrics at http://127\.0\.0\.1:(\d+)/metrics/#
        XCTAssertTrue(holderText.waitUntil(timeout: 20) { $0.contains(line) })
        let port = try XCTUnwrap(holderText.text.firstMatch(of: line).map { String($0.1) })
        let inUse = try LoopplayTool.run(["--headless", "--metrics-address", "127.0.0.1:\(port)", clip])
        XCTAssertEqual(inUse.status, 64)
        XCTAssertEqual(inUse.stderr, "loopplay: invalid metrics-address '127.0.0.1:\(port)': cannot listen there (Address already in use)\n")
        for (address, reason) in [("9100", "give HOST:PORT"), ("127.0.0.1:70000", "the port must be a number from 0 to 65535"),
                                  ("::1:9100", "in brackets"), ("127.0.0.1:", "the port must be")] {
            let result = try LoopplayTool.run(["--headless", "--metrics-address", address, clip])
            XCTAssertEqual(result.status, 64, address)
            XCTAssertTrue(result.stderr.contains(reason), "\(address): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertTrue(holder.process.isRunning, "the player holding the port plays on")
    }

    /// A source that fails is counted by kind, and the state says failed; the endpoint stays up.
    func testAFailedSourceIsCountedByKind() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString.prefix(8)).sock").path
        let player = try startPlayer("/nonexistent/missing.mp4", extra: ["--input-ipc-server", socket])
        defer { stop(player.process) }
        let failed = pollFor(timeout: 20) { () -> [String: Double]? in
            let samples = scrape(player.port).samples
            return samples["loopplay_state{state=\"failed\"}"] == 1 && samples["loopplay_errors_total{kind=\"sourceNotFound\"}"] == 1
                ? samples : nil
        }
        XCTAssertNotNil(failed, "\(scrape(player.port).samples) \(player.stderr.text)")
    }

    /// Each failure is counted when it happens (issue 35): once a remote control hears that a missing
    /// file it loaded failed, a scrape counts it, and the state says failed.
    func testEachFailureIsCountedWhenItHappens() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString.prefix(8)).sock").path
        let player = try startPlayer(extra: ["--input-ipc-server", socket])
        defer { stop(player.process) }
        let client = try XCTUnwrap(pollFor(timeout: 20) { try? IPCClient(path: socket) }, player.stderr.text)
        for (index, name) in ["first-missing.mp4", "second-missing.mp4"].enumerated() {
            XCTAssertEqual(try client.request(["loadfile", "/nonexistent/\(name)"])?["error"] as? String, "success")
            XCTAssertNotNil(client.event("end-file", timeout: 20) { $0["reason"] as? String == "error" }, player.stderr.text)
            let samples = scrape(player.port).samples
            XCTAssertEqual(samples["loopplay_state{state=\"failed\"}"], 1, name)
            XCTAssertEqual(samples["loopplay_errors_total{kind=\"sourceNotFound\"}"], Double(index + 1), "\(name): \(samples)")
        }
    }

    /// Idle connections cannot lock a scraper out (a new one closes the oldest), and one that never
    /// finishes its request is closed after the request timeout.
    func testIdleAndSlowClientsCannotLockScrapersOut() throws {
        let player = try startPlayer()
        defer { stop(player.process) }
        func connected() -> Int32 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(player.port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            XCTAssertEqual(result, 0)
            return descriptor
        }
        let idle = (0..<(MetricsServer.maximumConnections + 8)).map { _ in connected() }
        defer { idle.forEach { close($0) } }
        XCTAssertEqual(RawHTTP.get(port: player.port, path: "/metrics").status, 200, "served beside \(idle.count) idle connections")
        let slow = connected()
        defer { close(slow) }
        _ = "GET /met".withCString { send(slow, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var poller = pollfd(fd: slow, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&poller, 1, 30_000), 1, "closed within its request timeout")
        var byte: UInt8 = 0
        XCTAssertLessThanOrEqual(recv(slow, &byte, 1, 0), 0, "closed, nothing sent")
        XCTAssertTrue(player.process.isRunning)
    }

    func testSourceLabelsKeepNoCredentialsOrTokens() {
        XCTAssertEqual(MetricsRecorder.publishable("https://user:secret@cdn.example.com/live/master.m3u8?token=abc#x"),
                       "https://cdn.example.com/live/master.m3u8")
        XCTAssertEqual(MetricsRecorder.publishable("/srv/loop \"1\".mp4"), "/srv/loop \"1\".mp4")
    }

    func testAddressesAreParsedAsExportersTakeThem() throws {
        XCTAssertEqual(try MetricsAddress(parsing: "127.0.0.1:9100"), MetricsAddress(host: "127.0.0.1", port: 9100))
        XCTAssertEqual(try MetricsAddress(parsing: "[::1]:0"), MetricsAddress(host: "::1", port: 0))
        XCTAssertEqual(try MetricsAddress(parsing: ":9100"), MetricsAddress(host: "::", port: 9100))
        XCTAssertEqual(try MetricsAddress(parsing: "localhost:80").description, "localhost:80")
        XCTAssertEqual(MetricsAddress(host: "::1", port: 9).metricsURL, "http://[::1]:9/metrics")
        for bad in ["", "9100", "a:b", "h:-1", "h:65536", "[::1:9", "::1:9", "a b:1", "h:+1", "h:٣"] {
            XCTAssertThrowsError(try MetricsAddress(parsing: bad), bad)
        }
    }

    /// A count that starts again (a new item's, a new run's) is added on: the counter never falls.
    func testACounterFollowsACountThatStartsAgain() {
        let registry = PrometheusCollectorRegistry()
        var counter = RisingCounter(registry.makeCounter(descriptor: .named("t_total", "test")))
        for value in [0.0, 5, 9, 2, 4, 4] { counter.follow(value) }
        XCTAssertTrue(registry.emitToString().split(separator: "\n").contains("t_total 13"), registry.emitToString())
    }

    private func promtoolPath() throws -> String { try toolPath("promtool") }

    private func toolPath(_ name: String) throws -> String {
        let path = "/usr/bin/\(name)"
        try require(FileManager.default.isExecutableFile(atPath: path), "\(name) is not installed (Debian's prometheus)")
        return path
    }
}
