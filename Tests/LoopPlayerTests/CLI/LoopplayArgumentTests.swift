import Foundation
import LoopPlayer
import LoopPlayerIPC
import XCTest

/// loopplay's arguments as a user types them: negative numbers, flags that need no source, what the
/// no-display fallback says, and arguments with control characters.
final class LoopplayArgumentTests: XCTestCase {
    /// A negative number as its own argument is the option's value for every numeric option; out of
    /// range, the option's own check says so (not "Missing value").
    func testNegativeNumbersAreValuesOfEveryNumericOption() throws {
        let rejected: [(option: String, value: String, message: String)] = [
            ("--contrast", "-1", "--contrast must be between 0 and 4"),
            ("--brightness", "-1.5", "--brightness must be between -1 and 1"),
            ("--speed", "-1", "--speed must be between 0 and 16"),
            ("--volume", "-5", "--volume must be between 0 and 100"),
            ("--snapshot-at", "-2", "--snapshot-at must be 0 or more seconds"),
            ("--duration", "-3", "--duration must be a positive number of seconds"),
            ("--loops", "-2", "--loops must be at least 1"),
            ("--frames", "-4", "--frames must be at least 1"),
            ("--audio-channels", "-1", "--audio-channels must be 1…8"),
            ("--audio-track", "-1", "--audio-track number must not be negative"),
            ("--time-publishing", "-2", "--time-publishing must be 0.01…3600.0 seconds"),
            ("--frame-cache", "-1", "--frame-cache must be 0…65536 MiB"),
        ]
        for (option, value, message) in rejected {
            let result = try LoopplayTool.run(["--source", "swipe", "--headless", option, value])
            XCTAssertEqual(result.status, 64, "\(option) \(value): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Missing value"), "\(option) \(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(option) \(value): \(result.stderr)")
        }
    }

    /// `--help` and `-h` print the help on stdout and exit 0 (they went through the error path: one
    /// escaped line on stderr, exit 64).
    func testHelpGoesToStandardOutput() throws {
        for flag in ["--help", "-h"] {
            let result = try LoopplayTool.run([flag])
            XCTAssertEqual(result.status, 0, "\(flag): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", flag)
            XCTAssertTrue(result.stdout.contains("USAGE:"), "\(flag): \(result.stdout)")
            XCTAssertTrue(result.stdout.contains("--loop"), flag)
            XCTAssertFalse(result.stdout.contains("\\n"), "\(flag): no escaped newlines")
            XCTAssertGreaterThan(result.stdout.split(separator: "\n").count, 20, flag)
        }
    }

    /// `--version` (mpv's) names the player and the FFmpeg and SDL it runs on, on stdout, exit 0.
    func testVersionNamesTheLibraries() throws {
        let result = try LoopplayTool.run(["--version"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.first.map(String.init), "loopplay \(LibraryVersions.loopPlayer)")
        XCTAssertTrue(lines.count == 2 && lines[1].hasPrefix("FFmpeg 5.") && lines[1].contains("libavcodec 59.")
                      && lines[1].contains(", SDL 2."), result.stdout)
    }

    /// `--list-properties` and `--input-cmdlist` (what the man page's IPC section is made from) list
    /// every property of the table and every command the IPC takes, one a line, and exit 0.
    func testListingsNameEveryPropertyAndCommand() throws {
        let properties = try LoopplayTool.run(["--list-properties"])
        XCTAssertEqual(properties.status, 0, properties.stderr)
        let listed = properties.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(listed, PlayerProperty.all.map(\.name))
        XCTAssertTrue(properties.stdout.contains("volume") && properties.stdout.contains("read/write  number 0…100 %"),
                      properties.stdout)
        XCTAssertFalse(properties.stdout.contains("e+308"), "an open range reads 'from', not the largest Double")
        let commands = try LoopplayTool.run(["--input-cmdlist"])
        XCTAssertEqual(commands.status, 0, commands.stderr)
        XCTAssertEqual(commands.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) },
                       MPVCommandName.allCases.map(\.rawValue))
        XCTAssertTrue(commands.stdout.contains("seek target flags\n"), commands.stdout)
    }

    /// Every usage error is one line on stderr naming the flag (and its range where it has one),
    /// exit 64, and nothing plays.
    func testUsageErrorsAreOneLineNamingTheFlag() throws {
        let cases: [(arguments: [String], says: String)] = [
            (["--bogus"], "Unknown option '--bogus'"),
            (["--hepl"], "Unknown option '--hepl'. Did you mean '--help'?"),
            (["--verison"], "Unknown option '--verison'. Did you mean '--version'?"),
            (["--loopp"], "Did you mean '--loop'?"),
            (["--bogus", "swipe"], "Unknown option '--bogus'"),
            (["--window-size", "-1", "swipe"], "--window-size must be WxH with sides 1…16384 px"),
            (["--window-size", "640x0", "swipe"], "--window-size must be WxH with sides 1…16384 px"),
            (["--pip-size", "-1", "swipe"], "--pip-size must be WxH with sides 32…4096 px"),
            (["--geometry", "640x360-10+0", "swipe"], "invalid --geometry '640x360-10+0': expected WxH+X+Y, WxH or +X+Y"),
            (["--geometry", "+5", "swipe"], "invalid --geometry '+5'"),
            (["--crop", "320x180", "swipe"], "invalid --crop '320x180': expected WxH+X+Y"),
            (["--geometry", "0x10+1+1", "swipe"], "invalid --geometry '0x10+1+1'"),
            (["--geometry", "+40000+0", "swipe"], "places 0…32767"),
            (["--screen", "32", "swipe"], "--screen 32 is out of range: 0 to 31"),
            (["-sync-epoch", "now", "swipe"], "Unknown option '-sync-epoch': did you mean '--sync-epoch'?"),
            (["-hello", "swipe"], "Unknown option '-hello'"),
            (["--panel", "160x180", "swipe"], "invalid --panel '160x180': expected WxH+X+Y"),
            (["--panel", "160x180+0+0@", "swipe"], "invalid --panel '160x180+0+0@'"),
            (["--panel", "160x180+0+0@320x200", "swipe"], "invalid --panel '160x180+0+0@320x200'"),
            (["--panel", "160x180+0+0", "--pip", "swipe"], "--panel shows the picture in panel windows: not with --pip"),
            (["--fs-screen", "-1", "swipe"], "--fs-screen -1 is out of range: 0 to 31"),
            (["--geometry", "320x180", "--window-size", "320x180", "swipe"], "--geometry and --window-size both give the size"),
            (["--hls-bitrate", "-1", "swipe"], "invalid --hls-bitrate '-1'"),
            (["--time-publishing", "", "swipe"], "--time-publishing"),
            (["--time-publishing", "-2", "swipe"], "--time-publishing must be 0.01…3600.0 seconds"),
            (["--duration", "inf", "swipe"], "--duration must be a positive number of seconds"),
            (["--duration", "nan", "swipe"], "--duration must be a positive number of seconds"),
            (["--loops"], "Missing value for '--loops"),
            (["--loops", "2", "swipe", "swipe"], "--loops with a playlist counts passes of the list: add --loop-playlist"),
            (["--loops", "2", "--loop", "--loop-playlist", "swipe", "swipe"],
             "--loops with a playlist counts passes of the list: use --loop-playlist without --loop"),
            (["--stats-json", "/nonexistent/dir/stats.json", "swipe"], "--stats-json /nonexistent/dir/stats.json cannot be written"),
            (["--stats-json", "/tmp", "swipe"], "--stats-json /tmp is a directory"),
            (["--stats-json", "", "swipe"], "--stats-json needs a file name"),
            ([], "no source"),
        ]
        for (arguments, says) in cases {
            let result = try LoopplayTool.run(["--headless", "--frames", "1"] + arguments)
            let label = arguments.joined(separator: " ")
            XCTAssertEqual(result.status, 64, "\(label): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(label): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("loopplay: "), "\(label): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(says), "\(label): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", label)
        }
        // `--time-publishing` alone, before a source: every second.
        let alone = try LoopplayTool.run(["--time-publishing", try TestMedia.loopClip(), "--headless", "--untimed", "--frames", "3"])
        XCTAssertEqual(alone.status, 0, alone.stderr)
    }

    func testFrameCacheReplaysLaterPassesAndSaysSoInTheStatistics() throws {
        let clip = try TestMedia.loopClip()  // 120 pictures of 320x180: about 10 MB
        let played = try LoopplayTool.run(["--source", clip, "--headless", "--untimed", "--loops", "3",
                                           "--frame-cache", "32", "--stats-json", "-"])
        XCTAssertEqual(played.status, 0, played.stderr)
        let stats = LoopplayTool.json(played.stdout)
        XCTAssertEqual(stats?["framesPresented"] as? Int, 360)
        XCTAssertEqual(stats?["framesDecoded"] as? Int, 120)
        XCTAssertGreaterThanOrEqual(stats?["framesReplayed"] as? Int ?? 0, 240)
    }

    func testNegativeBrightnessPlaysAndReachesTheFilterGraph() throws {
        let played = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--frames", "3",
                                           "--brightness", "-0.25", "--contrast", "0.5", "--stats-json", "-"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertEqual(LoopplayTool.json(played.stdout)?["framesPresented"] as? Int, 3)
        let negative = try LoopplayTool.run(["--print-filter-graph", "--brightness", "-0.25"])
        let positive = try LoopplayTool.run(["--print-filter-graph", "--brightness", "0.25"])
        XCTAssertEqual(negative.status, 0, negative.stderr)
        XCTAssertFalse(negative.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        XCTAssertNotEqual(negative.stdout, positive.stdout, "the sign reaches the graph")
    }

    func testPrintFilterGraphNeedsNoSource() throws {
        let result = try LoopplayTool.run(["--print-filter-graph", "--filter", "sepia"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let graph = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(graph.isEmpty)
        let withSource = try LoopplayTool.run(["--source", "swipe", "--print-filter-graph", "--filter", "sepia"])
        XCTAssertEqual(withSource.stdout.trimmingCharacters(in: .whitespacesAndNewlines), graph)
        XCTAssertEqual(try LoopplayTool.run(["--headless"]).status, 64, "playing still needs a source")
    }

    /// Without a display the one line names the snapshot's real path, and the snapshot is written there.
    func testNoDisplayNamesTheSnapshotItReallyWrites() throws {
        let directory = try scratchDirectory()
        let result = try LoopplayTool.run(["--snapshot", "mine.png", try TestMedia.loopClip()], environment: noDisplay,
                                          directory: directory.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(lines.first?.contains("no display") == true, result.stderr)
        XCTAssertTrue(lines.first?.contains("snapshot in mine.png") == true, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("mine.png").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("loopplay-snapshot.png").path))
    }

    /// `--require-display` (the units' flag): without a display, one line, exit 70, nothing written
    /// and nothing played headless, so that systemd restarts it until the display is there.
    func testRequireDisplayFailsWithoutOne() throws {
        let directory = try scratchDirectory()
        let result = try LoopplayTool.run(["--require-display", "--stats-json", "-", try TestMedia.loopClip()],
                                          environment: noDisplay, directory: directory.path)
        XCTAssertEqual(result.status, 70, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(lines.first?.contains("no display") == true, result.stderr)
        XCTAssertFalse(result.stderr.contains("headless"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "nothing written")
        XCTAssertEqual(try LoopplayTool.run(["--require-display", "--headless", "swipe"]).status, 64)
    }

    func testNoDisplayWithAMissingSourceClaimsNoSnapshot() throws {
        let directory = try scratchDirectory()
        let result = try LoopplayTool.run(["--snapshot", "mine.png", "missing-clip.mp4"], environment: noDisplay,
                                          directory: directory.path)
        XCTAssertEqual(result.status, 65, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(lines.first?.contains("missing-clip.mp4: source not found") == true, result.stderr)
        XCTAssertFalse(result.stderr.contains("snapshot"), result.stderr)
    }

    /// A newline or an escape sequence in a source or an option value cannot split the error line or
    /// reach the terminal raw.
    func testControlCharactersInArgumentsAreEscaped() throws {
        let source = NSTemporaryDirectory() + "line\none\u{1B}[31mred\u{7F}\u{85}.mp4"
        let missing = try LoopplayTool.run(["--headless", source])
        XCTAssertEqual(missing.status, 65)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.hasPrefix("loopplay: "), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("line\\none\\x1b[31mred\\x7f\\x85.mp4: source not found"), missing.stderr)
        XCTAssertFalse(missing.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x7F || $0.value == 0x85 })

        let usage = try LoopplayTool.run(["--source", "swipe", "--audio-track", "e\u{1B}]0;title\u{7}n"])
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.stderr.contains("e\\x1b]0;title\\x07n"), usage.stderr)
        XCTAssertFalse(usage.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    /// The library's log (FFmpeg's too) reaches stderr in loopplay's own one-line format.
    func testLogLinesUseTheOneLineFormat() throws {
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--frames", "2", "--verbose"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 2, "--verbose logs what the engine does")
        for line in lines { XCTAssertTrue(line.hasPrefix("loopplay: "), String(line)) }
        XCTAssertTrue(lines.contains { $0.contains("[LoopPlayer.FFmpeg]") }, "FFmpeg's lines come through the same handler")
    }

    private var noDisplay: [String: String?] { ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil] }

    private func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-args-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }
}
