import Foundation
@testable import LoopPlayer
import XCTest

/// External files: formats, leniency, bounds, protocol whitelist, typed errors.
final class ExternalSubtitleFileTests: XCTestCase {
    func testSubRipFile() throws {
        let path = try SubtitleTestMedia.srtFile()
        let file = try ExternalSubtitleFile(source: path)
        XCTAssertEqual(file.cues.map(\.plainText), ["Hello world", "Second line", "Line one\nLine two"])
        XCTAssertEqual(file.cues.map(\.start), [1, 3, 5])
        XCTAssertEqual(file.cues.map(\.end), [2.5, 4, 6.25])
        XCTAssertEqual(file.track.codecName, "subrip")
        XCTAssertEqual(file.track.language, "en")
        XCTAssertEqual(file.track.externalSource, path)
        XCTAssertEqual(file.track.label, "sample.en.srt en (subrip)")
        XCTAssertTrue(file.track.matches(language: "eng"))
        XCTAssertNil(file.characterEncoding)
        XCTAssertEqual(file.skippedEvents, 0)
        XCTAssertTrue(ASSRenderer.isGeneratedDefault(try XCTUnwrap(file.header)))
    }

    func testFileURLAndLanguageOverride() throws {
        let path = try SubtitleTestMedia.srtFile()
        let file = try ExternalSubtitleFile(source: URL(fileURLWithPath: path).absoluteString, language: "fr")
        XCTAssertEqual(file.cues.count, 3)
        XCTAssertEqual(file.track.language, "fr")
    }

    func testWebVTTFile() throws {
        let file = try ExternalSubtitleFile(source: try SubtitleTestMedia.vttFile())
        XCTAssertEqual(file.track.codecName, "webvtt")
        XCTAssertEqual(file.cues.map(\.plainText), ["Web cue one", "Web cue two"])
        XCTAssertEqual(file.cues.map(\.start), [1, 2.5])
        XCTAssertEqual(file.cues.map(\.end), [2, 3.75])
        XCTAssertNil(file.track.language)
    }

    func testASSFileKeepsItsHeader() throws {
        let file = try ExternalSubtitleFile(source: try SubtitleTestMedia.assFile())
        XCTAssertEqual(file.track.codecName, "ass")
        XCTAssertEqual(file.cues.map(\.plainText), ["Red text", "White text", "Sign"])
        XCTAssertEqual(file.cues.map(\.start), [1, 3, 5])
        XCTAssertEqual(file.cues.map(\.end), [2, 4.5, 6])
        let header = try XCTUnwrap(file.header)
        XCTAssertTrue(header.contains("Style: Red,"), header)
        XCTAssertFalse(ASSRenderer.isGeneratedDefault(header))
    }

