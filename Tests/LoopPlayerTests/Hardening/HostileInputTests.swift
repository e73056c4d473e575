import Foundation
@testable import LoopPlayer
import XCTest

/// What a hostile server or playlist could do to the process (issue: hostile input): https HLS
/// closing its TLS sessions, sequence numbers at Int64.max, subtitles outside the source policy, a
/// stalled subtitle URL at exit, a segment that trickles, an endless segment and the cache.
final class HostileInputTests: XCTestCase {
    /// TLS sends its close-notify through FFmpeg's interrupt callback while a segment's stream is
    /// closed: the callback's context must outlive the close (it crashed release builds). Several
    /// sources end here, each closing every TLS session it opened.
    func testHLSOverHTTPSPlaysAndCloses() throws {
        let fixture = try NetworkFixture(tls: true)
        XCTAssertTrue(fixture.url("/").hasPrefix("https://"))
        for round in 0..<4 {
            let probe = NetworkProbe({ $0.network.segmentCacheBytes = 0 }, untimed: true)
            probe.run(fixture.url("/hls/v240/index.m3u8"), timeout: 30) { $0.failure != nil || $0.frames.count >= 150 }
            XCTAssertNil(probe.failure, "round \(round)")
            XCTAssertGreaterThanOrEqual(probe.frames.count, 150, "round \(round): past the loop's wrap")
            XCTAssertEqual(Set(probe.frames.map(\.width)), [426], "round \(round)")
        }
        let segments = try fixture.server.requestLog().filter { $0.path.hasSuffix(".ts") }
        XCTAssertGreaterThanOrEqual(segments.count, 4 * 5, "every segment came over TLS, a second pass too")
        XCTAssertTrue(segments.allSatisfy { $0.status == 200 || $0.status == 206 }, "\(segments.map(\.status))")
    }

