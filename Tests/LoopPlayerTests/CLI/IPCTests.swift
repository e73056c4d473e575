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

    /// A controller's usual burst — `loadfile` then two `append`s in one write — from `--idle` makes a
    /// list of three (the second append overtook the list the first one made, and was lost: "there
    /// is no Playlist").
    func testABurstOfLoadfilesFromIdleKeepsEveryItem() throws {
        let socket = directory.appendingPathComponent("burst.sock").path
        let started = try LoopplayTool.start(["--idle", "--headless", "--input-ipc-server", socket],
                                             environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(started.process) }
        let stderr = PipeText(started.stderr)
        let client = try XCTUnwrap(pollFor(timeout: 30) { started.process.isRunning ? try? IPCClient(path: socket) : nil })
        let clips = try [TestMedia.loopClip(), TestMedia.redThenBlue(), TestMedia.loopClip()]
        let lines = ["{\"command\": [\"loadfile\", \"\(clips[0])\"], \"request_id\": 1}",
                     "{\"command\": [\"loadfile\", \"\(clips[1])\", \"append\"], \"request_id\": 2}",
                     "{\"command\": [\"loadfile\", \"\(clips[2])\", \"append\"], \"request_id\": 3}"]
        try client.send(lines.joined(separator: "\n") + "\n")
        XCTAssertTrue(waitFor(timeout: 30) { (try? client.request(["get_property", "playlist-count"], id: 9))?["data"] as? Int == 3 },
                      "three items: \(stderr.text)")
        XCTAssertFalse(stderr.text.contains("no Playlist"), stderr.text)
    }

    /// `stop` without `--idle` ends the player, as mpv's does (it stayed up with nothing to play).
    func testStopWithoutIdleEndsThePlayer() throws {
        let socket = directory.appendingPathComponent("stop.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        XCTAssertEqual(try client.request(["stop"])?["error"] as? String, "success")
        XCTAssertTrue(waitFor(timeout: 30) { !player.process.isRunning }, "the player ended")
        player.process.waitUntilExit()
        XCTAssertEqual(player.process.terminationStatus, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket went with it")
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

    /// `loop-file 2` plays two more passes, and reads what is left, then the file ends (and loopplay
    /// with it: no `--idle`). Issue 35: it was taken as `inf` and looped forever.
    func testALoopCountPlaysThatManyMorePasses() throws {
        let socket = directory.appendingPathComponent("count.sock").path
        let clip = try TestMedia.testPattern("ipc-count-30.mp4", frames: 30, codec: TestMedia.h264)
        let player = try startPlayer(socket, source: clip)
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        // Paused while the count is set: no pass ends in between.
        XCTAssertEqual(try client.request(["set_property", "pause", true])?["error"] as? String, "success")
        XCTAssertEqual(try client.request(["observe_property", 1, "loop-file"])?["error"] as? String, "success")
        XCTAssertEqual(try client.request(["set_property", "loop-file", 2])?["error"] as? String, "success")
        XCTAssertEqual(try client.request(["get_property", "loop-file"])?["data"] as? Int, 2)
        XCTAssertEqual(try client.request(["set_property", "pause", false])?["error"] as? String, "success")
        // Every value it took from here on (the replies above skipped the events before), until the file ended.
        var values: [String] = []
        let giveUp = Date().addingTimeInterval(60)  // a failure bound: looping forever, it never ends
        while Date() < giveUp, let line = client.line(timeout: 30), let object = IPCClient.object(line) {
            if object["event"] as? String == "property-change", object["id"] as? Int == 1 {
                values.append("\(object["data"] ?? "none")")
            }
            if object["event"] as? String == "end-file" {
                XCTAssertEqual(object["reason"] as? String, "eof")
                break
            }
        }
        // The change to 2 may come after the replies read above (events are not ordered with them).
        if values.first == "2" { values.removeFirst() }
        XCTAssertEqual(values, ["1", "0"], "the passes left after each wrap (false is 0 to Foundation)")
    }

    /// `--idle`: up with nothing to play; a `loadfile` plays, `stop` goes back to idle; a missing file
    /// says `start-file` before its `end-file` (issue 35).
    func testIdleWaitsForALoadfileAndStopGoesBackToIdle() throws {
        let socket = directory.appendingPathComponent("idle.sock").path
        let started = try LoopplayTool.start(["--idle", "--headless", "--input-ipc-server", socket],
                                             environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(started.process) }
        let client = try XCTUnwrap(pollFor(timeout: 20) { started.process.isRunning ? try? IPCClient(path: socket) : nil },
                                   String(decoding: started.stderr.fileHandleForReading.availableData, as: UTF8.self))
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "idle-active"]))?["data"] as? Bool == true })
        XCTAssertEqual((try client.request(["get_property", "playlist"])?["data"] as? [Any])?.count, 0)
        let clip = try TestMedia.loopClip()
        XCTAssertEqual(try client.request(["loadfile", clip])?["error"] as? String, "success")
        XCTAssertNotNil(client.event("file-loaded", timeout: 20))
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "width"]))?["data"] as? Int == 320 })
        XCTAssertEqual(try client.request(["get_property", "height"])?["data"] as? Int, 180)
        XCTAssertEqual(try client.request(["get_property", "idle-active"])?["data"] as? Bool, false)
        let remaining = try XCTUnwrap(client.request(["get_property", "time-remaining"])?["data"] as? Double)
        XCTAssertTrue((0...4).contains(remaining), "\(remaining)")
        let tracks = try XCTUnwrap(client.request(["get_property", "track-list"])?["data"] as? [[String: Any]])
        XCTAssertEqual(tracks.first?["type"] as? String, "video")
        XCTAssertEqual(try client.request(["stop"])?["error"] as? String, "success")
        XCTAssertEqual(client.event("end-file", timeout: 20)?["reason"] as? String, "stop")
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "idle-active"]))?["data"] as? Bool == true })
        XCTAssertTrue(started.process.isRunning, "idle, waiting")
        let missing = directory.appendingPathComponent("gone.mp4").path
        XCTAssertEqual(try client.request(["command": ["name": "loadfile", "url": missing]] as [String: Any])?["error"] as? String,
                       "success", "the named form")
        let events = try XCTUnwrap(client.events(through: "loopplay-error", timeout: 20))
        let start = try XCTUnwrap(events.firstIndex(of: "start-file"), "\(events)")
        XCTAssertEqual(events.dropFirst(start).first { $0 == "end-file" }, "end-file", "start-file, then its end-file: \(events)")
        XCTAssertTrue(started.process.isRunning)
    }

    /// `loadfile X append` adds X after the source playing, which plays on (issue 35: it started again);
    /// `playlist` lists both, `playlist-clear` leaves the one playing.
    func testAppendKeepsTheSourcePlaying() throws {
        let socket = directory.appendingPathComponent("append.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        XCTAssertNotNil(pollFor(timeout: 20) { () -> Double? in
            ((try? client.request(["get_property", "time-pos"]))?["data"] as? Double).flatMap { $0 > 1 ? $0 : nil }
        })
        // Paused: where it is stays put, unless it starts again.
        XCTAssertEqual(try client.request(["set_property", "pause", true])?["error"] as? String, "success")
        let position = try XCTUnwrap(client.request(["get_property", "time-pos"])?["data"] as? Double)
        XCTAssertGreaterThan(position, 0.5)
        let second = try TestMedia.redThenBlue()
        XCTAssertEqual(try client.request(["loadfile", second, "append"])?["error"] as? String, "success")
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "playlist-count"]))?["data"] as? Int == 2 })
        let after = try XCTUnwrap(client.request(["get_property", "time-pos"])?["data"] as? Double)
        XCTAssertEqual(after, position, accuracy: 0.1, "it plays on")
        let entries = try XCTUnwrap(client.request(["get_property", "playlist"])?["data"] as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["filename"] as? String }, [try TestMedia.loopClip(), second])
        XCTAssertEqual(entries.first?["current"] as? Bool, true)
        XCTAssertNil(entries.last?["current"])
        XCTAssertEqual(try client.request(["playlist-clear"])?["error"] as? String, "success")
        XCTAssertTrue(waitFor(timeout: 10) { (try? client.request(["get_property", "playlist-count"]))?["data"] as? Int == 1 })
        XCTAssertEqual(try client.request(["get_property", "filename"])?["data"] as? String, "loop-120.mp4")
    }

    /// `~` in the socket's path is the home folder, as mpv reads it.
    func testATildeInTheSocketPathIsTheHomeFolder() throws {
        let started = try LoopplayTool.start(["--source", try TestMedia.loopClip(), "--loop", "--headless",
                                              "--input-ipc-server", "~/home.sock"],
                                             environment: ["SDL_AUDIODRIVER": "dummy", "HOME": directory.path])
        defer { stop(started.process) }
        let socket = directory.appendingPathComponent("home.sock").path
        XCTAssertNotNil(pollFor(timeout: 20) { started.process.isRunning ? try? IPCClient(path: socket) : nil },
                        String(decoding: started.stderr.fileHandleForReading.availableData, as: UTF8.self))
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

    /// Until the player shows its picture (a screenshot before the first frame is an error, as in mpv).
    private func waitUntilPlaying(_ client: IPCClient) throws {
        XCTAssertTrue(try waitFor(timeout: 60) {
            try client.request(["get_property", "loopplay-state"])?["data"] as? String == "playing"
        }, "the player plays")
    }

    /// `screenshot-to-file FILE [subtitles|video|window]` is answered once the file is written (it
    /// was answered before the file existed), in the format its name says (`.jpg` got PNG bytes);
    /// `video` is the bare picture, without the overlays the default shows.
    func testAScreenshotIsAnsweredOnceWrittenInTheFormatItsNameSays() throws {
        let socket = directory.appendingPathComponent("shot.sock").path
        let player = try startPlayer(socket, source: try TestMedia.redThenBlue(), extra: ["--overlay-text", "LOOP"])
        defer { stop(player.process) }
        let client = try IPCClient(path: socket)
        try waitUntilPlaying(client)
        func screenshot(_ arguments: [String]) throws -> String? {
            let data = try JSONSerialization.data(withJSONObject: ["command": ["screenshot-to-file"] + arguments, "request_id": 5])
            try client.send(String(decoding: data, as: UTF8.self) + "\n")
            return client.reply(timeout: 60)?["error"] as? String
        }
        func lightPixelsTopLeft(_ path: String) throws -> Int {
            let image = try TestMedia.rgbPixels(of: path)
            XCTAssertEqual([image.width, image.height], [320, 180], path)
            var light = 0
            for y in 0..<40 { for x in 0..<120 where image.pixel(x, y).allSatisfy({ $0 > 200 }) { light += 1 } }
            return light
        }
        let jpeg = directory.appendingPathComponent("shot.jpg").path
        XCTAssertEqual(try screenshot([jpeg]), "success")
        // At once: the answer came after the file was written.
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)).prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG file")
        XCTAssertGreaterThan(try lightPixelsTopLeft(jpeg), 30, "the overlay text, as shown")
        let png = directory.appendingPathComponent("shot.png").path
        XCTAssertEqual(try screenshot([png, "subtitles"]), "success")
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG file")
        XCTAssertGreaterThan(try lightPixelsTopLeft(png), 30)
        let bare = directory.appendingPathComponent("bare.png").path
        XCTAssertEqual(try screenshot([bare, "video"]), "success")
        XCTAssertEqual(try lightPixelsTopLeft(bare), 0, "video: the picture alone")
        let window = directory.appendingPathComponent("window.png").path
        XCTAssertEqual(try screenshot([window, "window"]), "success")
        XCTAssertGreaterThan(try lightPixelsTopLeft(window), 30)
        XCTAssertEqual(try screenshot([png, "each-frame"]), "invalid parameter")
    }

    /// A screenshot that cannot be written is `error running command`, as mpv answers (it was
    /// `success`): a missing folder, a FIFO (which held a writer and then the player's end for ever:
    /// later screenshots were refused, `quit` did not end the process, nor did SIGTERM). Four in one
    /// write are four files.
    func testScreenshotsThatCannotBeWrittenAreErrorsAndQuitStillEnds() throws {
        let socket = directory.appendingPathComponent("fifo.sock").path
        let player = try startPlayer(socket)
        defer { stop(player.process) }
        let stderr = PipeText(player.stderr)
        let client = try IPCClient(path: socket)
        try waitUntilPlaying(client)
        func request(_ path: String, id: Int) -> String {
            #"{"command": ["screenshot-to-file", "\#(path)"], "request_id": \#(id)}"# + "\n"
        }
        try client.send(request("/nonexistent/dir/x.png", id: 1))
        XCTAssertEqual(client.reply(timeout: 60)?["error"] as? String, "error running command")
        for id in 2...3 {
            let fifo = directory.appendingPathComponent("ff\(id).png").path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            try client.send(request(fifo, id: id))
            XCTAssertEqual(client.reply(timeout: 60)?["error"] as? String, "error running command", "a FIFO is no picture file")
        }
        let files = (0..<4).map { directory.appendingPathComponent("m\($0).png").path }
        try client.send(files.enumerated().map { request($1, id: 10 + $0) }.joined())
        for (index, file) in files.enumerated() {
            let reply = client.reply(timeout: 60)
            XCTAssertEqual(reply?["request_id"] as? Int, 10 + index)
            XCTAssertEqual(reply?["error"] as? String, "success", stderr.text)
            XCTAssertEqual([UInt8]((try? Data(contentsOf: URL(fileURLWithPath: file)))?.prefix(4) ?? Data()), [0x89, 0x50, 0x4E, 0x47],
                           "\(file) is written when its answer comes")
        }
        XCTAssertTrue(stderr.text.contains("cannot write /nonexistent/dir/x.png: No such file or directory"), stderr.text)
        XCTAssertEqual(try client.request(["quit"], id: 20)?["error"] as? String, "success")
        // A hang guard, not a speed bound: before, the player never ended.
        let ended = waitFor(timeout: 60) { !player.process.isRunning }
        XCTAssertTrue(ended, "quit ends loopplay")
        guard ended else { return }
        XCTAssertEqual(player.process.terminationStatus, 0, stderr.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket is removed at the end")
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
