import Foundation
import XCTest

/// `loopplay --input-ipc-server`: mpv's JSON IPC, driven by real clients (python-mpv-jsonipc from
/// PyPI, socat) and by a raw socket for what no polite client sends.
final class IPCTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ipc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// loopplay playing `source` (looping, headless, real time) with its socket at `socket`.
    private func startPlayer(_ socket: String, source: String? = nil, extra: [String] = [])
        throws -> (process: Process, stdout: Pipe, stderr: Pipe) {
        let player = try LoopplayTool.start(["--source", try source ?? TestMedia.loopClip(), "--loop", "--headless",
                                             "--input-ipc-server", socket] + extra,
                                            environment: ["SDL_AUDIODRIVER": "dummy"])
        // Until it answers (a socket file left by a killed player is there before the new one listens).
        guard waitFor(timeout: 20, { (try? IPCClient(path: socket)) != nil || !player.process.isRunning }),
              player.process.isRunning else {
            stop(player.process)
            let said = String(decoding: player.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw IPCClientError(description: "loopplay did not open \(socket): \(said)")
        }
        return player
    }

    func testAnMPVClientLibraryDrivesLoopplay() throws {
        let library = Self.packageRoot.appendingPathComponent(".build/test-python")
        try require(FileManager.default.fileExists(atPath: library.appendingPathComponent("python_mpv_jsonipc.py").path),
                    "python-mpv-jsonipc is not installed in .build/test-python")
        let socket = directory.appendingPathComponent("mpv.sock").path
        let second = try TestMedia.redThenBlue()
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let script = Self.packageRoot.appendingPathComponent("Tests/LoopPlayerTests/Support/mpv_client.py").path
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = library.path
        let client = try TestMedia.run("python3", [script, socket, second], environment: environment)
        XCTAssertEqual(client.status, 0, client.output)
        let seen = try XCTUnwrap(LoopplayTool.json(client.output), client.output)
        XCTAssertEqual(seen["duration"] as? Double ?? 0, 4, accuracy: 0.01)
        XCTAssertEqual(seen["path"] as? String, try TestMedia.loopClip())
        XCTAssertEqual(seen["filename"] as? String, "loop-120.mp4")
        XCTAssertEqual(seen["playlist_count"] as? Int, 1)
        XCTAssertEqual(seen["volume"] as? Double, 100)
        XCTAssertEqual(seen["time_moves"] as? Bool, true, "time-pos rises while it plays")
        XCTAssertEqual(seen["pause_read_back"] as? Bool, true, "set_property is answered once it took effect")
        XCTAssertEqual(seen["pause_event"] as? Bool, true, "a property-change event for pause")
        XCTAssertEqual(seen["pause_changes"] as? [Bool], [false, true])
        XCTAssertEqual(seen["pause"] as? Bool, true)
        XCTAssertEqual(seen["playback_restart"] as? Bool, true)
        XCTAssertEqual(seen["time_pos_after_seek"] as? Double ?? 0, 2.5, accuracy: 0.05)
        XCTAssertEqual(seen["volume_set"] as? Double ?? 0, 40, accuracy: 0.01)
        XCTAssertEqual(seen["mute_set"] as? Bool, true)
        XCTAssertEqual(seen["unknown_command"] as? String, "invalid parameter")
        XCTAssertEqual(seen["unknown_property"] as? String, "property not found")
        XCTAssertEqual(seen["bad_value"] as? String, "unsupported format for accessing property")
        XCTAssertEqual(seen["still_answers"] as? Bool, true)
        XCTAssertEqual(seen["file_loaded"] as? Bool, true)
        XCTAssertEqual(seen["path_after_load"] as? String, second)
        XCTAssertEqual(seen["closed_after_quit"] as? Bool, true)
        XCTAssertTrue(waitFor(timeout: 10) { !player.process.isRunning }, "quit ends loopplay")
        XCTAssertEqual(player.process.terminationStatus, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket is removed at the end")
    }

    func testSocatSendsJSONAndTextCommands() throws {
        try require(FileManager.default.isExecutableFile(atPath: "/usr/bin/socat"), "socat is not installed")
        let socket = directory.appendingPathComponent("socat.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        func socat(_ input: String) throws -> String {
            let file = directory.appendingPathComponent("input-\(UUID().uuidString)")
            try input.write(to: file, atomically: true, encoding: .utf8)
            // -t: how long socat keeps reading after its input ended (the replies come at once).
            return try TestMedia.run("sh", ["-c", "socat -t 2 - UNIX-CONNECT:\(socket) < \(file.path)"]).output
        }
        let replies = try socat("{\"command\": [\"get_property\", \"playlist-count\"], \"request_id\": 7}\n")
        XCTAssertEqual(IPCClient.object(String(replies.split(separator: "\n").first ?? ""))?["data"] as? Int, 1, replies)
        // A text command, as in mpv's input.conf: no reply, and it is done.
        XCTAssertEqual(try socat("set pause yes\n"), "")
        let client = try IPCClient(path: socket)
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "pause"]))?["data"] as? Bool == true })
        XCTAssertEqual(try socat("cycle pause\n# a comment\n\n"), "")
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "pause"]))?["data"] as? Bool == false })
        // Lines piped in at once, socat closing its sending side after them: every one is carried
        // out and answered before the connection closes (only the first was, and no answer came).
        let piped = try socat("set pause yes\nset volume 40\nset speed 2\n"
            + "{\"command\": [\"get_property\", \"pause\"], \"request_id\": 1}\n"
            + "{\"command\": [\"get_property\", \"volume\"], \"request_id\": 2}\n"
            + "{\"command\": [\"get_property\", \"speed\"], \"request_id\": 3}\n")
        let answers = piped.split(separator: "\n").compactMap { IPCClient.object(String($0)) }
        XCTAssertEqual(answers.compactMap { $0["request_id"] as? Int }, [1, 2, 3], piped)
        XCTAssertEqual(answers.first?["data"] as? Bool, true, piped)
        XCTAssertEqual((answers.dropFirst().first?["data"] as? NSNumber)?.doubleValue, 40, piped)
        XCTAssertEqual((answers.last?["data"] as? NSNumber)?.doubleValue, 2, piped)
    }

    func testBadInputGetsMPVErrorsAndNothingElseBreaks() throws {
        let socket = directory.appendingPathComponent("bad.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        let cases: [(String, String)] = [
            ("{\"command\": [\"get_property\", \"pause\"", "invalid parameter"),  // not JSON
            ("{\"command\": [\"get_property\", \"pause\"]} trailing", "invalid parameter"),
            ("{\"request_id\": 1}", "invalid parameter"),  // no command
            ("{\"command\": []}", "invalid parameter"),
            ("{\"command\": \"pause\"}", "invalid parameter"),
            ("{\"command\": [42]}", "invalid parameter"),
            ("{\"command\": [\"no-such-command\"]}", "invalid parameter"),
            ("{\"command\": [\"get_property\"]}", "invalid parameter"),
            ("{\"command\": [\"get_property\", 5]}", "invalid parameter"),
            ("{\"command\": [\"get_property\", \"no-such-property\"]}", "property not found"),
            ("{\"command\": [\"set_property\", \"volume\", [1]]}", "unsupported format for accessing property"),
            ("{\"command\": [\"set_property\", \"volume\", 1000]}", "error accessing property"),
            ("{\"command\": [\"set_property\", \"speed\", -1]}", "error accessing property"),
            ("{\"command\": [\"set_property\", \"duration\", 3]}", "property unavailable"),  // read-only, as mpv says
            ("{\"command\": [\"set_property\", \"playlist-pos\", 99999999999999]}", "error accessing property"),
            ("{\"command\": [\"seek\", \"far\"]}", "invalid parameter"),
            ("{\"command\": [\"seek\", 1, \"sideways\"]}", "invalid parameter"),
            ("{\"command\": [\"quit\", 1000]}", "invalid parameter"),
            ("{\"command\": [\"observe_property\", \"x\", \"pause\"]}", "invalid parameter"),
            ("{\"command\": " + String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000) + "}",
             "invalid parameter"),  // nested deeper than mpv's 50
            ("{\"command\": [\"loadfile\", \"\(String(repeating: "x", count: 200_000))\"]}", "invalid parameter"),  // huge
        ]
        for (request, expected) in cases {
            try client.send(request + "\n")
            let reply = client.reply()
            XCTAssertEqual(reply?["error"] as? String, expected, "\(request.prefix(80)) → \(String(describing: reply))")
        }
        // A request id of any JSON form comes back as it was sent.
        try client.send("{\"command\": [\"get_property\", \"pause\"], \"request_id\": {\"mine\": [1, \"two\"]}}\n")
        XCTAssertEqual((client.reply()?["request_id"] as? [String: Any])?["mine"] as? [AnyHashable], [1, "two"])
        // A client that goes away in the middle of a line, and one that floods and never reads.
        let leaving = try IPCClient(path: socket)
        try leaving.send("{\"command\": [\"get_prop")
        let flooding = try IPCClient(path: socket)
        let burst = String(repeating: "{\"command\": [\"get_property\", \"property-list\"]}\n", count: 2000)
        for _ in 0..<20 { try? flooding.send(burst) }
        // The player and the first client carry on.
        let before = try XCTUnwrap(client.request(["get_property", "time-pos"])?["data"] as? Double)
        XCTAssertTrue(waitFor(timeout: 10) {
            ((try? client.request(["get_property", "time-pos"]))?["data"] as? Double).map { $0 != before } ?? false
        }, "still playing")
        XCTAssertEqual(try client.request(["get_property", "filename"])?["data"] as? String, "loop-120.mp4")
        XCTAssertTrue(player.process.isRunning)
    }

    func testEachClientHearsItsOwnObservations() throws {
        let socket = directory.appendingPathComponent("two.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let (first, second) = (try IPCClient(path: socket), try IPCClient(path: socket))
        XCTAssertEqual(try first.request(["observe_property", 1, "mute"])?["error"] as? String, "success")
        XCTAssertEqual(first.event("property-change")?["data"] as? Bool, false, "the value at once")
        XCTAssertEqual(try second.request(["observe_property", 5, "volume"])?["error"] as? String, "success")
        XCTAssertEqual(second.event("property-change")?["data"] as? Double, 100)
        XCTAssertEqual(try second.request(["set_property", "mute", true])?["error"] as? String, "success")
        let change = first.event("property-change")
        XCTAssertEqual(change?["id"] as? Int, 1)
        XCTAssertEqual(change?["name"] as? String, "mute")
        XCTAssertEqual(change?["data"] as? Bool, true)
        XCTAssertEqual(try second.request(["set_property", "volume", 25])?["error"] as? String, "success")
        XCTAssertEqual(second.event("property-change")?["data"] as? Double, 25)
        // Pipelined in one write: the get is read once the set has taken effect, as mpv's would be.
        try second.send("{\"command\": [\"set_property\", \"pause\", true], \"request_id\": 1}\n"
                        + "{\"command\": [\"get_property\", \"pause\"], \"request_id\": 2}\n")
        XCTAssertEqual(second.reply()?["request_id"] as? Int, 1)
        let readBack = second.reply()
        XCTAssertEqual(readBack?["request_id"] as? Int, 2)
        XCTAssertEqual(readBack?["data"] as? Bool, true)
        XCTAssertEqual(try second.request(["set_property", "pause", false])?["error"] as? String, "success")
        // Our own events come to every client: a pass completed (4 s clip, looping).
        XCTAssertEqual(first.event("loopplay-loop-completed", timeout: 15)?["count"] as? Int, 1)
        XCTAssertEqual(try first.request(["get_property", "client_name"])?["error"] as? String, "property not found")
        let names = [try first.request(["client_name"])?["data"] as? String, try second.request(["client_name"])?["data"] as? String]
        XCTAssertEqual(Set(names.compactMap { $0 }).count, 2, "each client has its own name: \(names)")
        XCTAssertTrue(names.allSatisfy { $0?.hasPrefix("ipc-") == true }, "\(names)")
    }

    func testSocketPathProblemsAreOneClearLine() throws {
        // A file that is not a socket is never removed.
        let file = directory.appendingPathComponent("notes.txt").path
        try "keep me".write(toFile: file, atomically: true, encoding: .utf8)
        let onFile = try LoopplayTool.run(["--source", "swipe", "--headless", "--input-ipc-server", file])
        XCTAssertEqual(onFile.status, 64, onFile.stderr)
        XCTAssertTrue(onFile.stderr.contains("the path exists and is not a socket"), onFile.stderr)
        XCTAssertEqual(onFile.stderr.split(separator: "\n").count, 1, onFile.stderr)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "keep me")
        // A socket another player listens on.
        let socket = directory.appendingPathComponent("busy.sock").path
        let first = try startPlayer(socket)
        defer { stop(first.process) }
        var info = stat()
        XCTAssertEqual(stat(socket, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the user's alone")
        let busy = try LoopplayTool.run(["--source", "swipe", "--headless", "--input-ipc-server", socket])
        XCTAssertEqual(busy.status, 64, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("another program is listening on that socket"), busy.stderr)
        XCTAssertNotNil(try IPCClient(path: socket).request(["get_property", "pause"]), "the first player's socket still works")
        // A socket left behind by a player that was killed is taken over.
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        XCTAssertTrue(FileManager.default.fileExists(atPath: socket))
        let second = try startPlayer(socket)
        defer { stop(second.process) }
        // Its source is named once its first status is out (the socket listens before that).
        let taker = try IPCClient(path: socket)
        XCTAssertTrue(waitFor(timeout: 10) { (try? taker.request(["get_property", "filename"]))?["data"] as? String == "loop-120.mp4" },
                      "the new player answers on the socket it took over")
        // A folder that is not there; a path too long for a socket.
        let nowhere = try LoopplayTool.run(["--source", "swipe", "--headless", "--input-ipc-server", "/nonexistent/dir/x.sock"])
        XCTAssertEqual(nowhere.status, 64, nowhere.stderr)
        XCTAssertTrue(nowhere.stderr.contains("cannot listen there (No such file or directory)"), nowhere.stderr)
        let long = try LoopplayTool.run(["--source", "swipe", "--headless", "--input-ipc-server", "/tmp/" + String(repeating: "s", count: 200)])
        XCTAssertEqual(long.status, 64, long.stderr)
        XCTAssertTrue(long.stderr.contains("a socket path has at most 107 bytes"), long.stderr)
    }

    /// A remote-controlled player survives a client's bad `loadfile`: the error is told, and the
    /// next good one plays. More than 64 clients at once are turned away.
    func testABadLoadfileIsAnErrorAndTheNextOnePlays() throws {
        let socket = directory.appendingPathComponent("load.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        let missing = directory.appendingPathComponent("nope.mp4").path
        XCTAssertEqual(try client.request(["loadfile", missing])?["error"] as? String, "success")
        let error = client.event("loopplay-error")
        XCTAssertEqual(error?["kind"] as? String, "sourceNotFound", "\(String(describing: error))")
        XCTAssertTrue(player.process.isRunning, "the player waits for the next loadfile")
        let good = try TestMedia.redThenBlue()
        XCTAssertEqual(try client.request(["loadfile", good])?["error"] as? String, "success")
        XCTAssertNotNil(client.event("file-loaded"))
        XCTAssertEqual(try client.request(["get_property", "path"])?["data"] as? String, good)
        var others: [IPCClient] = []
        for _ in 0..<70 { others.append(try IPCClient(path: socket)) }
        for other in others { try? other.send("{\"command\": [\"client_name\"]}\n") }
        let answered = others.filter { $0.reply(timeout: 5) != nil }.count
        XCTAssertEqual(answered, 63, "64 at once, the first client included")
        XCTAssertEqual(try client.request(["get_property", "filename"])?["data"] as? String, "red-blue.mp4")
    }

    /// A source that failed is said once, however often the player wakes after it (every request
    /// wakes it): it was said again at each wake — an `end-file` and an error twice a second, and
    /// as many in the statistics' error counts.
    func testAFailedSourceIsSaidOnce() throws {
        let socket = directory.appendingPathComponent("failed.sock").path
        let junk = directory.appendingPathComponent("junk.mp4")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: junk)
        let stats = directory.appendingPathComponent("failed-stats.json")
        let player = try startPlayer(socket, source: junk.path, extra: ["--stats-json", stats.path])
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "idle-active"]))?["error"] != nil })
        // Each answered once the player carried it out: an iteration of its loop each.
        for volume in 40..<50 { XCTAssertNotNil(try client.request(["set_property", "volume", volume])) }
        try client.send("{\"command\": [\"quit\"]}\n")
        XCTAssertTrue(waitFor(timeout: 10) { !player.process.isRunning })
        let written = try XCTUnwrap(LoopplayTool.json(String(decoding: try Data(contentsOf: stats), as: UTF8.self)))
        XCTAssertEqual(written["errors"] as? [String: Int], ["unreadableMedia": 1])
    }

    func testQuitWithACodeEndsWithThatCode() throws {
        let socket = directory.appendingPathComponent("quit.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        try client.send("{\"command\": [\"quit\", 3]}\n")
        XCTAssertNotNil(client.event("shutdown"), "clients hear the player go")
        XCTAssertTrue(waitFor(timeout: 10) { !player.process.isRunning })
        XCTAssertEqual(player.process.terminationStatus, 3)
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