    /// A playlist whose sequence numbers are at Int64.max, local or remote, VOD or live, is an
    /// `invalidPlaylist`, not a trap.
    func testExtremeSequenceNumbersAreInvalidPlaylists() throws {
        let fixture = try NetworkFixture()
        let segment = try HLSFixtures.set(.mpegts).appendingPathComponent("v240/seg000.ts")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("extreme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: segment, to: folder.appendingPathComponent("seg000.ts"))
        let cases = [
            "#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXTINF:1.0,\nseg000.ts\n#EXT-X-ENDLIST\n",
            "#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXTINF:1.0,\nseg000.ts\n",
            "#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807\n#EXTINF:1.0,\nseg000.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1.0,\nseg000.ts\n#EXT-X-ENDLIST\n",
        ]
        for (index, body) in cases.enumerated() {
            let text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + body
            let local = folder.appendingPathComponent("case\(index).m3u8")
            try text.write(to: local, atomically: true, encoding: .utf8)
            try fixture.write(text.replacingOccurrences(of: "seg000.ts", with: "/hls/v240/seg000.ts"), to: "extreme/case\(index).m3u8")
            for source in [local.path, fixture.url("/extreme/case\(index).m3u8")] {
                let probe = NetworkProbe(untimed: true)
                probe.run(source, timeout: 20) { $0.failure != nil || $0.frames.count >= 30 }
                let error = try XCTUnwrap(probe.failure, "\(index) \(source)")
                XCTAssertEqual(error.kind, "invalidPlaylist", "\(index) \(source): \(error)")
                XCTAssertTrue(error.description.contains("out of range"), "\(error)")
            }
        }
    }

    /// External subtitles obey the player's source policy: a host outside the allowed hosts is
    /// never asked, and the refusal is reported as `sourceNotAllowed` while the video plays on.
    func testSubtitleURLOutsideTheAllowedHostsIsNotFetched() throws {
        let fixture = try NetworkFixture()
        try fixture.write("1\n00:00:00,000 --> 00:00:05,000\nHello\n", to: "sub.srt")
        let video = try TestMedia.loopClip()
        let probe = NetworkProbe({ configuration in
            configuration.network.allowedSources = AllowedSources(hosts: ["good.test"])
            configuration.subtitles.files = [fixture.url("/sub.srt")]
        })
        probe.run(video, timeout: 20) { probe in probe.frames.count >= 10 && !probe.errors.isEmpty }
        let refusal = try XCTUnwrap(probe.errors.first { $0.kind == "sourceNotAllowed" }, "\(probe.errors)")
        XCTAssertTrue(refusal.description.contains("the host 127.0.0.1 is not in the allowed hosts"), "\(refusal)")
        XCTAssertGreaterThanOrEqual(probe.frames.count, 10, "the video plays on")
        XCTAssertEqual(try fixture.server.requestLog().count, 0, "the subtitle host was never asked")
    }

    /// A subtitle URL that never answers does not hold up the end of the player: its fetch ends with
    /// the pipeline's abort, not after its stall limit (here five minutes).
    func testStalledSubtitleURLDoesNotDelayTheEnd() throws {
        let fixture = try NetworkFixture()
        try fixture.server.setFaults([FaultRule(pattern: "\\.srt$", stall: true)])
        let video = try TestMedia.loopClip()
        let probe = NetworkProbe({ configuration in
            configuration.network.stallTimeout = 300
            configuration.network.timeout = 300
            configuration.subtitles.files = [fixture.url("/stalled.srt")]
        })
        let started = MonotonicCondition.now
        var asked = false
        probe.run(video, timeout: 60) { _ in
            asked = asked || ((try? fixture.server.requestLog().contains { $0.path == "/stalled.srt" }) ?? false)
            return asked
        }
        XCTAssertTrue(asked, "the subtitle file was asked for")
        // Not a speed bound: before, closing waited for the subtitle load's own time limit.
        XCTAssertLessThan(MonotonicCondition.now - started, ExternalSubtitleFile.Limits.standard.timeout,
                          "closing waited for the stalled fetch")
        let ended = waitFor(timeout: 30) {
            (try? fixture.server.requestLog().first { $0.path == "/stalled.srt" }?.outcome) != nil
        }
        XCTAssertTrue(ended, "the connection was closed by the player")
    }

    /// A segment that trickles a byte at a time never stalls, yet can never keep the picture going:
    /// it fails as timed out and, retried until the give-up time, ends as a `networkError`.
    func testTricklingSegmentEndsAsANetworkError() throws {
        let fixture = try NetworkFixture()
        try fixture.server.setFaults([FaultRule(pattern: "v240/seg00[1-3]\\.ts$", throttle: 8)])
        let probe = NetworkProbe { configuration in
            configuration.network.segmentCacheBytes = 0
            configuration.network.timeout = 3
            configuration.network.stallTimeout = 1
        }
        probe.run(fixture.url("/hls/v240/index.m3u8"), timeout: 60) { $0.failure != nil }
        let error = try XCTUnwrap(probe.failure, "a trickle of 8 bytes a second never ended the source")
        XCTAssertEqual(error.kind, "networkError", "\(error)")
        XCTAssertTrue(error.description.contains("seg001.ts"), "\(error)")
        XCTAssertTrue(error.description.contains("no complete answer"), "\(error)")
        XCTAssertGreaterThanOrEqual(probe.frames.count, 20, "the first segment played")
    }

    /// A segment larger than the whole cache budget stops being collected as soon as it passes the
    /// budget (an endless segment costs no memory), and its variant is no longer cached.
    func testSegmentLargerThanTheCacheIsNotKept() throws {
        let fixture = try NetworkFixture()
        let big = fixture.root.appendingPathComponent("big.ts")
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 8 << 20)
        try handle.close()
        // 3 MB arrive, then the server holds the connection open: the segment never completes.
        try fixture.server.setFaults([FaultRule(pattern: "big\\.ts$", stallAfter: 3 << 20)])
        let cache = SegmentCache(budget: 1 << 20)
        let fetcher = HTTPFetcher(options: { var options = HTTPFetchOptions(); options.stallTimeout = 30; return options }())
        let url = try XCTUnwrap(URL(string: fixture.url("/big.ts")))
        let stream = HLSByteStream(fetcher: ResourceFetcher(http: fetcher), capacity: 16 << 20, giveUpAfter: 30, cache: cache) { index, _ in
            index == 0 ? HLSByteStream.Segment(url: url, variant: 0, sequenceNumber: 0, duration: 600) : nil
        }
        defer { stream.stop() }
        XCTAssertTrue(waitFor(timeout: 30) { stream.bufferedBytes >= 3 << 20 }, "3 MB arrived")
        XCTAssertFalse(cache.accepts(variant: 0), "collection stopped while the segment was still arriving")
        XCTAssertEqual(cache.byteCount, 0)
    }

