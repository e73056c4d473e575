import Foundation
import XCTest

/// `loopplay A B C`, `--playlist FILE.m3u` and `--loop-playlist` as a user runs them.
final class LoopplayPlaylistTests: XCTestCase {
    private func eventTypes(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .compactMap { $0["events"] as? [[String: Any]] }.flatMap { $0 }
    }

    func testSeveralSourcesPlayInOrderAndTheStatsCountEveryFrame() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let result = try LoopplayTool.run([first, second, "--headless", "--untimed", "--events", "--stats-json", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = eventTypes(result.stdout)
        let items = events.filter { $0["type"] as? String == "playlistItemChanged" }.compactMap { $0["index"] as? Int }
        XCTAssertEqual(items, [0, 1])
        XCTAssertEqual(events.last?["type"] as? String, "playlistEnded")
        let stats = result.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .first { $0["framesPresented"] != nil }
        XCTAssertEqual(stats?["framesPresented"] as? Int, 55, "30 + 25 frames: \(result.stdout)")
        XCTAssertEqual(stats?["framesDecoded"] as? Int, 55, "both items' decoded frames count (it said the last item's)")
    }

    /// An .m3u file with comments, a path relative to it and a missing entry: the missing one is
    /// reported (naming it) and skipped; the run still succeeds with what played.
    func testM3UFileWithRelativePathsAndAMissingEntry() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lp-m3u-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: try PlaylistMedia.second(), toPath: folder.appendingPathComponent("b.mp4").path)
        let list = folder.appendingPathComponent("list.m3u").path
        try "#EXTM3U\n#EXTINF:1,first\n\(try PlaylistMedia.first())\n\nmissing-clip.mp4\nb.mp4\n"
            .write(toFile: list, atomically: true, encoding: .utf8)
        let result = try LoopplayTool.run(["--playlist", list, "--headless", "--untimed", "--events"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("missing-clip"), "the missing entry is named: \(result.stderr)")
        let items = eventTypes(result.stdout).filter { $0["type"] as? String == "playlistItemChanged" }.compactMap { $0["index"] as? Int }
        XCTAssertEqual(items, [0, 2], "the relative b.mp4 played after the missing entry")
    }

    func testLoopPlaylistPlaysTheListAgain() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let result = try LoopplayTool.run([first, second, "--loop-playlist", "--headless", "--untimed", "--frames", "120",
                                           "--events"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let items = eventTypes(result.stdout).filter { $0["type"] as? String == "playlistItemChanged" }.compactMap { $0["index"] as? Int }
        XCTAssertEqual(items, [0, 1, 0, 1, 0], "120 frames: 30 + 25 + 30 + 25 + 10")
    }

    /// `--loops N --loop-playlist` plays the list N times, then ends (it looped the first item N
    /// times: `--loops` implied `--loop`).
    func testLoopsWithLoopPlaylistCountPassesOfTheList() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let result = try LoopplayTool.run([first, second, "--loop-playlist", "--loops", "2", "--headless", "--untimed",
                                           "--events", "--stats-json", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = eventTypes(result.stdout)
        let items = events.filter { $0["type"] as? String == "playlistItemChanged" }.compactMap { $0["index"] as? Int }
        XCTAssertEqual(items, [0, 1, 0, 1], "two passes of the list")
        let stats = result.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .first { $0["framesPresented"] != nil }
        XCTAssertEqual(stats?["framesPresented"] as? Int, 110, "(30 + 25) × 2 frames")
    }

    /// `--loop-playlist` with one source loops it (mpv's behaviour): it played once and ended.
    func testLoopPlaylistWithOneSourceLoopsIt() throws {
        let result = try LoopplayTool.run([try PlaylistMedia.first(), "--loop-playlist", "--headless", "--untimed",
                                           "--duration", "5", "--stats-json", "-"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThanOrEqual(LoopplayTool.json(result.stdout)?["loopsCompleted"] as? Int ?? 0, 2)
    }

    /// A relative entry is taken from the playlist's folder, never from the current directory, and
    /// a missing one is said with that folder.
    func testRelativeEntriesComeFromThePlaylistsFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lp-m3u-folder-\(UUID().uuidString)")
        let lists = root.appendingPathComponent("lists"), elsewhere = root.appendingPathComponent("elsewhere")
        for folder in [lists, elsewhere] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(atPath: try PlaylistMedia.first(), toPath: elsewhere.appendingPathComponent("only-here.mp4").path)
        try FileManager.default.copyItem(atPath: try PlaylistMedia.second(), toPath: lists.appendingPathComponent("b.mp4").path)
        try "only-here.mp4\nb.mp4\n".write(to: lists.appendingPathComponent("list.m3u"), atomically: true, encoding: .utf8)
        let result = try LoopplayTool.run(["--playlist", "../lists/list.m3u", "--headless", "--untimed", "--events"],
                                          directory: elsewhere.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains(lists.appendingPathComponent("only-here.mp4").path), "named in the playlist's folder: \(result.stderr)")
        let items = eventTypes(result.stdout).filter { $0["type"] as? String == "playlistItemChanged" }.compactMap { $0["index"] as? Int }
        XCTAssertEqual(items, [0, 1])
    }

    func testEmptyOrUnreadablePlaylistFileIsAUsageError() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("lp-empty-\(UUID().uuidString).m3u").path
        try "#EXTM3U\n# nothing\n".write(toFile: empty, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let result = try LoopplayTool.run(["--playlist", empty, "--headless"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("names no source"), result.stderr)
        let missing = try LoopplayTool.run(["--playlist", "/nonexistent/list.m3u", "--headless"])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("cannot read the playlist"), missing.stderr)
    }
}
