import Foundation
import XCTest

/// `loopplay --alert-black`: a clip with a black segment, played in real time headless as a service
/// would be: one line on stderr when the alert begins and one when it ends, `STATUS=` to systemd,
/// and the metric.
final class PictureAlertsCommandLineTests: XCTestCase {
    func testABlackSegmentIsSaidOnStderrInTheStatusAndTheMetrics() throws {
        let clip = try PictureAlertsTests.clipWithABlackSegment()
        let notify = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-notify-\(UUID().uuidString.prefix(8))").path
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener); unlink(notify) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in notify.utf8.enumerated() where index < bytes.count - 1 { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        let player = try LoopplayTool.start(["--source", clip, "--loop", "--headless", "--alert-black", "1",
                                             "--metrics-address", "127.0.0.1:0"],
                                            environment: ["SDL_AUDIODRIVER": "dummy", "NOTIFY_SOCKET": notify])
        defer { stop(player.process) }
        let said = PipeText(player.stderr)
        let line = #/metrics at http://127\.0\.0\.1:(\d+)/metrics/#
        XCTAssertTrue(said.waitUntil(timeout: 20) { $0.contains(line) }, said.text)
        let port = try XCTUnwrap(said.text.firstMatch(of: line).flatMap { Int($0.1) })

        // The metric while the alert holds: scraped until seen (the segment comes back every 6 s).
        let raised = pollFor(timeout: 30) { () -> Bool? in
            let body = String(decoding: RawHTTP.get(port: port, path: "/metrics").body, as: UTF8.self)
            return body.contains("loopplay_display_alert{kind=\"black\"} 1") ? true : nil
        }
        XCTAssertEqual(raised, true, "the gauge was never 1: \(said.text)")
        XCTAssertTrue(said.waitUntil(timeout: 30) { $0.contains("display alert: the picture is no longer black") }, said.text)
        XCTAssertTrue(said.text.contains("\(clip): display alert: the picture is black"), said.text)
        let metrics = String(decoding: RawHTTP.get(port: port, path: "/metrics").body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("loopplay_display_alert{kind=\"frozen\"} 0"), "every kind exported: \(metrics)")
        XCTAssertTrue(metrics.range(of: #"loopplay_display_alerts_total\{kind="black"\} [1-9]"#, options: .regularExpression) != nil, metrics)

        // systemd heard of it: the alert leads the status line.
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 0) > 0 {
            let count = recv(listener, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
        XCTAssertTrue(messages.contains("STATUS=Alert: the picture is black — Playing \(clip)"), "\(messages)")
        XCTAssertTrue(player.process.isRunning)
    }

    func testAnAlertThresholdOutOfRangeIsOneLine() throws {
        let result = try LoopplayTool.run(["--headless", "--alert-frozen", "0.5", "swipe"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--alert-frozen must be 1…86400 seconds"), result.stderr)
    }
}