    /// An HTML error page served as a segment names that segment, not only the playlist.
    func testAnHTMLPageServedAsASegmentIsNamed() throws {
        let fixture = try NetworkFixture()
        try fixture.write("<html><body><h1>502 Bad Gateway</h1></body></html>\n", to: "hostile/page.ts")
        try fixture.write("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\npage.ts\n#EXT-X-ENDLIST\n", to: "hostile/html.m3u8")
        let probe = NetworkProbe({ $0.looping = false }, untimed: true)
        probe.run(fixture.url("/hostile/html.m3u8"), timeout: 20) { $0.failure != nil }
        let error = try XCTUnwrap(probe.failure)
        XCTAssertEqual(error.kind, "unreadableMedia", "\(error)")
        XCTAssertTrue(error.description.hasPrefix("\(fixture.url("/hostile/html.m3u8")): its segment \(fixture.url("/hostile/page.ts"))"),
                      "\(error)")
    }

    /// A looped HLS presentation whose pass brings nothing (its only segment empty, under any
    /// EXTINF) ends with a typed error naming the segment instead of looping over nothing forever;
    /// segments whose EXTINF is 0 but which hold pictures play and loop (an EXTINF of 0 named the
    /// same segment again and again).
    func testLoopedHLSThatYieldsNothingEnds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nothing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent("empty.ts").path, contents: Data()))
        let local = folder.appendingPathComponent("empty.m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nempty.ts\n#EXT-X-ENDLIST\n".write(to: local, atomically: true, encoding: .utf8)
        let localProbe = NetworkProbe(untimed: true)
        localProbe.run(local.path, timeout: 30) { $0.failure != nil || $0.ended }
        let localError = try XCTUnwrap(localProbe.failure, "a local playlist of an empty segment")
        XCTAssertTrue(localError.description.contains("its segment \(folder.appendingPathComponent("empty.ts").absoluteString)"),
                      "\(localError)")

        let fixture = try NetworkFixture()
        try fixture.write("", to: "nothing/empty.ts")
        for (name, extinf) in [("empty", "1.0"), ("zero-empty", "0")] {
            try fixture.write("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:\(extinf),\nempty.ts\n#EXT-X-ENDLIST\n", to: "nothing/\(name).m3u8")
            let probe = NetworkProbe(untimed: true)
            probe.run(fixture.url("/nothing/\(name).m3u8"), timeout: 30) { $0.failure != nil || $0.ended }
            let error = try XCTUnwrap(probe.failure, name)
            // Over http a server answers an empty file's range with 416; read whole it is no media.
            XCTAssertTrue(error.description.contains(fixture.url("/nothing/empty.ts")), "\(name): \(error)")
        }
        let requests = try fixture.server.requestLog().filter { $0.path == "/nothing/empty.ts" }
        XCTAssertLessThanOrEqual(requests.count, 2, "an empty segment is not fetched over and over")

        try fixture.write("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:0,\n/hls/v240/seg000.ts\n#EXTINF:0,\n/hls/v240/seg001.ts\n#EXT-X-ENDLIST\n",
                          to: "nothing/zero.m3u8")
        let probe = NetworkProbe(untimed: true)
        probe.run(fixture.url("/nothing/zero.m3u8"), timeout: 30) { $0.failure != nil || $0.frames.count >= 150 }
        XCTAssertNil(probe.failure)
        XCTAssertEqual(Set(probe.frames.prefix(150).map(\.pass)), [0, 1, 2], "two 1 s segments looped")
    }
}
