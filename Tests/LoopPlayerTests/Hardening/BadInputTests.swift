import LoopPlayer
import XCTest

/// Each kind of bad input gives a typed error with a clear message, and the same engine then plays
/// a good source.
final class BadInputTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bad-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func file(_ name: String, _ data: Data) -> String {
        let path = scratch.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: data)
        return path
    }

    /// Loads `source`, expects an error of `kind` whose text names the source, then plays a good clip.
    private func assertFails(_ source: String, kind: String, mentioning words: [String] = [],
                             configure: (inout EngineConfiguration) -> Void = { _ in },
                             file: StaticString = #filePath, line: UInt = #line) throws {
        var configuration = EngineConfiguration(output: .offscreen, untimed: true, stop: StopCondition(frames: 5))
        configure(&configuration)
        let engine = try PlaybackEngine(configuration: configuration)
        var failure: PlayerError?
        do {
            try engine.load(source)
            if case let .failed(error) = engine.run() { failure = error }
        } catch {
            failure = error
        }
        guard let failure else { return XCTFail("\(source) did not fail", file: file, line: line) }
        XCTAssertEqual(failure.kind, kind, "\(failure)", file: file, line: line)
        XCTAssertEqual(engine.state, .failed(failure), file: file, line: line)
        for word in words { XCTAssertTrue(failure.description.contains(word), failure.description, file: file, line: line) }
        XCTAssertEqual(engine.statistics.errors[kind], 1, file: file, line: line)

        try engine.load(TestMedia.loopClip())
        XCTAssertEqual(engine.run(), .finished, file: file, line: line)
        XCTAssertEqual(engine.statistics.framesPresented, 5, file: file, line: line)
        XCTAssertEqual(engine.state, .playing, file: file, line: line)
    }

    func testMissingFile() throws {
        try assertFails(scratch.appendingPathComponent("absent.mp4").path, kind: "sourceNotFound", mentioning: ["absent.mp4"])
    }

    func testMissingBareName() throws {
        try assertFails("no-such-clip-anywhere", kind: "sourceNotFound", mentioning: ["no-such-clip-anywhere.mp4", "looked in"])
    }

    func testEmptyFile() throws {
        try assertFails(file("empty.mp4", Data()), kind: "emptyFile", mentioning: ["empty"])
    }

    func testDirectory() throws {
        let directory = scratch.appendingPathComponent("folder.mp4").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try assertFails(directory, kind: "notAFile", mentioning: ["directory"])
    }

    func testTextFileNamedMP4() throws {
        let text = file("notes.mp4", Data(String(repeating: "this is not a video\n", count: 200).utf8))
        try assertFails(text, kind: "unreadableMedia", mentioning: ["notes.mp4"])
    }

    func testMP4CutInHalfHasNoIndex() throws {
        // x264 + mp4 writes the moov atom at the end: the first half has none.
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestMedia.loopClip()))
        try assertFails(file("half.mp4", whole.prefix(whole.count / 2)), kind: "unreadableMedia", mentioning: ["half.mp4"])
    }

    func testSubtitlesOnlyFileHasNothingToPlay() throws {
        let subtitles = file("words.srt", Data("1\n00:00:00,000 --> 00:00:01,000\nhello\n\n".utf8))
        let media = try TestMedia.clip("subtitles-only.mkv", ["-i", subtitles, "-c:s", "srt"])
        try assertFails(media, kind: "noVideoStream", mentioning: ["no video or audio"])
    }

    func testBadURL() throws {
        // Nobody listening is worth waiting for (a server restarting): tried until the give-up time.
        try assertFails("http://127.0.0.1:9/nothing.m3u8", kind: "networkError", mentioning: ["127.0.0.1", "Connection refused"],
                        configure: { $0.network.timeout = 0.5 })
    }

    func testCorruptBytesMidStreamPlayOn() throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: TestMedia.loopClip()))
        // Scribble over 4 KiB in the middle of the sample data (the index is at the end, untouched).
        let start = data.count * 2 / 5
        for offset in start..<(start + 4096) { data[offset] = UInt8(truncatingIfNeeded: offset &* 2_654_435_761 >> 7) }
        let path = file("corrupt.mp4", data)
        let record = try playUntimed(path, looping: true, stop: StopCondition(loops: 2))
        XCTAssertEqual(record.outcome, .finished)
        XCTAssertEqual(record.statistics.loopsCompleted, 2)
        XCTAssertGreaterThanOrEqual(record.statistics.framesPresented, 216, "at most 10 % lost to corruption")
        for (earlier, later) in zip(record.times, record.times.dropFirst()) { XCTAssertGreaterThan(later, earlier) }
    }
}
