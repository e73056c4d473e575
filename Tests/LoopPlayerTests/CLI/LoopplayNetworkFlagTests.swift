import Foundation
import XCTest

/// loopplay's network flags against a real HTTP server on 127.0.0.1: `--hls-bitrate`,
/// `--network-timeout`, `--allowed-hosts` and `--allowed-schemes`.
final class LoopplayNetworkFlagTests: XCTestCase {
    private func variantEvents(_ stdout: String) -> [(bandwidth: Int, height: Int)] {
        stdout.split(separator: "\n").compactMap { LoopplayTool.json(String($0))?["events"] as? [[String: Any]] }
            .flatMap { $0 }
            .filter { $0["type"] as? String == "variantChanged" }
            .compactMap { event in (event["bandwidth"] as? Int).map { ($0, event["height"] as? Int ?? 0) } }
    }

    /// `--hls-bitrate max|min|<bits>` picks the variant, reported by a `variantChanged` event.
    func testHLSBitrateChoosesTheVariant() throws {
        let fixture = try NetworkFixture()
        let master = fixture.url("/hls/master-low-first.m3u8")
        for (word, height) in [("max", 720), ("min", 240), ("1.2M", 360)] {
            let result = try LoopplayTool.run(["--source", master, "--headless", "--untimed", "--frames", "20",
                                               "--events", "--hls-bitrate", word])
            XCTAssertEqual(result.status, 0, "\(word): \(result.stderr)")
            XCTAssertEqual(variantEvents(result.stdout).first?.height, height, "\(word): \(result.stdout)")
        }
        let bad = try LoopplayTool.run(["--source", master, "--headless", "--hls-bitrate", "fast"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("invalid --hls-bitrate 'fast'"), bad.stderr)
    }

    /// A server that is gone: the source fails as a network error (one line naming the URL, exit
    /// 65). A server that takes the request and never answers: with `--network-timeout 1` the line
    /// says that nothing came for that second (not the default 30 s). No clock is read here: the
    /// timeout is the one the player names.
    func testASilentServerFailsAfterTheNetworkTimeout() throws {
        let fixture = try NetworkFixture()
        let master = fixture.url("/hls/master-low-first.m3u8")
        try fixture.server.setFaults([FaultRule(pattern: "master-low-first", stall: true)])
        let silent = try LoopplayTool.run(["--source", master, "--headless", "--network-timeout", "1"])
        XCTAssertEqual(silent.status, 65, silent.stderr)
        XCTAssertEqual(silent.stderr.split(separator: "\n").count, 1, silent.stderr)
        XCTAssertTrue(silent.stderr.contains(master) && silent.stderr.contains("sent nothing for 1.0 s"), silent.stderr)
        fixture.server.stop()
        let result = try LoopplayTool.run(["--source", master, "--headless", "--network-timeout", "1"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains(master), result.stderr)
        let range = try LoopplayTool.run(["--source", master, "--headless", "--network-timeout", "-1"])
        XCTAssertEqual(range.status, 64)
        XCTAssertTrue(range.stderr.contains("--network-timeout must be 0.5…86400.0 seconds"), range.stderr)
    }

    /// SIGTERM before `--snapshot`'s frame: no file, one line saying so, not exit 0 (a script's
    /// `loopplay --snapshot x.png URL && use x.png` read a file that was not there).
    func testASignalBeforeTheSnapshotIsAFailure() throws {
        let fixture = try NetworkFixture()
        let master = fixture.url("/hls/master-low-first.m3u8")
        try fixture.server.setFaults([FaultRule(pattern: "master-low-first", stall: true)])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("term-\(UUID().uuidString.prefix(8)).png").path
        let player = try LoopplayTool.start(["--source", master, "--headless", "--snapshot", path])
        defer { stop(player.process) }
        // Asked for the playlist, which never comes: the frame cannot have been taken.
        XCTAssertTrue(waitFor(timeout: 60) { (try? fixture.server.requestLog().contains { $0.path.hasSuffix("master-low-first.m3u8") }) == true })
        player.process.terminate()
        player.process.waitUntilExit()
        let said = String(decoding: player.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(player.process.terminationStatus, 70, said)
        XCTAssertTrue(said.contains("cannot write \(path): stopped by a signal before the snapshot was taken"), said)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    /// Hosts apply to network sources only; schemes to every source. A refused source is one line
    /// saying what was refused, exit 65, and nothing is requested from the server.
    func testAllowedHostsAndSchemesRefuseWhatTheyDoNotList() throws {
        let fixture = try NetworkFixture()
        let master = fixture.url("/hls/master-low-first.m3u8")
        let refused = try LoopplayTool.run(["--source", master, "--headless", "--allowed-hosts", "media.example.com"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("refused") && refused.stderr.contains("allowed hosts"), refused.stderr)
        XCTAssertTrue(try fixture.server.requestLog().isEmpty, "nothing fetched from a refused host")

        let allowed = try LoopplayTool.run(["--source", master, "--headless", "--untimed", "--frames", "5",
                                            "--allowed-hosts", "media.example.com, 127.0.0.1"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)

        let local = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--frames", "3",
                                          "--allowed-hosts", "media.example.com"])
        XCTAssertEqual(local.status, 0, "a local file has no host: \(local.stderr)")
        let noFiles = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--allowed-schemes", "https"])
        XCTAssertEqual(noFiles.status, 65, noFiles.stderr)
        XCTAssertTrue(noFiles.stderr.contains("refused"), noFiles.stderr)
        let empty = try LoopplayTool.run(["--source", master, "--headless", "--allowed-hosts", ","])
        XCTAssertEqual(empty.status, 64, empty.stderr)
    }
}
