import Foundation
import LoopPlayer
import XCTest

/// The playlist parser on hand-written playlists: every tag it reads, URL resolution, and every
/// bound and refusal as a typed error.
final class HLSPlaylistTests: XCTestCase {
    private let masterURL = URL(string: "https://cdn.example.com/show/master.m3u8?token=1")!
    private let mediaURL = URL(string: "https://cdn.example.com/show/v720/index.m3u8")!

    func testMasterPlaylistVariantsAndRenditions() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",URI="audio/de.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=510400,AVERAGE-BANDWIDTH=450000,RESOLUTION=426x240,CODECS="avc1.640015,mp4a.40.2",FRAME-RATE=29.970,AUDIO="aud"
        v240/index.m3u8

        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="iframes.m3u8"
        # a comment
        #EXT-X-STREAM-INF:BANDWIDTH=3370400, RESOLUTION=1280x720, CODECS="avc1.64001f"
        /abs/v720/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=9000000
        https://other.example.org/4k.m3u8
        """
        guard case let .master(master) = try HLSPlaylist.parse(text, url: masterURL) else { return XCTFail("not a master") }
        XCTAssertEqual(master.variants.count, 3)
        XCTAssertTrue(master.independentSegments)
        let low = master.variants[0]
        XCTAssertEqual(low.url.absoluteString, "https://cdn.example.com/show/v240/index.m3u8")
        XCTAssertEqual(low.bandwidth, 510_400)
        XCTAssertEqual(low.averageBandwidth, 450_000)
        XCTAssertEqual(low.resolution, HLSResolution(width: 426, height: 240))
        XCTAssertEqual(low.codecs, ["avc1.640015", "mp4a.40.2"])
        XCTAssertEqual(try XCTUnwrap(low.frameRate), 29.97, accuracy: 1e-9)
        XCTAssertEqual(low.audioGroup, "aud")
        XCTAssertEqual(master.variants[1].url.absoluteString, "https://cdn.example.com/abs/v720/index.m3u8")
        XCTAssertEqual(master.variants[1].codecs, ["avc1.64001f"])
        XCTAssertNil(master.variants[2].resolution)
        XCTAssertEqual(master.variants[2].url.host, "other.example.org")
        let audio = master.renditions(inGroup: "aud", type: .audio)
        XCTAssertEqual(audio.map(\.name), ["English", "Deutsch"])
        XCTAssertEqual(audio[0].language, "en")
        XCTAssertTrue(audio[0].isDefault && audio[0].autoselect)
        XCTAssertFalse(audio[1].isDefault)
        XCTAssertEqual(audio[0].channels, "2")
        XCTAssertEqual(audio[1].url?.absoluteString, "https://cdn.example.com/show/audio/de.m3u8")
    }

    func testMediaPlaylistSegments() throws {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:40
        #EXT-X-DISCONTINUITY-SEQUENCE:3
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-KEY:METHOD=NONE
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
        #EXTINF:2.002,first title
        #EXT-X-BYTERANGE:1000@720
        all.mp4
        #EXTINF:1.5,
        #EXT-X-BYTERANGE:500
        all.mp4
        #EXT-X-DISCONTINUITY
        #EXT-X-MAP:URI="../other/init.mp4"
        #EXTINF:2
        seg3.m4s?x=1
        #EXT-X-ENDLIST
        """
        guard case let .media(media) = try HLSPlaylist.parse(text, url: mediaURL) else { return XCTFail("not a media playlist") }
        XCTAssertEqual(media.targetDuration, 2)
        XCTAssertEqual(media.mediaSequence, 40)
        XCTAssertEqual(media.playlistType, .vod)
        XCTAssertTrue(media.hasEndList)
        XCTAssertFalse(media.isLive)
        XCTAssertEqual(media.duration, 5.502, accuracy: 1e-9)
        XCTAssertEqual(media.segments.map(\.sequenceNumber), [40, 41, 42])
        XCTAssertEqual(media.segments.map(\.discontinuitySequence), [3, 3, 4])
        XCTAssertEqual(media.segments.map(\.discontinuity), [false, false, true])
        let first = media.segments[0], second = media.segments[1], third = media.segments[2]
        XCTAssertEqual(first.title, "first title")
        XCTAssertNil(second.title)
        XCTAssertEqual(first.url.absoluteString, "https://cdn.example.com/show/v720/all.mp4")
        XCTAssertEqual(first.byteRange, HLSByteRange(offset: 720, length: 1000))
        XCTAssertEqual(second.byteRange, HLSByteRange(offset: 1720, length: 500), "follows the previous range")
        XCTAssertNil(third.byteRange)
        XCTAssertEqual(first.initSection?.url.absoluteString, "https://cdn.example.com/show/v720/init.mp4")
        XCTAssertEqual(first.initSection?.byteRange, HLSByteRange(offset: 0, length: 720))
        XCTAssertEqual(third.initSection?.url.absoluteString, "https://cdn.example.com/show/other/init.mp4")
        XCTAssertEqual(third.url.absoluteString, "https://cdn.example.com/show/v720/seg3.m4s?x=1")
    }

    func testLivePlaylistWithoutEndList() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:1000\n#EXTINF:6.0,\na.ts\n#EXTINF:6.0,\nb.ts\n"
        guard case let .media(media) = try HLSPlaylist.parse(text, url: mediaURL) else { return XCTFail("not media") }
        XCTAssertTrue(media.isLive)
        XCTAssertEqual(media.segments.last?.sequenceNumber, 1001)
        // EXTINF beyond the target duration (rounded) is cut to it; without one, to a minute.
        guard case let .media(endless) = try HLSPlaylist.parse(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1e308,\na.ts\n#EXTINF:2.4,\nb.ts\n#EXT-X-ENDLIST\n", url: mediaURL),
              case let .media(untargeted) = try HLSPlaylist.parse("#EXTM3U\n#EXTINF:1e308,\na.ts\n#EXT-X-ENDLIST\n", url: mediaURL)
        else { return XCTFail("media playlists expected") }
        XCTAssertEqual(endless.segments.map(\.duration), [2.5, 2.4])
        XCTAssertEqual(untargeted.segments.map(\.duration), [60.5])

        // A live playlist may be empty for a moment; a finished one may not.
        guard case let .media(empty) = try HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:6\n", url: mediaURL) else {
            return XCTFail("not media")
        }
        XCTAssertTrue(empty.segments.isEmpty && empty.isLive)
        // EVENT playlists grow until EXT-X-ENDLIST: still live.
        guard case let .media(event) = try HLSPlaylist.parse("#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:1,\na.ts\n", url: mediaURL) else {
            return XCTFail("not media")
        }
        XCTAssertTrue(event.isLive)
        XCTAssertEqual(event.targetDuration, 1, "the longest segment when the tag is missing")
    }

    func testWindowsLineEndingsAndByteOrderMark() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXT-X-TARGETDURATION:1\r\n#EXTINF:1,\r\nseg.ts\r\n#EXT-X-ENDLIST\r\n"
        guard case let .media(media) = try HLSPlaylist.parse(text, url: mediaURL) else { return XCTFail("not media") }
        XCTAssertEqual(media.segments.map(\.url.lastPathComponent), ["seg.ts"])
    }

    /// Each malformed or hostile playlist gives its typed error, naming the URL.
    func testErrorsTable() {
        let long = String(repeating: "a", count: 70_000)
        let cases: [(String, String, HLSError)] = [
            ("no header", "#EXT-X-TARGETDURATION:1\n#EXTINF:1,\na.ts\n", .notAPlaylist(url: mediaURL.absoluteString)),
            ("html", "<html>404</html>", .notAPlaylist(url: mediaURL.absoluteString)),
            ("empty text", "", .notAPlaylist(url: mediaURL.absoluteString)),
            ("long line", "#EXTM3U\n#EXTINF:1,\n\(long).ts\n", .lineTooLong(url: mediaURL.absoluteString, line: 3, limit: 65_536)),
            ("negative duration", "#EXTM3U\n#EXTINF:-1,\na.ts\n",
             .invalidTag(url: mediaURL.absoluteString, line: 2, tag: "EXTINF", reason: "'-1' is not a duration in seconds")),
            ("nan duration", "#EXTM3U\n#EXTINF:nan,\na.ts\n",
             .invalidTag(url: mediaURL.absoluteString, line: 2, tag: "EXTINF", reason: "'nan' is not a duration in seconds")),
            ("bad byte range", "#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:x@1\na.ts\n",
             .invalidTag(url: mediaURL.absoluteString, line: 3, tag: "EXT-X-BYTERANGE", reason: "'x@1' is not LENGTH[@OFFSET]")),
            ("bad resolution", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=big\na.m3u8\n",
             .invalidTag(url: mediaURL.absoluteString, line: 2, tag: "EXT-X-STREAM-INF", reason: "RESOLUTION=big is not WIDTHxHEIGHT")),
            ("unclosed quote", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1\na.m3u8\n",
             .invalidTag(url: mediaURL.absoluteString, line: 2, tag: "EXT-X-STREAM-INF", reason: "CODECS has no closing quote")),
            ("variant without URI", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", .missingURI(url: mediaURL.absoluteString, line: 2)),
            ("two EXTINF in a row", "#EXTM3U\n#EXTINF:1,\n#EXTINF:1,\na.ts\n", .missingURI(url: mediaURL.absoluteString, line: 2)),
            ("mixed", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXTINF:1,\nb.ts\n", .mixedPlaylist(url: mediaURL.absoluteString)),
            ("finished and empty", "#EXTM3U\n#EXT-X-ENDLIST\n", .empty(url: mediaURL.absoluteString)),
            ("only the header", "#EXTM3U\n", .empty(url: mediaURL.absoluteString)),
            ("renditions only", "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",URI=\"a.m3u8\"\n", .empty(url: mediaURL.absoluteString)),
            ("lists itself as a variant", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nindex.m3u8\n", .selfReference(url: mediaURL.absoluteString)),
            ("lists itself as a segment", "#EXTM3U\n#EXTINF:1,\n./index.m3u8\n", .selfReference(url: mediaURL.absoluteString)),
            ("AES-128", "#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\"\n#EXTINF:1,\na.ts\n",
             .unsupportedEncryption(url: mediaURL.absoluteString, method: "AES-128")),
            ("SAMPLE-AES", "#EXTM3U\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k.bin\"\n", .unsupportedEncryption(url: mediaURL.absoluteString, method: "SAMPLE-AES")),
            ("FFmpeg protocol prefix", "#EXTM3U\n#EXTINF:1,\nsubfile,,start,0,end,1,,:file:///etc/passwd\n",
             .invalidURI(url: mediaURL.absoluteString, line: 3, uri: "subfile,,start,0,end,1,,:file:///etc/passwd")),
            ("bad playlist type", "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:LIVE\n",
             .invalidTag(url: mediaURL.absoluteString, line: 2, tag: "EXT-X-PLAYLIST-TYPE", reason: "expected VOD or EVENT, not 'LIVE'")),
        ]
        for (name, text, expected) in cases {
            XCTAssertThrowsError(try HLSPlaylist.parse(text, url: mediaURL), name) { error in
                XCTAssertEqual(error as? HLSError, expected, name)
                XCTAssertTrue("\(error)".contains(mediaURL.absoluteString), "\(name): the message names the URL: \(error)")
            }
        }
    }

    func testSizeAndEntryLimits() {
        let limits = HLSLimits(maxBytes: 1000, maxLineLength: 100, maxEntries: 3)
        let big = "#EXTM3U\n" + String(repeating: "#\n", count: 600)
        XCTAssertThrowsError(try HLSPlaylist.parse(big, url: mediaURL, limits: limits)) {
            XCTAssertEqual($0 as? HLSError, .playlistTooLarge(url: mediaURL.absoluteString, bytes: 1208, limit: 1000))
        }
        let four = "#EXTM3U\n" + (0..<4).map { "#EXTINF:1,\n\($0).ts\n" }.joined()
        XCTAssertThrowsError(try HLSPlaylist.parse(four, url: mediaURL, limits: limits)) {
            XCTAssertEqual($0 as? HLSError, .tooManyEntries(url: mediaURL.absoluteString, limit: 3))
        }
        let three = "#EXTM3U\n" + (0..<3).map { "#EXTINF:1,\n\($0).ts\n" }.joined()
        XCTAssertNoThrow(try HLSPlaylist.parse(three, url: mediaURL, limits: limits))
    }

    /// A 2 MB line is refused at the line limit; a 20 000-entry playlist parses; 50 001 entries or
    /// 1 001 variants are refused.
    func testLargePlaylists() throws {
        let hugeLine = "#EXTM3U\n#EXTINF:1,\n" + String(repeating: "x", count: 2 << 20) + "\n"
        XCTAssertThrowsError(try HLSPlaylist.parse(hugeLine, url: mediaURL)) {
            XCTAssertEqual(($0 as? HLSError)?.kind, "lineTooLong")
        }
        let entries = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + (0..<20_000).map { "#EXTINF:1.0,\nseg\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        guard case let .media(media) = try HLSPlaylist.parse(entries, url: mediaURL) else { return XCTFail("not media") }
        XCTAssertEqual(media.segments.count, 20_000)
        XCTAssertEqual(media.segments.last?.url.lastPathComponent, "seg19999.ts")
        let tooMany = "#EXTM3U\n" + (0..<50_001).map { "#EXTINF:1,\n\($0)\n" }.joined()
        XCTAssertThrowsError(try HLSPlaylist.parse(tooMany, url: mediaURL)) {
            XCTAssertEqual($0 as? HLSError, .tooManyEntries(url: mediaURL.absoluteString, limit: 50_000))
        }
        let variants = "#EXTM3U\n" + (0..<1_001).map { "#EXT-X-STREAM-INF:BANDWIDTH=\($0 + 1)\nv\($0).m3u8\n" }.joined()
        XCTAssertThrowsError(try HLSPlaylist.parse(variants, url: masterURL)) {
            XCTAssertEqual($0 as? HLSError, .tooManyVariants(url: masterURL.absoluteString, limit: 1_000))
        }
        let renditions = "#EXTM3U\n" + (0..<1_000).map { "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\($0)\"\n" }.joined()
            + "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        XCTAssertThrowsError(try HLSPlaylist.parse(renditions, url: masterURL)) {
            XCTAssertEqual(($0 as? HLSError)?.kind, "tooManyVariants")
        }
    }

    /// Sequence numbers near Int64.max (media and discontinuity) were added to without a check and
    /// trapped; above 2^53 they are an invalid tag, and at 2^53 every segment is still numbered.
    func testExtremeSequenceNumbers() throws {
        for tag in ["#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE"] {
            for value in ["9223372036854775807", "9007199254740993", "99999999999999999999999"] {
                let text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n\(tag):\(value)\n#EXTINF:1,\na.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\nb.ts\n"
                XCTAssertThrowsError(try HLSPlaylist.parse(text, url: mediaURL), "\(tag) \(value)") {
                    XCTAssertEqual(($0 as? HLSError)?.kind, "invalidTag", "\($0)")
                }
            }
            let largest = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n\(tag):9007199254740992\n#EXTINF:1,\na.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\nb.ts\n"
            guard case let .media(media) = try HLSPlaylist.parse(largest, url: mediaURL) else { return XCTFail("not media") }
            XCTAssertEqual(media.segments.count, 2)
        }
    }

    /// A variant that turns out to be a master playlist is refused, never followed.
    func testNestedMasterIsRefused() throws {
        let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nc.m3u8\n".utf8)
        let variantURL = URL(string: "https://cdn.example.com/show/b.m3u8")!
        XCTAssertThrowsError(try HLSPlaylist.parseMedia(master, url: variantURL, listedBy: masterURL)) {
            XCTAssertEqual($0 as? HLSError, .nestedMaster(url: variantURL.absoluteString, referencedBy: masterURL.absoluteString))
        }
        let media = Array("#EXTM3U\n#EXTINF:1,\na.ts\n#EXT-X-ENDLIST\n".utf8)
        XCTAssertEqual(try HLSPlaylist.parseMedia(media, url: variantURL, listedBy: masterURL).segments.count, 1)
    }

    func testURIResolutionTable() {
        let base = URL(string: "http://h.example/a/b/list.m3u8?x=1")!
        let cases: [(String, String?)] = [
            ("seg1.ts", "http://h.example/a/b/seg1.ts"),
            ("../seg.ts", "http://h.example/a/seg.ts"),
            ("../../../../up.ts", "http://h.example/up.ts"),
            ("/root.ts", "http://h.example/root.ts"),
            ("//other.example/x.ts", "http://other.example/x.ts"),
            ("?q=2", "http://h.example/a/b/list.m3u8?q=2"),
            ("seg,1.ts", "http://h.example/a/b/seg,1.ts"),
            ("seg%201.ts", "http://h.example/a/b/seg%201.ts"),
            ("https://x.example/y.ts", "https://x.example/y.ts"),
            ("file:///etc/passwd", "file:///etc/passwd"),   // resolved; the source policy refuses it
            ("subfile,,start,0,end,1,,:file:///etc/passwd", nil),
            ("seg\u{0}.ts", nil),
            ("", nil),
        ]
        for (uri, expected) in cases {
            XCTAssertEqual(HLSPlaylist.resolve(uri, against: base)?.absoluteString, expected, uri)
        }
    }
}
