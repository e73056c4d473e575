import Foundation
import XCTest

/// `loopplay --play-log`: proof of play as JSON lines, written as a service runs — killed with
/// SIGKILL, stopped, rotated by size, reopened on SIGUSR1 and SIGHUP — and read back whole.
final class PlayLogTests: XCTestCase {
    private func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("playlog-\(UUID().uuidString.prefix(8))-\(name)").path
    }

    /// The file's lines, each parsed (nil for a line that is not a JSON object).
    private func lines(_ path: String) -> [[String: Any]?] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { LoopplayTool.json(String($0)) }
    }

    /// SIGKILL mid-run leaves every line before it whole; a line torn by a power cut is ended at the
    /// next start, and the lines after it are whole too.
    func testEveryLineSurvivesASIGKILLAndATornLine() throws {
        let log = temporary("kill.jsonl")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let clip = try TestMedia.testPattern("playlog-15.mp4", frames: 15, codec: TestMedia.h264)  // half a second
        for round in 1...2 {
            let player = try LoopplayTool.start(["--headless", "--loop", "--play-log", log, clip], environment: ["SDL_AUDIODRIVER": "dummy"])
            let wanted = 3 * round
            XCTAssertTrue(waitFor(timeout: 30) { lines(log).count >= wanted + (round == 2 ? 1 : 0) }, "lines: \(lines(log).count)")
            kill(player.process.processIdentifier, SIGKILL)
            player.process.waitUntilExit()
            if round == 1 {
                // A power cut in the middle of a line.
                let handle = try XCTUnwrap(FileHandle(forWritingAtPath: log))
                handle.seekToEndOfFile()
                handle.write(Data(#"{"source":"/srv/torn"#.utf8))
                try handle.close()
            }
        }
        let parsed = lines(log)
        XCTAssertEqual(parsed.filter { $0 == nil }.count, 1, "only the torn line is not JSON: \(parsed)")
        let text = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(text.contains(#"{"source":"/srv/torn"#), "the torn line was ended, not merged with the next")
        for record in parsed.compactMap({ $0 }) {
            XCTAssertEqual(record["source"] as? String, clip)
            XCTAssertEqual(record["ending"] as? String, "completedPass")
            XCTAssertEqual(Double(record["framesShown"] as? Int ?? 0), 15, accuracy: 1, "\(record)")
            for key in ["start", "end", "startLocal", "endLocal"] { XCTAssertNotNil(record[key] as? String, key) }
            XCTAssertGreaterThan(record["seconds"] as? Double ?? 0, 0.3)
        }
    }

    /// A file that cannot grow (a full disk; here the file-size limit, EFBIG) is said once, the run
    /// plays on, and the line cut short is ended before the next run appends.
    func testAFullDiskIsSaidOnceAndItsTornLineEnded() throws {
        let log = temporary("full.jsonl")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let clip = try TestMedia.testPattern("playlog-3.mp4", frames: 3, codec: TestMedia.h264)
        // 4 blocks (of 512 bytes in dash, /bin/sh here): a few lines, then one cut short, then none. SIGXFSZ ignored, as a
        // full disk sends none.
        let command = "trap '' XFSZ; ulimit -f 4; exec \"$0\" \"$@\""
        let limited = try LoopplayTool.run(["--headless", "--untimed", "--loops", "40", "--play-log", log, clip],
                                           launcher: ["/bin/sh", "-c", command])
        XCTAssertEqual(limited.status, 0, limited.stderr)
        let said = limited.stderr.split(separator: "\n").filter { $0.contains("play log: cannot write") }
        XCTAssertEqual(said.count, 1, "said once, not per line: \(limited.stderr)")

        let again = try LoopplayTool.run(["--headless", "--untimed", "--loops", "2", "--play-log", log, clip])
        XCTAssertEqual(again.status, 0, again.stderr)
        let parsed = lines(log)
        // One line cut short at the limit (none if a line happened to end exactly there).
        XCTAssertLessThanOrEqual(parsed.filter { $0 == nil }.count, 1, "only the line cut short is not JSON")
        XCTAssertNotNil(parsed.last ?? nil, "the next run's lines are whole")
        XCTAssertGreaterThan(parsed.compactMap { $0 }.count, 3)
    }

    /// A synced playlist's items, each in its place, then the one playing when SIGTERM stopped the
    /// run: interrupted.
    func testASyncedPlaylistAndAnInterruptedItem() throws {
        let log = temporary("list.jsonl")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let player = try LoopplayTool.start(["--headless", "--sync-epoch", "now", "--loop-playlist", "--play-log", log, first, second],
                                            environment: ["SDL_AUDIODRIVER": "dummy"])
        XCTAssertTrue(waitFor(timeout: 40) { lines(log).count >= 3 }, "lines: \(lines(log))")
        player.process.terminate()
        player.process.waitUntilExit()
        let records = lines(log).compactMap { $0 }
        XCTAssertEqual(records.last?["ending"] as? String, "interrupted", "\(records)")
        let finished = records.dropLast()
        XCTAssertGreaterThanOrEqual(finished.count, 3)
        for (index, record) in finished.enumerated() {
            XCTAssertEqual(record["playlistIndex"] as? Int, index % 2, "\(record)")
            XCTAssertEqual(record["source"] as? String, index % 2 == 0 ? first : second)
            XCTAssertEqual(record["ending"] as? String, "completedPass", "\(record)")
        }
        // Back to back: each play ends where the next begins.
        for (earlier, later) in zip(records, records.dropFirst()) {
            XCTAssertEqual(earlier["end"] as? String, later["start"] as? String)
        }
    }

    /// Past its size the log becomes FILE.1; SIGUSR1 (and SIGHUP, stderr not a terminal) after it was
    /// moved away starts a new one.
    func testRotationBySizeAndReopeningOnASignal() throws {
        let log = temporary("rotate.jsonl")
        defer { for suffix in ["", ".1", ".moved"] { try? FileManager.default.removeItem(atPath: log + suffix) } }
        let clip = try TestMedia.testPattern("playlog-3.mp4", frames: 3, codec: TestMedia.h264)
        let run = try LoopplayTool.run(["--headless", "--untimed", "--loops", "40", "--play-log", log, "--play-log-size", "4K", clip])
        XCTAssertEqual(run.status, 0, run.stderr)
        let kept = lines(log + ".1"), current = lines(log)
        XCTAssertFalse(kept.isEmpty, "rotated once at least")
        XCTAssertTrue((kept + current).allSatisfy { $0 != nil })
        XCTAssertLessThanOrEqual(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? .max, 4096)
        XCTAssertLessThanOrEqual(try FileManager.default.attributesOfItem(atPath: log + ".1")[.size] as? Int ?? .max, 4096)

        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.removeItem(atPath: log + ".1")
        let player = try LoopplayTool.start(["--headless", "--loop", "--play-log", log, try TestMedia.testPattern("playlog-15.mp4", frames: 15, codec: TestMedia.h264)],
                                            environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        XCTAssertTrue(waitFor(timeout: 30) { !lines(log).isEmpty })
        try FileManager.default.moveItem(atPath: log, toPath: log + ".moved")  // logrotate's move
        kill(player.process.processIdentifier, SIGUSR1)
        XCTAssertTrue(waitFor(timeout: 30) { !lines(log).isEmpty }, "a new file after SIGUSR1")
        XCTAssertTrue(player.process.isRunning, "SIGUSR1 reopens the log and does not stop loopplay")

        // SIGHUP: logrotate's for a service (stderr not a terminal: here a pipe).
        try FileManager.default.removeItem(atPath: log + ".moved")
        try FileManager.default.moveItem(atPath: log, toPath: log + ".moved")
        kill(player.process.processIdentifier, SIGHUP)
        XCTAssertTrue(waitFor(timeout: 30) { !lines(log).isEmpty }, "a new file after SIGHUP")
        XCTAssertTrue(player.process.isRunning, "SIGHUP reopens the log and does not stop a service")
    }
}
