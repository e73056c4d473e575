import Foundation
import XCTest

/// `loopplay --schedule FILE` as a user runs it: it plays what the file says is on now and tells it
/// over IPC and in `--stats-json`; a bad file is one line and exit 64, without the pointer to --help;
/// a bad file read again on SIGHUP leaves the schedule in use.
final class ScheduleCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func write(_ yaml: String, _ name: String = "show.yaml") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Today's weekday in UTC, as the file writes it, and tomorrow's midnight in RFC 3339.
    private func today() -> (weekday: String, tomorrow: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = Date()
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let weekday = names[calendar.component(.weekday, from: now) - 1]
        let midnight = calendar.startOfDay(for: now.addingTimeInterval(86_400))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return (weekday, formatter.string(from: midnight).replacingOccurrences(of: "Z", with: "+00:00"))
    }

    /// An entry on all of today plays, and IPC says so: `schedule-entry`, `schedule-next-change`
    /// (tomorrow's midnight, when the default follows), `path`.
    func testTheEntryOnNowPlaysAndIPCTellsIt() throws {
        let (idle, show) = (try TestMedia.loopClip(), try TestMedia.redThenBlue())
        // The entry is today's: not within 5 minutes of midnight (UTC), which a run may cross.
        let secondOfDay = Int(Date().timeIntervalSince1970) % 86_400
        try XCTSkipIf(secondOfDay > 86_400 - 300, "too close to midnight UTC for an entry of today")
        let (weekday, tomorrow) = today()
        let file = try write("""
            timezone: UTC
            default: {playlist: ["\(idle)"]}
            entries:
              - {name: today, days: [\(weekday)], from: "00:00", to: "24:00", playlist: ["\(show)"]}
            """)
        let socket = directory.appendingPathComponent("ipc.sock").path
        let stats = directory.appendingPathComponent("stats.json").path
        let started = try LoopplayTool.start(["--schedule", file, "--headless", "--input-ipc-server", socket, "--stats-json", stats],
                                             environment: ["SDL_AUDIODRIVER": "dummy"])
        var stopped = false
        defer { if !stopped { stop(started.process) } }
        let stderr = PipeText(started.stderr)
        let client = try XCTUnwrap(pollFor(timeout: 30) { started.process.isRunning ? try? IPCClient(path: socket) : nil },
                                   stderr.text)
        XCTAssertTrue(waitFor(timeout: 30) { (try? client.request(["get_property", "path"]))?["data"] as? String == show },
                      "the entry's item plays: \(stderr.text)")
        // Unless the day ended meanwhile (a run across midnight): then the default is on.
        let entry = try client.request(["get_property", "schedule-entry"])?["data"] as? String
        if entry == "today" {
            XCTAssertEqual(try client.request(["get_property", "schedule-next-change"])?["data"] as? String, tomorrow)
        } else {
            XCTAssertEqual(entry, "default")
        }
        // A timed override: the idle loop for ten minutes, at once; a bad one is refused; `clear` ends it.
        for bad: [Any] in [["schedule-override", idle, 0], ["schedule-override", idle, 86_401], ["schedule-override", [], 60],
                           ["schedule-override", idle, 60, "tomorrow"], ["schedule-override", [idle, 5], 60],
                           ["schedule-override", idle, 60, 0], ["schedule-override", idle, 60, "9999-12-31T23:59:59Z"],
                           ["schedule-override", idle, 60, "2027-01-04T10:00:00"], ["schedule-override", "clear", 60]] {
            XCTAssertEqual(try client.request(bad)?["error"] as? String, "invalid parameter", "\(bad)")
        }
        let sentAt = Date()
        XCTAssertEqual(try client.request(["schedule-override", idle, "600"])?["error"] as? String, "success")
        let answeredAt = Date()
        XCTAssertTrue(waitFor(timeout: 30) { (try? client.request(["get_property", "schedule-entry"]))?["data"] as? String == "override" },
                      stderr.text)
        XCTAssertTrue(waitFor(timeout: 30) { (try? client.request(["get_property", "path"]))?["data"] as? String == idle },
                      "the override's item plays: \(stderr.text)")
        let ends = try XCTUnwrap(try client.request(["get_property", "schedule-next-change"])?["data"] as? String)
        let end = try XCTUnwrap(ISO8601DateFormatter().date(from: ends), ends)
        // Its window is whole seconds from when the player took the command (between the two).
        XCTAssertGreaterThanOrEqual(end.timeIntervalSince1970, (sentAt.timeIntervalSince1970 + 600).rounded(.down) - 1, ends)
        XCTAssertLessThanOrEqual(end.timeIntervalSince1970, answeredAt.timeIntervalSince1970 + 600 + 1, ends)
        XCTAssertEqual(try client.request(["schedule-override", "clear"])?["error"] as? String, "success")
        XCTAssertTrue(waitFor(timeout: 30) { (try? client.request(["get_property", "schedule-entry"]))?["data"] as? String != "override" },
                      stderr.text)
        XCTAssertTrue(started.process.isRunning, "a schedule never ends by itself: \(stderr.text)")
        stop(started.process)
        stopped = true
        let report = try XCTUnwrap(LoopplayTool.json(String(contentsOfFile: stats, encoding: .utf8)), stderr.text)
        XCTAssertEqual(report["scheduleEntry"] as? String, entry)
        XCTAssertEqual(report["scheduleTransitions"] as? Int, 2, "the override's start and end")
    }

    /// SIGHUP (stderr not a terminal, as under systemd): a broken file is one line and the schedule in
    /// use stays; a fixed one whose default plays another item plays it.
    func testSIGHUPRereadsTheFile() throws {
        let (idle, other) = (try TestMedia.loopClip(), try TestMedia.redThenBlue())
        let file = try write("timezone: UTC\ndefault: {playlist: [\"\(idle)\"]}\n")
        let socket = directory.appendingPathComponent("hup.sock").path
        let started = try LoopplayTool.start(["--schedule", file, "--headless", "--input-ipc-server", socket],
                                             environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(started.process) }
        let stderr = PipeText(started.stderr)
        let client = try XCTUnwrap(pollFor(timeout: 30) { started.process.isRunning ? try? IPCClient(path: socket) : nil },
                                   stderr.text)
        XCTAssertTrue(waitFor(timeout: 30) { (try? client.request(["get_property", "path"]))?["data"] as? String == idle },
                      stderr.text)
        try "timezone: UTC\ndefault: {playlist: 7}\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(started.process.processIdentifier, SIGHUP)
        XCTAssertTrue(waitFor(timeout: 30) { stderr.text.contains("the schedule in use stays") }, stderr.text)
        XCTAssertTrue(stderr.text.contains("show.yaml:2: default.playlist"), stderr.text)
        XCTAssertEqual(try client.request(["get_property", "path"])?["data"] as? String, idle)
        try "timezone: UTC\ndefault: {playlist: [\"\(other)\"]}\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(started.process.processIdentifier, SIGHUP)
        XCTAssertTrue(waitFor(timeout: 30) { (try? client.request(["get_property", "path"]))?["data"] as? String == other },
                      "the new default plays: \(stderr.text)")
        XCTAssertTrue(stderr.text.contains("reload: \(file) read again"), stderr.text)
        XCTAssertTrue(started.process.isRunning)
    }

    func testABadFileIsOneLineAndExit64() throws {
        let file = try write("""
            default: {playlist: [idle.mp4]}
            entries:
              - {name: late, from: "25:00", to: "02:00", playlist: [a.mp4]}
            """)
        let run = try LoopplayTool.run(["--schedule", file, "--headless"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertEqual(run.stderr, "loopplay: \(file):3: entries[0].from: \"25:00\" is not a time of day (HH:MM or HH:MM:SS)\n")
        let missing = try LoopplayTool.run(["--schedule", directory.appendingPathComponent("none.yaml").path])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertTrue(missing.stderr.hasSuffix("none.yaml: No such file or directory\n"), missing.stderr)
        let zone = try LoopplayTool.run(["--schedule", try write("timezone: GMT+2\ndefault: {playlist: [a.mp4]}", "zone.yaml")])
        XCTAssertEqual(zone.status, 64, zone.stderr)
        XCTAssertTrue(zone.stderr.contains("is not a known time zone"), zone.stderr)
    }

    func testASourceOrSyncEpochBesideAScheduleIsRefused() throws {
        let file = try write("default: {playlist: [a.mp4]}")
        let withSource = try LoopplayTool.run(["--schedule", file, try TestMedia.loopClip()])
        XCTAssertEqual(withSource.status, 64)
        XCTAssertTrue(withSource.stderr.contains("--schedule says what plays: leave out the source"), withSource.stderr)
        let withEpoch = try LoopplayTool.run(["--schedule", file, "--sync-epoch", "1798761600"])
        XCTAssertEqual(withEpoch.status, 64)
        XCTAssertTrue(withEpoch.stderr.contains("sync: true"), withEpoch.stderr)
        let days = try LoopplayTool.run(["--schedule", file, "--print-schedule", "--days", "-1"])
        XCTAssertEqual(days.status, 64)
        XCTAssertTrue(days.stderr.contains("--days must be 1 to 366, not -1"), days.stderr)
    }
}