    func testLegacyEncodedSubRipIsReadAsWindows1252() throws {
        // "Café crème" in CP1252: é = 0xE9, è = 0xE8 (invalid as UTF-8).
        var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8)
        bytes += [0xE9] + Array(" cr".utf8) + [0xE8] + Array("me\n\n".utf8)
        let path = try SubtitleTestMedia.file("latin.srt", bytes: bytes)
        let file = try ExternalSubtitleFile(source: path)
        XCTAssertEqual(file.cues.map(\.plainText), ["Café crème"])
        XCTAssertEqual(file.characterEncoding, "CP1252")
        XCTAssertEqual(file.skippedEvents, 0)
    }

    func testMissingFile() {
        let path = SubtitleTestMedia.directory.appendingPathComponent("nothing-here.srt").path
        assertError(.fileNotFound(path: path)) { try ExternalSubtitleFile(source: path) }
        assertError(.fileNotFound(path: "file://" + path)) { try ExternalSubtitleFile(source: "file://" + path) }
    }

    func testVideoGivenAsSubtitles() throws {
        let video = try TestMedia.loopClip()
        assertError(.notSubtitles(source: video)) { try ExternalSubtitleFile(source: video) }
        // Even under a subtitle name: the forced SubRip reading finds no cue in it.
        let renamed = SubtitleTestMedia.directory.appendingPathComponent("video-named.srt").path
        try? FileManager.default.removeItem(atPath: renamed)
        try FileManager.default.copyItem(atPath: video, toPath: renamed)
        assertError(.notSubtitles(source: renamed)) { try ExternalSubtitleFile(source: renamed) }
    }

    func testDirectoryAndEmptyFileAreUnreadable() throws {
        let empty = try SubtitleTestMedia.file("empty.srt", "")
        XCTAssertThrowsError(try ExternalSubtitleFile(source: empty)) { error in
            XCTAssertEqual((error as? SubtitleError)?.kind, "unreadable")
            XCTAssertEqual("\(error)", "\(empty): cannot read the subtitles: the file is empty")
        }
        let folder = SubtitleTestMedia.directory.path
        XCTAssertThrowsError(try ExternalSubtitleFile(source: folder)) { error in
            XCTAssertEqual((error as? SubtitleError)?.kind, "unreadable")
        }
    }

    /// A damaged SubRip (junk before the first cue, so FFmpeg's probe refuses it; an unreadable
    /// time line; an unclosed tag) is read leniently with the SubRip reader the extension names:
    /// the good cues keep their times, and the block without a valid time line is folded into the
    /// text of the cue before it (FFmpeg's reading), never a crash or an error.
    func testMalformedSubRipIsReadLeniently() throws {
        let path = try SubtitleTestMedia.file("malformed.srt", """
            this line does not belong here
            1
            00:00:01,000 --> 00:00:02,000
            Good one

            2
            00:00:0x,000 --> broken
            Bad timing

            3
            00:00:03,000 --> 00:00:04,000
            Third
            <b>unclosed {\\tag

            """)
        let file = try ExternalSubtitleFile(source: path)
        XCTAssertEqual(file.cues.map(\.start), [1, 3])
        XCTAssertEqual(file.cues.first?.plainText, "Good one\n2\n00:00:0x,000 --> broken\nBad timing")
        XCTAssertTrue(file.cues.last?.plainText?.hasPrefix("Third") ?? false, "\(file.cues)")
    }

    func testBinaryJunkIsNotSubtitles() throws {
        var generator = SystemRandomNumberGenerator()
        let junk = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = try SubtitleTestMedia.file("junk.srt", bytes: junk)
        XCTAssertThrowsError(try ExternalSubtitleFile(source: path)) { error in
            XCTAssertEqual(error as? SubtitleError, .notSubtitles(source: path))
        }
    }

    func testSixtyThousandEventsAreTooLarge() throws {
        var text = ""
        text.reserveCapacity(60_000 * 40)
        for n in 0..<60_000 {
            let ms = n * 100
            text += "\(n + 1)\n\(Self.srtTime(ms)) --> \(Self.srtTime(ms + 80))\nx\n\n"
        }
        let path = try SubtitleTestMedia.file("sixty-thousand.srt", text)
        assertError(.tooLarge(source: path, reason: "more than 50000 events")) {
            try ExternalSubtitleFile(source: path)
        }
    }

    func testFileOverTheByteLimitIsTooLarge() throws {
        let path = SubtitleTestMedia.directory.appendingPathComponent("huge.srt").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 21 << 20)   // sparse: 21 MB of zeros
        try handle.close()
        XCTAssertThrowsError(try ExternalSubtitleFile(source: path)) { error in
            XCTAssertEqual((error as? SubtitleError)?.kind, "tooLarge", "\(error)")
            XCTAssertTrue("\(error)".contains("more than 20 MB"), "\(error)")
        }
    }

    func testSourcesOutsideThePolicyAreRefused() throws {
        let httpOnly = SourcePolicy(allowed: AllowedSources(schemes: ["http"]))
        let url = URL(fileURLWithPath: try SubtitleTestMedia.assFile()).absoluteString
        XCTAssertThrowsError(try ExternalSubtitleFile(source: url, policy: httpOnly)) { error in
            XCTAssertEqual((error as? SubtitleError)?.kind, "notAllowed")
            XCTAssertTrue("\(error)".contains("the scheme file is not allowed"), "\(error)")
        }
        // A plain path is a local file too.
        XCTAssertThrowsError(try ExternalSubtitleFile(source: try SubtitleTestMedia.srtFile(), policy: httpOnly)) { error in
            XCTAssertTrue("\(error)".contains("local files are not allowed"), "\(error)")
        }
        XCTAssertThrowsError(try ExternalSubtitleFile(source: "ftp://127.0.0.1/x.srt")) { error in
            XCTAssertTrue("\(error)".contains("the scheme ftp is not allowed"), "\(error)")
        }
        let otherHost = SourcePolicy(allowed: AllowedSources(hosts: ["good.test"]))
        XCTAssertThrowsError(try ExternalSubtitleFile(source: "http://127.0.0.1:1/x.srt", policy: otherHost)) { error in
            XCTAssertTrue("\(error)".contains("the host 127.0.0.1 is not in the allowed hosts"), "\(error)")
        }
    }

    func testARedirectIsJudgedByThePolicy() throws {
        _ = try SubtitleTestMedia.srtFile()
        let server = try FaultServer(root: SubtitleTestMedia.directory)
        try server.setFaults([FaultRule(pattern: "^/to-file", redirect: "file:///etc/passwd"),
                              FaultRule(pattern: "^/elsewhere", redirect: "http://localhost:\(server.port)/sample.en.srt")])
        XCTAssertThrowsError(try ExternalSubtitleFile(source: server.url("/to-file.srt"))) { error in
            XCTAssertEqual((error as? SubtitleError)?.kind, "notAllowed", "\(error)")
        }
        // With a host allow list a redirect is not followed: it could lead outside the list.
        let onlyLoopback = SourcePolicy(allowed: AllowedSources(hosts: ["127.0.0.1"]))
        XCTAssertThrowsError(try ExternalSubtitleFile(source: server.url("/elsewhere.srt"), policy: onlyLoopback))
        XCTAssertEqual(try ExternalSubtitleFile(source: server.url("/elsewhere.srt")).cues.count, 3)
        let fetched = try server.requestLog().filter { $0.path == "/sample.en.srt" }
        XCTAssertEqual(fetched.count, 1, "only the run without a host list followed the redirect")
    }

    func testSilentServerTimesOut() throws {
        let server = try SilentServer()
        XCTAssertThrowsError(try ExternalSubtitleFile(source: "http://127.0.0.1:\(server.port)/slow.srt",
                                                      limits: .init(timeout: 1))) { error in
            XCTAssertEqual((error as? SubtitleError)?.kind, "unreadable", "\(error)")
            XCTAssertTrue("\(error)".contains("timed out after 1 s"), "\(error)")
        }
        withExtendedLifetime(server) {}
    }

    func testOverHTTP() throws {
        let server = try LoopbackHTTPServer(root: SubtitleTestMedia.directory)
        _ = try SubtitleTestMedia.srtFile()
        let file = try ExternalSubtitleFile(source: "http://127.0.0.1:\(server.port)/sample.en.srt")
        XCTAssertEqual(file.cues.map(\.plainText), ["Hello world", "Second line", "Line one\nLine two"])
        XCTAssertEqual(file.track.language, "en")
        // The byte budget also stops a download: a 2 MB file against a 1 MB limit.
        var big = ""
        for n in 0..<40_000 { big += "\(n + 1)\n\(Self.srtTime(n * 100)) --> \(Self.srtTime(n * 100 + 80))\nsome text here\n\n" }
        _ = try SubtitleTestMedia.file("big.srt", big)
        XCTAssertThrowsError(try ExternalSubtitleFile(source: "http://127.0.0.1:\(server.port)/big.srt",
                                                      limits: .init(maximumBytes: 1 << 20))) { error in
            XCTAssertEqual(error as? SubtitleError, .tooLarge(source: "http://127.0.0.1:\(server.port)/big.srt", reason: "more than 1 MB"))
        }
        let missing = "http://127.0.0.1:\(server.port)/missing.srt"
        XCTAssertThrowsError(try ExternalSubtitleFile(source: missing)) { error in
            XCTAssertEqual((error as? SubtitleError)?.kind, "unreadable", "\(error)")
            XCTAssertTrue("\(error)".contains("404"), "\(error)")
        }
    }

    static func srtTime(_ ms: Int) -> String {
        String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    private func assertError(_ expected: SubtitleError, file: StaticString = #filePath, line: UInt = #line,
                             _ body: () throws -> ExternalSubtitleFile) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? SubtitleError, expected, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(self.sourceOf(expected)), "\(error)", file: file, line: line)
        }
    }

    private func sourceOf(_ error: SubtitleError) -> String {
        switch error {
        case let .fileNotFound(path): path
        case let .unreadable(source, _), let .notSubtitles(source), let .tooLarge(source, _), let .undecodable(source, _),
             let .notAllowed(source, _): source
        }
    }
}

/// A TCP listener on loopback that accepts connections (in the kernel's backlog) and never answers.
final class SilentServer {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, length) == 0 && listen(socket, 8) == 0
                && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw MissingRequirement(description: "no loopback socket") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}
