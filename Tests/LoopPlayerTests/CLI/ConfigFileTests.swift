import Foundation
import XCTest

/// `loopplay.conf`: read from $XDG_CONFIG_HOME and `--config`, the command line winning, each bad
/// line one error naming its file and line, and SIGHUP reloading what can change while playing.
final class ConfigFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("loopplay"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func write(_ text: String, to name: String = "loopplay/loopplay.conf") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// loopplay with an IPC socket, its config folder ours; returns it once the socket answers.
    private func start(_ arguments: [String]) throws -> (process: Process, stderr: PipeText, socket: String) {
        let socket = folder.appendingPathComponent("s.sock").path
        let started = try LoopplayTool.start(["--headless", "--input-ipc-server", socket] + arguments,
                                             environment: ["XDG_CONFIG_HOME": folder.path, "SDL_AUDIODRIVER": "dummy"])
        let stderr = PipeText(started.stderr)
        guard waitFor(timeout: 20, { (try? IPCClient(path: socket)) != nil }) else {
            stop(started.process)
            throw IPCClientError(description: "no socket: \(stderr.text)")
        }
        return (started.process, stderr, socket)
    }

    private func property(_ name: String, _ socket: String) throws -> Any? {
        let client = try IPCClient(path: socket)
        try client.send(#"{"command": ["get_property", "\#(name)"]}"# + "\n")
        return client.reply()?["data"]
    }

    func testTheFileSetsOptionsAndTheCommandLineWins() throws {
        let clip = try TestMedia.testPattern("config-30.mp4", frames: 30, codec: TestMedia.h264)
        _ = try write("""
            # a kiosk's settings
            loop
            volume = 50
            speed=1.5
            mute=no
            title="Lobby # east"
            source=\(clip)

            """)
        let player = try start(["--speed", "2"])
        defer { stop(player.process) }
        // Volume and speed are commands, carried out once the source has opened.
        XCTAssertTrue(waitFor(timeout: 10) { (try? self.property("speed", player.socket) as? Double) == 2 }, "the command line wins")
        XCTAssertEqual(try property("volume", player.socket) as? Double, 50)
        XCTAssertEqual(try property("loop-file", player.socket) as? String, "inf")
        XCTAssertEqual(try property("mute", player.socket) as? Bool, false)
        XCTAssertTrue(waitFor(timeout: 10) { (try? self.property("path", player.socket) as? String) == clip })

        // --no-config: the default file is not read; --config FILE is, after it.
        let other = try write("volume=30\n", to: "other.conf")
        let skipped = try LoopplayTool.run(["--no-config", "--headless", "--frames", "40", "--stats-json", "-", clip],
                                           environment: ["XDG_CONFIG_HOME": folder.path])
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertEqual(LoopplayTool.json(skipped.stdout)?["loopsCompleted"] as? Int, 0, "no loop from the file")
        XCTAssertEqual(LoopplayTool.json(skipped.stdout)?["framesPresented"] as? Int, 30, "the pass's end ended the run, not --frames")
        let named = try LoopplayTool.run(["--config", other, "--headless", "--frames", "40", "--stats-json", "-"],
                                         environment: ["XDG_CONFIG_HOME": folder.path])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(LoopplayTool.json(named.stdout)?["source"] as? String, clip, "the default file's source")
        XCTAssertGreaterThanOrEqual(LoopplayTool.json(named.stdout)?["loopsCompleted"] as? Int ?? 0, 1, "and its loop")
    }

    func testABadLineIsOneErrorNamingFileAndLine() throws {
        let cases: [(String, String)] = [
            ("loop\nbogus=1\n", "2: unknown option 'bogus'"),
            ("osd-level=9\n", "1: --osd-level 9 is out of range: 0 to 3"),
            ("fullscreen=maybe\n", "1: 'fullscreen' is a flag: write fullscreen, fullscreen=yes or fullscreen=no"),
            ("\n\n[kiosk]\n", "3: profiles ([name]) are not supported"),
            ("config=other.conf\n", "1: 'config' cannot be set in a config file"),
            ("volume=loud\n", "1: The value 'loud' is invalid for '--volume <0-100>'"),
            ("title=\"open\n", "1: the quote is not closed"),
            ("=5\n", "1: a setting needs a name: NAME=VALUE or NAME"),
            ("vol ume=5\n", "1: 'vol ume' is not an option name"),
            ("metrics-address=nowhere\n", "1: invalid metrics-address 'nowhere': give HOST:PORT, e.g. 127.0.0.1:9100"),
        ]
        for (text, expected) in cases {
            let path = try write(text, to: "bad.conf")
            let result = try LoopplayTool.run(["--config", path, "--headless", "--frames", "1", "swipe"],
                                              environment: ["XDG_CONFIG_HOME": folder.path])
            XCTAssertEqual(result.status, 64, text)
            XCTAssertEqual(result.stderr, "loopplay: \(path):\(expected)\n", text)
        }
        let missing = try LoopplayTool.run(["--config", "/nonexistent/x.conf", "swipe"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.stderr, "loopplay: /nonexistent/x.conf: cannot be read (No such file or directory)\n")
        // --help still answers with a bad default file.
        _ = try write("bogus\n")
        let help = try LoopplayTool.run(["--help"], environment: ["XDG_CONFIG_HOME": folder.path])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--config <file>"), help.stdout)
    }

    func testSIGHUPReloadsWhatCanChangeAndNamesTheRest() throws {
        let first = try TestMedia.testPattern("config-30.mp4", frames: 30, codec: TestMedia.h264)
        let second = try TestMedia.redThenBlue()
        _ = try write("loop\nvolume=50\nsource=\(first)\n")
        let player = try start([])
        defer { stop(player.process) }
        XCTAssertTrue(waitFor(timeout: 10) { (try? self.property("path", player.socket) as? String) == first })

        // A new source, volume and contrast apply at once; a window option needs a restart.
        _ = try write("loop\nvolume=20\ncontrast=1.5\nfullscreen\nsource=\(second)\n")
        kill(player.process.processIdentifier, SIGHUP)
        XCTAssertTrue(player.stderr.waitUntil(timeout: 10) { $0.contains("reloaded") }, player.stderr.text)
        XCTAssertTrue(player.stderr.text.contains(
            "loopplay: reloaded \(folder.path)/loopplay/loopplay.conf: contrast, source, volume changed; fullscreen needs a restart\n"),
            player.stderr.text)
        XCTAssertTrue(waitFor(timeout: 10) { (try? self.property("path", player.socket) as? String) == second })
        XCTAssertTrue(waitFor(timeout: 10) { (try? self.property("volume", player.socket) as? Double) == 20 },
                      "the volume, once the new source has opened")
        XCTAssertEqual(try property("contrast", player.socket) as? Double, 50)

        // A bad file changes nothing, and loopplay plays on.
        _ = try write("loop\nvolume=90\nbogus\n")
        kill(player.process.processIdentifier, SIGHUP)
        XCTAssertTrue(player.stderr.waitUntil(timeout: 10) { $0.contains("the settings in use stay") }, player.stderr.text)
        XCTAssertTrue(player.stderr.text.contains(":3: unknown option 'bogus'; the settings in use stay\n"), player.stderr.text)
        XCTAssertEqual(try property("volume", player.socket) as? Double, 20)
        XCTAssertTrue(player.process.isRunning, "SIGHUP with a config file reloads, it does not stop")

        player.process.terminate()
        XCTAssertTrue(waitFor(timeout: 10) { !player.process.isRunning })
        XCTAssertEqual(player.process.terminationStatus, 0)
    }

    /// Windows line ends and an editor's byte-order mark; a bare `time-publishing` in the file does
    /// not take the command line's source (whose name looks like a number) as its value.
    func testCRLFAndAByteOrderMarkAndABareOptionalValue() throws {
        let clip = try TestMedia.testPattern("config-30.mp4", frames: 30, codec: TestMedia.h264)
        let numbered = folder.appendingPathComponent("2024-lobby.mp4").path
        try FileManager.default.copyItem(atPath: clip, toPath: numbered)
        _ = try write("\u{FEFF}# lobby\r\nloop\r\ntime-publishing\r\n")
        let result = try LoopplayTool.run(["--headless", "--frames", "40", "--stats-json", "-", numbered],
                                          environment: ["XDG_CONFIG_HOME": folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThanOrEqual(LoopplayTool.json(result.stdout)?["loopsCompleted"] as? Int ?? 0, 1, "loop from the CRLF file")
        XCTAssertTrue(result.stdout.contains("{\"time\":"), "time-publishing from the file")
    }

    /// A reload touches only what its file changed: a source a remote control loaded stays when
    /// only the volume line changed.
    func testAReloadKeepsWhatTheRemoteControlChanged() throws {
        let first = try TestMedia.testPattern("config-30.mp4", frames: 30, codec: TestMedia.h264)
        let loaded = try TestMedia.redThenBlue()
        let config = try write("loop\nvolume=50\nsource=\(first)\n", to: "kiosk.conf")
        let player = try start(["--config", config])
        defer { stop(player.process) }
        let client = try IPCClient(path: player.socket)
        try client.send(#"{"command": ["loadfile", "\#(loaded)"], "request_id": 1}"# + "\n")
        XCTAssertEqual(client.reply()?["error"] as? String, "success")
        XCTAssertTrue(waitFor(timeout: 10) { (try? self.property("path", player.socket) as? String) == loaded })
        _ = try write("loop\nvolume=30\nsource=\(first)\n", to: "kiosk.conf")
        kill(player.process.processIdentifier, SIGHUP)
        XCTAssertTrue(player.stderr.waitUntil(timeout: 10) { $0.contains("reloaded") }, player.stderr.text)
        XCTAssertTrue(player.stderr.text.contains("reloaded \(config): volume changed\n"), player.stderr.text)
        XCTAssertTrue(waitFor(timeout: 10) { (try? self.property("volume", player.socket) as? Double) == 30 })
        XCTAssertEqual(try property("path", player.socket) as? String, loaded, "the loaded source stays")
    }

    /// The properties a config line sets (`PlayerProperty.configName`) reload at their edges, one past
    /// an edge changes nothing, and a line taken out puts the property back to its default.
    func testAReloadSetsTheTablesPropertiesAtTheirEdges() throws {
        let clip = try TestMedia.testPattern("config-30.mp4", frames: 30, codec: TestMedia.h264)
        let config = try write("loop\nsource=\(clip)\nspeed=2\nvolume=50\n", to: "edges.conf")
        let player = try start(["--config", config])
        defer { stop(player.process) }
        func reads(_ wanted: [String: Double]) -> Bool {
            waitFor(timeout: 20) { wanted.allSatisfy { (try? self.property($0.key, player.socket) as? Double) == $0.value } }
        }
        func reload(_ text: String, saying said: String) throws {
            let before = player.stderr.text.count
            _ = try write("loop\nsource=\(clip)\n" + text, to: "edges.conf")
            kill(player.process.processIdentifier, SIGHUP)
            XCTAssertTrue(player.stderr.waitUntil(timeout: 20) { $0.count > before && $0.dropFirst(before).contains("\n") },
                          player.stderr.text)
            XCTAssertTrue(player.stderr.text.dropFirst(before).contains(said), player.stderr.text)
        }
        XCTAssertTrue(reads(["speed": 2, "volume": 50]))
        try reload("speed=16\nvolume=0\nvideo-rotate=270\n", saying: "speed, video-rotate, volume changed")
        XCTAssertTrue(reads(["speed": 16, "volume": 0, "video-rotate": 270]), player.stderr.text)
        try reload("speed=0\nvolume=100\nvideo-rotate=0\n", saying: "speed, video-rotate, volume changed")
        XCTAssertTrue(reads(["speed": 0, "volume": 100, "video-rotate": 0]), player.stderr.text)
        for past in ["speed=16.5", "volume=101", "video-rotate=45", "volume=-1"] {
            try reload(past + "\n", saying: "the settings in use stay")
            XCTAssertTrue(reads(["speed": 0, "volume": 100, "video-rotate": 0]), past)
        }
        try reload("speed=3\nvideo-rotate=90\n", saying: "changed")
        XCTAssertTrue(reads(["speed": 3, "video-rotate": 90]))
        try reload("", saying: "speed, video-rotate changed")
        XCTAssertTrue(reads(["speed": 1, "video-rotate": 0]), "lines taken out: the defaults")
        XCTAssertTrue(player.process.isRunning)
    }

    /// The command line wins over the file at a reload too: a property it sets stays, its line edited or gone.
    func testAReloadKeepsWhatTheCommandLineSet() throws {
        let clip = try TestMedia.testPattern("config-30.mp4", frames: 30, codec: TestMedia.h264)
        let config = try write("loop\nsource=\(clip)\nvolume=60\nspeed=2\n", to: "line.conf")
        let player = try start(["--config", config, "--volume", "40"])
        defer { stop(player.process) }
        XCTAssertTrue(waitFor(timeout: 20) { (try? self.property("volume", player.socket) as? Double) == 40 })
        _ = try write("loop\nsource=\(clip)\nvolume=70\nspeed=3\n", to: "line.conf")
        kill(player.process.processIdentifier, SIGHUP)
        XCTAssertTrue(player.stderr.waitUntil(timeout: 20) { $0.contains("reloaded") }, player.stderr.text)
        XCTAssertTrue(waitFor(timeout: 20) { (try? self.property("speed", player.socket) as? Double) == 3 })
        XCTAssertEqual(try property("volume", player.socket) as? Double, 40, "the command line's volume stays")
    }

    /// Without a config file, SIGHUP (a closed terminal) ends loopplay as before.
    func testSIGHUPWithoutAConfigFileStops() throws {
        let player = try start(["--no-config", "--loop", "swipe"])
        kill(player.process.processIdentifier, SIGHUP)
        XCTAssertTrue(waitFor(timeout: 10) { !player.process.isRunning })
        XCTAssertEqual(player.process.terminationStatus, 0)
    }
}
