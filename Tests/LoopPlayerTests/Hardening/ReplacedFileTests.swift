import Foundation
@testable import LoopPlayer
import XCTest

/// Signage updates content by replacing files: a looping file copied over or renamed onto while it
/// plays goes on with the new content from the next pass (a short hold of the last frame at
/// worst); one emptied is an error, never a clean end.
final class ReplacedFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("replaced-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private func newContent() throws -> String {
        try TestMedia.testPattern("replacement-640.mp4", frames: 60, size: "640x360", codec: TestMedia.h264)
    }

    /// Plays `live` looping; once 130 frames (past the first wrap of the 120-frame clip) were shown,
    /// `replace` changes the file, and playback goes on until `done` holds.
    private func play(_ live: URL, replace: @escaping () throws -> Void,
                      until done: @escaping (NetworkProbe) -> Bool) -> NetworkProbe {
        let probe = NetworkProbe(untimed: true)
        var replaced = false
        probe.run(live.path, timeout: 60) { probe in
            if !replaced, probe.frames.count >= 130 {
                replaced = true
                do { try replace() } catch { XCTFail("replacing: \(error)") }
            }
            return probe.failure != nil || probe.frames.count > 2_000 || (replaced && done(probe))
        }
        return probe
    }

    func testRenamedOntoPlaysTheNewContent() throws {
        let live = folder.appendingPathComponent("live.mp4")
        try FileManager.default.copyItem(atPath: try TestMedia.loopClip(), toPath: live.path)
        let staged = folder.appendingPathComponent(".live.mp4.new")
        try FileManager.default.copyItem(atPath: try newContent(), toPath: staged.path)
        let probe = play(live, replace: { XCTAssertEqual(rename(staged.path, live.path), 0) }) { probe in
            probe.frames.filter { $0.width == 640 }.count >= 90
        }
        XCTAssertNil(probe.failure)
        let widths = probe.frames.map(\.width)
        XCTAssertEqual(widths.first, 320)
        let firstNew = try XCTUnwrap(widths.firstIndex(of: 640), "the new content played")
        XCTAssertTrue(widths[firstNew...].allSatisfy { $0 == 640 }, "and only it, from then on")
        XCTAssertEqual(firstNew, 240, "from the next wrap, without a gap: the old file's second pass played whole")
    }

    func testCopiedOverPlaysTheNewContent() throws {
        let live = folder.appendingPathComponent("live.mp4")
        try FileManager.default.copyItem(atPath: try TestMedia.loopClip(), toPath: live.path)
        let replacement = try Data(contentsOf: URL(fileURLWithPath: try newContent()))
        // In place, as cp does: the same inode, new bytes.
        let probe = play(live, replace: { try replacement.write(to: live) }) { probe in
            probe.frames.filter { $0.width == 640 }.count >= 90
        }
        XCTAssertNil(probe.failure)
        XCTAssertNotNil(probe.frames.firstIndex { $0.width == 640 }, "the new content played")
        XCTAssertFalse(probe.ended)
    }

    func testEmptiedIsAnErrorNotAnEnd() throws {
        let live = folder.appendingPathComponent("live.mp4")
        try FileManager.default.copyItem(atPath: try TestMedia.loopClip(), toPath: live.path)
        let probe = play(live, replace: { XCTAssertEqual(truncate(live.path, 0), 0) }) { _ in false }
        let failure = try XCTUnwrap(probe.failure, "an emptied file is an error")
        XCTAssertEqual(failure.kind, "emptyFile", "\(failure)")
        XCTAssertFalse(probe.ended)
    }
}
