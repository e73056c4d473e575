import Foundation
import XCTest

/// What a new user meets first: the help on an 80-column terminal, mpv's spellings, sources that
/// cannot be played and the lines that say so.
final class NewUserTests: XCTestCase {
    private var directory: URL!
    private let noDisplay: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil]

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newuser-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// At 80 columns no key is cut from what it does, and every value has a placeholder that says
    /// what it is (`<snapshot>`, `<stats-json>`, `<audio-channels>` said nothing).
    func testTheHelpReadsAtEightyColumns() throws {
        let result = try LoopplayTool.run(["--help"], environment: ["COLUMNS": "80"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines { XCTAssertLessThanOrEqual(line.count, 80, line) }
        let keys = lines.prefix { !$0.hasPrefix("USAGE") }.joined(separator: "\n")
        for pair in ["q or Esc quit", "[/] speed ÷/× 1.1", "9/0 volume −/+", "v subtitles on/off", ">/< next/previous item",
                     "s snapshot", "backspace speed 1"] {
            XCTAssertTrue(keys.split(separator: "\n").contains { $0.contains(pair) }, "'\(pair)' on one line:\n\(keys)")
        }
        for vague in ["<snapshot>", "<stats-json>", "<audio-channels>", "<snapshot-at>", "<duration>", "<loops>", "<frames>"] {
            XCTAssertFalse(result.stdout.contains(vague), "\(vague) says nothing")
        }
    }

    /// mpv's `--fs` is loopplay's `--fullscreen`.
    func testMPVsFullscreenFlagIsTaken() throws {
        let result = try LoopplayTool.run(["--fs", "--headless", "--untimed", "--frames", "2", "swipe"],
                                          environment: ["SDL_AUDIODRIVER": "dummy"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("--vf"), result.stderr)
    }

    /// Standard input as the source is refused in one line saying why (it said "source not found").
    func testStandardInputIsRefusedSayingWhy() throws {
        for source in ["-", "pipe:0", "pipe:"] {
            let result = try LoopplayTool.run(["--headless", source])
            XCTAssertEqual(result.status, 64, "\(source): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("standard input and pipes cannot be played"), result.stderr)
            XCTAssertFalse(result.stderr.contains("not found"), result.stderr)
        }
    }

    /// A bare name that is a folder says so, as `./name` does (it said "media.mp4: source not found").
    func testABareNameThatIsAFolderSaysSo() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("media"), withIntermediateDirectories: true)
        for source in ["media", "./media"] {
            let result = try LoopplayTool.run(["--headless", source], directory: directory.path)
            XCTAssertEqual(result.status, 65, "\(source): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("it is a directory"), "\(source): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("media.mp4"), result.stderr)
        }
    }

    /// Without a display a failed source is its one line: no stats on stdout (they were printed whole).
    func testNoDisplayAndAFailedSourcePrintsNoStatistics() throws {
        let result = try LoopplayTool.run(["missing-clip.mp4"], environment: noDisplay, directory: directory.path)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(result.stdout, "", "nothing on stdout")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        // Asked for, they are written.
        let asked = try LoopplayTool.run(["--stats-json", "-", "missing-clip.mp4"], environment: noDisplay,
                                         directory: directory.path)
        XCTAssertEqual(asked.status, 65, asked.stderr)
        XCTAssertNotNil(LoopplayTool.json(asked.stdout), asked.stdout)
    }

    /// A failing file named relatively is named once in its line (it was "junk.mp4: /tmp/…/junk.mp4: …").
    func testAFailingFileIsNamedOnce() throws {
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: directory.appendingPathComponent("junk.mp4"))
        let result = try LoopplayTool.run(["--headless", "junk.mp4"], directory: directory.path)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "junk.mp4").count, 2, "named once: \(result.stderr)")
    }

    /// An error after an IPC `loadfile` names the source that failed, not the command line's.
    func testAnErrorAfterALoadfileNamesTheNewSource() throws {
        let socket = directory.appendingPathComponent("naming.sock").path
        let clip = try TestMedia.loopClip()
        let player = try LoopplayTool.start(["--source", clip, "--loop", "--headless", "--input-ipc-server", socket],
                                            environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let stderr = PipeText(player.stderr)
        XCTAssertTrue(waitFor(timeout: 20) { (try? IPCClient(path: socket)) != nil || !player.process.isRunning })
        let client = try IPCClient(path: socket)
        let junk = directory.appendingPathComponent("junk.mp4")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: junk)
        XCTAssertEqual(try client.request(["loadfile", junk.path])?["error"] as? String, "success")
        XCTAssertTrue(stderr.waitUntil(timeout: 20) { $0.contains("junk.mp4") }, stderr.text)
        let line = stderr.text.split(separator: "\n").first { $0.contains("junk.mp4") } ?? ""
        XCTAssertFalse(line.contains((clip as NSString).lastPathComponent), "named after the command line's source: \(line)")
    }
}
