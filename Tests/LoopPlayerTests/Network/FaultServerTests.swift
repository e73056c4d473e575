import Foundation
import LoopPlayer
import XCTest

/// The test HTTP server itself, seen through a raw socket client: files and ranges, each fault,
/// a restart on the same port and the request log. Also the HLS fixtures it serves.
final class FaultServerTests: XCTestCase {
    private var root: URL!
    private var server: FaultServer!
    private let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fault-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("dir"), withIntermediateDirectories: true)
        try Data(payload).write(to: root.appendingPathComponent("dir/blob.bin"))
        server = try FaultServer(root: root)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    func testServesFilesAndRanges() throws {
        let whole = RawHTTP.get(port: server.port, path: "/dir/blob.bin")
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, payload)
        XCTAssertEqual(whole.headers["accept-ranges"], "bytes")

        let middle = RawHTTP.get(port: server.port, path: "/dir/blob.bin", headers: ["Range": "bytes=1000-1999"])
        XCTAssertEqual(middle.status, 206)
        XCTAssertEqual(middle.body, Array(payload[1000..<2000]))
        XCTAssertEqual(middle.headers["content-range"], "bytes 1000-1999/200000")
        let tail = RawHTTP.get(port: server.port, path: "/dir/blob.bin", headers: ["Range": "bytes=-10"])
        XCTAssertEqual(tail.body, Array(payload.suffix(10)))
        let open = RawHTTP.get(port: server.port, path: "/dir/blob.bin", headers: ["Range": "bytes=199990-"])
        XCTAssertEqual(open.body, Array(payload.suffix(10)))
        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/dir/blob.bin", headers: ["Range": "bytes=300000-"]).status, 416)

        try server.setFaults([], acceptRanges: false)
        let refused = RawHTTP.get(port: server.port, path: "/dir/blob.bin", headers: ["Range": "bytes=1000-1999"])
        XCTAssertEqual(refused.status, 200, "ranges switched off: the whole file")
        XCTAssertEqual(refused.body.count, payload.count)
        XCTAssertNil(refused.headers["accept-ranges"])

        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/missing.bin").status, 404)
        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/../etc/passwd").status, 404, "never outside the root")
    }

    func testStatusFaultsByPatternAndCount() throws {
        try server.setFaults([FaultRule(pattern: "blob\\.bin$", status: 500, times: 1),
                              FaultRule(prefix: "/dir/", status: 403)])
        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/dir/blob.bin").status, 500)
        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/dir/blob.bin").status, 403, "the 500 applied once")
        try server.setFaults([FaultRule(pattern: "nothing-matches", status: 404)])
        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/dir/blob.bin").status, 200)
        try server.clearFaults()
        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/dir/blob.bin").body, payload)
    }

    func testThrottleHoldsTheRate() throws {
        try server.setFaults([FaultRule(prefix: "/dir/", throttle: 400_000)])
        let response = RawHTTP.get(port: server.port, path: "/dir/blob.bin", timeout: 10)
        XCTAssertEqual(response.body, payload)
        // 200 000 bytes at 400 000 B/s: at least 0.45 s (the first 20 kB piece leaves at once).
        XCTAssertGreaterThanOrEqual(response.seconds, 0.44, "took \(response.seconds) s")
        try server.setFaults([FaultRule(prefix: "/other/", throttle: 1000)])
        // Throttled to 1000 B/s it would take 200 s: whole within the 5 s the request waits.
        XCTAssertEqual(RawHTTP.get(port: server.port, path: "/dir/blob.bin").body, payload, "another prefix is not throttled")
    }

    func testStallTruncateAndDrop() throws {
        try server.setFaults([FaultRule(stall: true)])
        let stalled = RawHTTP.get(port: server.port, path: "/dir/blob.bin", timeout: 0.5)
        XCTAssertEqual(stalled.ending, .timedOut)
        XCTAssertEqual(stalled.status, 0, "no answer at all")

        try server.setFaults([FaultRule(stallAfter: 5000)])
        // Read until the headers and 5000 bytes came (30 s: a hang guard), then nothing more for 0.5 s.
        let midBody = RawHTTP.get(port: server.port, path: "/dir/blob.bin", timeout: 30, bodyBytes: 5000)
        XCTAssertEqual(midBody.ending, .timedOut)
        XCTAssertEqual(midBody.status, 200)
        XCTAssertEqual(midBody.headers["content-length"], "200000")
        XCTAssertEqual(midBody.body, Array(payload.prefix(5000)))

        try server.setFaults([FaultRule(truncateAfter: 7000)])
        let truncated = RawHTTP.get(port: server.port, path: "/dir/blob.bin")
        XCTAssertEqual(truncated.ending, .closed)
        XCTAssertEqual(truncated.headers["content-length"], "200000")
        XCTAssertEqual(truncated.body, Array(payload.prefix(7000)))

        try server.setFaults([FaultRule(dropAfter: 3000)])
        let dropped = RawHTTP.get(port: server.port, path: "/dir/blob.bin")
        XCTAssertEqual(dropped.ending, .reset)
        XCTAssertLessThanOrEqual(dropped.body.count, 3000)
    }

    func testRedirectToAnyURL() throws {
        try server.setFaults([FaultRule(pattern: "^/go$", redirect: "file:///etc/passwd")])
        let response = RawHTTP.get(port: server.port, path: "/go")
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], "file:///etc/passwd")
    }

    func testRestartOnTheSamePortAndTheRequestLog() throws {
        let began = Date()
        let port = server.port
        XCTAssertGreaterThan(port, 0)
        _ = RawHTTP.get(port: port, path: "/dir/blob.bin", headers: ["Range": "bytes=0-99"])
        server.stop()
        XCTAssertFalse(server.isRunning)
        XCTAssertEqual(RawHTTP.get(port: port, path: "/dir/blob.bin", timeout: 1).ending, .refused)
        try server.restart()
        XCTAssertEqual(server.port, port)
        XCTAssertEqual(RawHTTP.get(port: port, path: "/missing").status, 404)

        let log = try server.requestLog()
        XCTAssertEqual(log.map(\.path), ["/dir/blob.bin", "/missing"])
        XCTAssertEqual(log.map(\.method), ["GET", "GET"])
        XCTAssertEqual(log.map(\.status), [206, 404])
        XCTAssertEqual(log[0].bytes, 100)
        XCTAssertEqual(log[0].range, "bytes=0-99")
        XCTAssertEqual(log.map(\.outcome), ["ok", "ok"])
        let first = try XCTUnwrap(log[0].end)
        XCTAssertLessThanOrEqual(log[0].start, first)
        // The log's times are this run's (to its resolution of a millisecond).
        XCTAssertGreaterThanOrEqual(first.timeIntervalSince(began), -0.001)
        XCTAssertLessThanOrEqual(first, Date())
    }

    func testGivenPort() throws {
        let port = server.port
        server.stop()
        let again = try FaultServer(root: root, port: port)
        defer { again.stop() }
        XCTAssertEqual(again.port, port)
        XCTAssertEqual(RawHTTP.get(port: port, path: "/dir/blob.bin").body, payload)
    }

    /// The HLS fixtures: both master orders parse, every variant has the same segment count, and
    /// each variant's band colour is on its pictures.
    func testHLSFixtures() throws {
        try require(TestMedia.hasEncoder("libx264"), "ffmpeg with libx264")
        for container in [HLSFixtures.Container.mpegts, .fmp4] {
            let folder = try HLSFixtures.set(container)
            let lowURL = folder.appendingPathComponent("master-low-first.m3u8")
            let highURL = folder.appendingPathComponent("master-high-first.m3u8")
            guard case let .master(low) = try HLSPlaylist.parse(Array(try Data(contentsOf: lowURL)), url: lowURL),
                  case let .master(high) = try HLSPlaylist.parse(Array(try Data(contentsOf: highURL)), url: highURL) else {
                return XCTFail("not master playlists")
            }
            XCTAssertEqual(low.variants.map { $0.resolution?.height }, [240, 360, 720])
            XCTAssertEqual(high.variants.map { $0.resolution?.height }, [720, 360, 240])
            XCTAssertEqual(low.variants.map(\.bandwidth), low.variants.map(\.bandwidth).sorted())
            for (variant, fixture) in zip(low.variants, HLSFixtures.variants) {
                let media = try HLSPlaylist.parseMedia(Array(try Data(contentsOf: variant.url)), url: variant.url, listedBy: lowURL)
                XCTAssertEqual(media.segments.count, HLSFixtures.segmentCount)
                XCTAssertFalse(media.isLive)
                XCTAssertEqual(media.segments.first?.initSection != nil, container == .fmp4)
                let rgb = try bandColor(of: media.segments[1], container: container)
                XCTAssertEqual(HLSFixtures.variant(showing: rgb)?.name, fixture.name, "\(rgb)")
            }
        }
    }

    /// The colour in the middle of the band of the segment's first picture.
    private func bandColor(of segment: HLSSegment, container: HLSFixtures.Container) throws -> (UInt8, UInt8, UInt8) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("band-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: output) }
        var input = segment.url.path
        if container == .fmp4, let initSection = segment.initSection {
            // An fMP4 segment plays after its init section: join them.
            let joined = output.appendingPathExtension("mp4")
            try (try Data(contentsOf: initSection.url) + Data(contentsOf: segment.url)).write(to: joined)
            input = joined.path
        }
        let result = try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", input, "-frames:v", "1",
                                                  "-vf", "scale=100:100", "-f", "rawvideo", "-pix_fmt", "rgb24", output.path])
        XCTAssertEqual(result.status, 0, result.output)
        if container == .fmp4 { try? FileManager.default.removeItem(atPath: input) }
        let pixels = [UInt8](try Data(contentsOf: output))
        let offset = (10 * 100 + 50) * 3   // row 10 of 100: inside the top fifth
        guard pixels.count >= offset + 3 else { throw TestMediaError.ffmpegFailed("band colour", result.output) }
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
