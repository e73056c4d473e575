import LoopPlayer
import XCTest

final class SourceResolverTests: XCTestCase {
    private var first: String!
    private var second: String!

    override func setUpWithError() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-\(UUID().uuidString)")
        first = root.appendingPathComponent("a").path
        second = root.appendingPathComponent("b").path
        for directory in [first!, second!] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        _ = FileManager.default.createFile(atPath: first + "/clip.mp4", contents: Data([1]))
        _ = FileManager.default.createFile(atPath: second + "/clip.mp4", contents: Data([1]))
        _ = FileManager.default.createFile(atPath: second + "/clip.mov", contents: Data([1]))
        _ = FileManager.default.createFile(atPath: second + "/other.webm", contents: Data([1]))
    }

    func testBareNameGetsTheDefaultExtensionAndTheFirstDirectoryWins() throws {
        let resolver = SourceResolver(searchDirectories: [first, second])
        XCTAssertEqual(try resolver.resolve("clip"), .file(first + "/clip.mp4"))
    }

    /// A file named without an extension is found by its name when the name with `Ext` is not there
    /// (`loopplay recording` said "recording.mp4: source not found").
    func testAFileWithoutAnExtensionIsFoundByItsName() throws {
        _ = FileManager.default.createFile(atPath: second + "/recording", contents: Data([1]))
        let resolver = SourceResolver(searchDirectories: [first, second])
        XCTAssertEqual(try resolver.resolve("recording"), .file(second + "/recording"))
        XCTAssertEqual(try resolver.resolve("clip"), .file(first + "/clip.mp4"), "the name with Ext still comes first")
    }

    func testExtensionInTheNameWinsOverExt() throws {
        let resolver = SourceResolver(searchDirectories: [first, second])
        XCTAssertEqual(try resolver.resolve("clip.mov", ext: "mp4"), .file(second + "/clip.mov"))
        XCTAssertEqual(try resolver.resolve("other", ext: "webm"), .file(second + "/other.webm"))
        XCTAssertEqual(try resolver.resolve("other", ext: ".webm"), .file(second + "/other.webm"))
    }

    func testPathsAndFileURLsAreUsedAsGiven() throws {
        let resolver = SourceResolver(searchDirectories: [])
        XCTAssertEqual(try resolver.resolve(second + "/clip.mov"), .file(second + "/clip.mov"))
        XCTAssertEqual(try resolver.resolve("file://" + second + "/clip.mov"), .file(second + "/clip.mov"))
        XCTAssertEqual(try resolver.resolve(second + "/clip"), .file(second + "/clip.mp4"))
    }

    func testNetworkURLsPassThrough() throws {
        let resolver = SourceResolver(searchDirectories: [])
        XCTAssertEqual(try resolver.resolve("https://example.invalid/a.m3u8"), .url("https://example.invalid/a.m3u8"))
    }

    func testMissingNameListsWhereItLooked() {
        let resolver = SourceResolver(searchDirectories: [first])
        XCTAssertThrowsError(try resolver.resolve("nothing")) { error in
            guard case let .sourceNotFound(source, searched) = error as? PlayerError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, "nothing.mp4")
            XCTAssertEqual(searched, [first])
            XCTAssertTrue("\(error)".contains("nothing.mp4"))
        }
    }

    func testEnvironmentDirectoriesComeBeforeTheBundle() {
        let resolver = SourceResolver.standard(environment: ["LOOPPLAYER_MEDIA_PATH": "\(first!):\(second!)"])
        XCTAssertEqual(Array(resolver.searchDirectories.prefix(3)),
                       [FileManager.default.currentDirectoryPath, first, second])
    }

    func testBundledSampleIsFoundByName() throws {
        let location = try SourceResolver.standard(environment: [:]).resolve("swipe")
        guard case let .file(path) = location else { return XCTFail("\(location)") }
        XCTAssertTrue(path.hasSuffix("Media/swipe.mp4"), path)
    }

    func testEmptySourceIsAnInvalidSetting() {
        XCTAssertThrowsError(try SourceResolver(searchDirectories: []).resolve("  ")) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, "invalidSetting")
        }
    }
}
