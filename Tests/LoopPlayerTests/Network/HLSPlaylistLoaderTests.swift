import Foundation
@testable import LoopPlayer
import XCTest

/// Playlists fetched from the fault server: the fixtures, hostile playlists (self-reference,
/// mutual reference, a 2 MB line, 20 000 entries, an oversized file) and redirects.
final class HLSPlaylistLoaderTests: XCTestCase {
    private var root: URL!
    private var server: FaultServer!
    private let loader = HLSPlaylistLoader(fetcher: HTTPFetcher())

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("loader-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        server = try FaultServer(root: root)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(name))
    }

    private func url(_ path: String) -> URL { URL(string: server.url(path))! }

    private func loadError(_ body: () throws -> Void) -> HLSLoadError? {
        do { try body() } catch { return error as? HLSLoadError }
        return nil
    }

    func testFixturePresentation() throws {
        try require(TestMedia.hasEncoder("libx264"), "ffmpeg with libx264")
        let set = try HLSFixtures.set(.mpegts)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("hls"), withDestinationURL: set)
        for (name, heights) in [("master-low-first.m3u8", [240, 360, 720]), ("master-high-first.m3u8", [720, 360, 240])] {
            guard case let .master(master) = try loader.load(url("/hls/\(name)")) else { return XCTFail("not a master") }
            XCTAssertEqual(master.variants.map { $0.resolution?.height }, heights)
            for variant in master.variants {
                let media = try loader.loadMedia(variant.url, listedBy: master.url)
                XCTAssertEqual(media.segments.count, HLSFixtures.segmentCount)
                XCTAssertEqual(media.segments[0].url.host, "127.0.0.1")
                XCTAssertEqual(media.segments[0].url.path, "/hls/v\(variant.resolution?.height ?? 0)/seg000.ts")
            }
        }
    }

    func testSelfReferencingMasterStopsAtOnce() throws {
        try write("self.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nself.m3u8\n")
        XCTAssertEqual(loadError { _ = try self.loader.load(self.url("/self.m3u8")) }, .playlist(.selfReference(url: server.url("/self.m3u8"))))
        XCTAssertEqual(try server.requestLog().count, 1)
    }

    /// a lists b, b lists a: the second master is refused, after two requests in all.
    func testMutuallyReferencingMasters() throws {
        try write("a.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nb.m3u8\n")
        try write("b.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\na.m3u8\n")
        guard case let .master(master) = try loader.load(url("/a.m3u8")) else { return XCTFail("not a master") }
        let error = loadError { _ = try self.loader.loadMedia(master.variants[0].url, listedBy: master.url) }
        XCTAssertEqual(error, .playlist(.nestedMaster(url: server.url("/b.m3u8"), referencedBy: server.url("/a.m3u8"))))
        XCTAssertEqual(try server.requestLog().map(\.path), ["/a.m3u8", "/b.m3u8"])
    }

    func testHugeLinesEntriesAndFiles() throws {
        try write("line.m3u8", "#EXTM3U\n#EXTINF:1,\n" + String(repeating: "x", count: 2 << 20) + ".ts\n")
        XCTAssertEqual(loadError { _ = try self.loader.load(self.url("/line.m3u8")) },
                       .playlist(.lineTooLong(url: server.url("/line.m3u8"), line: 3, limit: 65_536)))

        try write("many.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + (0..<20_000).map { "#EXTINF:1,\ns\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n")
        guard case let .media(media) = try loader.load(url("/many.m3u8")) else { return XCTFail("not media") }
        XCTAssertEqual(media.segments.count, 20_000)

        try write("big.m3u8", "#EXTM3U\n" + String(repeating: "#comment\n", count: 600_000))   // 5.4 MB
        XCTAssertEqual(loadError { _ = try self.loader.load(self.url("/big.m3u8")) },
                       .playlist(.playlistTooLarge(url: server.url("/big.m3u8"), bytes: 4_194_305, limit: 4_194_304)))
    }

    /// URIs resolve against where the playlist was found after a redirect.
    func testRedirectedPlaylistResolvesAgainstTheFinalURL() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("real"), withIntermediateDirectories: true)
        try write("real/index.m3u8", "#EXTM3U\n#EXTINF:1,\nseg0.ts\n#EXT-X-ENDLIST\n")
        try server.setFaults([FaultRule(pattern: "^/old/", redirect: server.url("/real/index.m3u8"))])
        guard case let .media(media) = try loader.load(url("/old/index.m3u8")) else { return XCTFail("not media") }
        XCTAssertEqual(media.url, url("/real/index.m3u8"))
        XCTAssertEqual(media.segments[0].url, url("/real/seg0.ts"))
    }

    func testMissingPlaylist() {
        XCTAssertEqual(loadError { _ = try self.loader.load(self.url("/none.m3u8")) },
                       .fetch(.httpStatus(url: server.url("/none.m3u8"), status: .notFound)))
    }
}
