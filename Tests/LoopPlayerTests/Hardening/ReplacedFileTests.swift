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
        XCTAssertEqual(firstNew % 120, 0, "at a wrap: the old file's passes played whole (\(firstNew))")
        // Every wrap and the switch are seams of one frame interval (the virtual clock is exact).
        let seams = probe.engine.statistics.seamIntervalsMs
        XCTAssertEqual(seams.count, firstNew / 120 + 1, "\(seams)")
        XCTAssertTrue(seams.allSatisfy { abs($0 - 1000.0 / 30) < 0.01 }, "no gap at the switch: \(seams)")
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

    /// Emptied (truncated to nothing), the file is an error event and on-screen text, the last frame
    /// stays, and nothing ends; its content restored, it plays again.
    func testEmptiedIsAnErrorUntilTheContentComesBack() throws {
        let live = folder.appendingPathComponent("live.mp4")
        try FileManager.default.copyItem(atPath: try TestMedia.loopClip(), toPath: live.path)
        let restored = try Data(contentsOf: URL(fileURLWithPath: try newContent()))
        let probe = NetworkProbe()  // real time: a replaced file waits to settle on the real clock
        var emptied = false, refilled = false, framesAtRefill = 0
        probe.run(live.path, timeout: 60) { probe in
            if !emptied, probe.frames.count >= 30 {
                emptied = true
                XCTAssertEqual(truncate(live.path, 0), 0)
            }
            if emptied, !refilled, probe.errors.contains(where: { $0.kind == "emptyFile" }) {
                refilled = true
                framesAtRefill = probe.frames.count
                do { try restored.write(to: live) } catch { XCTFail("\(error)") }
            }
            return probe.ended || probe.failure != nil || probe.frames.contains { $0.width == 640 }
        }
        XCTAssertTrue(refilled, "an emptyFile error event came: \(probe.errors)")
        XCTAssertFalse(probe.ended, "no end")
        XCTAssertNil(probe.failure)
        XCTAssertNotNil(probe.frames.dropFirst(framesAtRefill).first { $0.width == 640 }, "the restored content plays")
    }
}
