import CFFmpeg
@testable import LoopPlayer
import XCTest

/// Tracks and cues of embedded streams (Matroska SRT and ASS, MP4 mov_text), decoded by FFmpeg.
final class SubtitleDecodingTests: XCTestCase {
    func testMatroskaTracksHaveLanguagesAndDispositions() throws {
        let path = try SubtitleTestMedia.mkv()
        let input = try SubtitleInput(contents: Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path, formats: nil, limits: .standard)
        let tracks = SubtitleTrack.all(in: try XCTUnwrap(input.formatContext))
        XCTAssertEqual(tracks.count, 2)
        XCTAssertEqual(tracks.map(\.number), [0, 1])
        XCTAssertEqual(tracks.map(\.language), ["eng", "ger"])
        XCTAssertEqual(tracks.map(\.codecName), ["subrip", "ass"])
        XCTAssertEqual(tracks.map(\.isForced), [false, true])
        XCTAssertEqual(tracks.map(\.isDefault), [true, false])
        XCTAssertEqual(tracks.map(\.isBitmap), [false, false])
        XCTAssertEqual(tracks[0].title, "English")
        XCTAssertNil(tracks[0].externalSource)
        XCTAssertTrue(tracks[0].matches(language: "en"))
        XCTAssertTrue(tracks[0].matches(language: "ENG"))
        XCTAssertTrue(tracks[1].matches(language: "de"))
        XCTAssertTrue(tracks[1].matches(language: "deu"))
        XCTAssertFalse(tracks[1].matches(language: "en"))
        XCTAssertEqual(tracks[0].label, "#0 eng \"English\" (subrip, default)")
        XCTAssertEqual(tracks[1].label, "#1 ger (ass, forced)")
    }

    func testMatroskaSubRipCues() throws {
        let decoded = try SubtitleTestMedia.decode(try SubtitleTestMedia.mkv(), track: 0)
        XCTAssertEqual(decoded.cues.count, 3)
        assertTimes(decoded.cues, [(1, 2.5), (3, 4), (5, 6.25)])
        XCTAssertEqual(decoded.cues.map(\.plainText), ["Hello world", "Second line", "Line one\nLine two"])
        // SubRip's <i> becomes an ASS override; the event is in the Matroska form (9 fields).
        guard case let .text(event) = decoded.cues[1].content else { return XCTFail("not text") }
        XCTAssertTrue(event.contains("{\\i1}line{\\i0}"), event)
        XCTAssertEqual(event.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false).count, 9, event)
        // FFmpeg generates the header for SubRip: the renderer will replace it with its own style.
        XCTAssertTrue(ASSRenderer.isGeneratedDefault(try XCTUnwrap(decoded.header)))
    }

    func testMatroskaASSCuesKeepTheirStyles() throws {
        let decoded = try SubtitleTestMedia.decode(try SubtitleTestMedia.mkv(), track: 1)
        assertTimes(decoded.cues, [(1, 2), (3, 4.5), (5, 6)])
        XCTAssertEqual(decoded.cues.map(\.plainText), ["Red text", "White text", "Sign"])
        guard case let .text(event) = decoded.cues[0].content else { return XCTFail("not text") }
        XCTAssertTrue(event.contains(",Red,"), event)
        let header = try XCTUnwrap(decoded.header)
        XCTAssertTrue(header.contains("Style: Red,DejaVu Sans,24,&H000000FF"), header)
        XCTAssertFalse(ASSRenderer.isGeneratedDefault(header))
    }

    func testMP4MovTextCues() throws {
        let path = try SubtitleTestMedia.mp4()
        let decoded = try SubtitleTestMedia.decode(path, track: 0)
        XCTAssertEqual(decoded.track.codecName, "mov_text")
        XCTAssertEqual(decoded.track.language, "fra")
        XCTAssertTrue(decoded.track.matches(language: "fr"))
        // The gaps mov_text fills with empty samples give no cue.
        assertTimes(decoded.cues, [(1, 2.5), (3, 4), (5, 6.25)])
        XCTAssertEqual(decoded.cues.map(\.plainText), ["Hello world", "Second line", "Line one\nLine two"])
    }

    func testFlushLetsTheDecoderStartOver() throws {
        let path = try SubtitleTestMedia.mkv()
        let input = try SubtitleInput(contents: Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path, formats: nil, limits: .standard)
        let context = try XCTUnwrap(input.formatContext)
        let track = SubtitleTrack.all(in: context)[0]
        let decoder = try SubtitleDecoder(stream: try XCTUnwrap(context.pointee.streams[Int(track.streamIndex)]), sourceName: path)
        var packets: [StoredPacket] = []
        while true {
            let packet = try XCTUnwrap(StoredPacket())
            guard try input.read(into: packet.pointer) else { break }
            if packet.pointer.pointee.stream_index == track.streamIndex { packets.append(packet) }
        }
        let first = packets.flatMap { decoder.decode($0.pointer) }
        decoder.flush()
        let second = packets.flatMap { decoder.decode($0.pointer) }
        XCTAssertEqual(first.count, 3)
        XCTAssertEqual(first.map(\.start), second.map(\.start))
        XCTAssertEqual(first.map(\.plainText), second.map(\.plainText))
    }

    /// FFmpeg has a TTML encoder but no decoder: a typed error names the codec.
    func testCodecWithoutDecoder() throws {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&parameters) }
        let codec = try XCTUnwrap(parameters)
        codec.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
        codec.pointee.codec_id = AV_CODEC_ID_TTML
        XCTAssertThrowsError(try SubtitleDecoder(parameters: codec, timeBase: AVRational(num: 1, den: 1000), sourceName: "x.mkv")) { error in
            XCTAssertEqual(error as? PlayerError, .decoderUnavailable(source: "x.mkv", codec: "ttml", cause: nil))
        }
    }

    func testOpenEndsCloseAtTheNextCue() {
        let picture = SubtitleBitmap(x: 0, y: 0, width: 1, height: 1, pixels: [0, 0, 0, 255])
        let canvas = SubtitleCanvas(width: 720, height: 576)
        let cues = [
            SubtitleCue(start: 4, end: .infinity, content: .bitmap([picture], canvas: canvas)),
            SubtitleCue(start: 1, end: .infinity, content: .bitmap([picture], canvas: canvas)),
            SubtitleCue(start: 2, end: .infinity, content: .bitmap([], canvas: canvas)),   // "clear"
            SubtitleCue(start: 3, end: 3.5, content: .bitmap([picture], canvas: canvas)),
        ]
        let closed = cues.closingOpenEnds()
        XCTAssertEqual(closed.map(\.start), [1, 3, 4])
        XCTAssertEqual(closed.map(\.end), [2, 3.5, .infinity])
        XCTAssertTrue(closed[0].isShown(at: 1.99))
        XCTAssertFalse(closed[0].isShown(at: 2))
    }

    func testExternalTrackLanguageFromTheFileName() {
        XCTAssertEqual(SubtitleTrack.language(inFileName: "movie.en.srt"), "en")
        XCTAssertEqual(SubtitleTrack.language(inFileName: "movie.eng.forced.srt"), "eng")
        XCTAssertEqual(SubtitleTrack.language(inFileName: "movie.pt-BR.srt"), "pt-BR")
        XCTAssertEqual(SubtitleTrack.language(inFileName: "movie.en.sdh.srt"), "en")
        XCTAssertNil(SubtitleTrack.language(inFileName: "movie.srt"))
        XCTAssertNil(SubtitleTrack.language(inFileName: "my.movie.2019.srt"))
    }

    private func assertTimes(_ cues: [SubtitleCue], _ expected: [(Double, Double)], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(cues.count, expected.count, "\(cues.map { ($0.start, $0.end) })", file: file, line: line)
        for (cue, (start, end)) in zip(cues, expected) {
            XCTAssertEqual(cue.start, start, accuracy: 0.0015, file: file, line: line)
            XCTAssertEqual(cue.end, end, accuracy: 0.0015, file: file, line: line)
        }
    }
}

/// The rectangle subtitles are laid out in, for each gravity.
final class PictureRectTests: XCTestCase {
    func testPictureRectForEachGravity() {
        let picture = VideoGeometry(width: 320, height: 240)
        func rect(_ gravity: VideoGravity, _ geometry: VideoGeometry = picture) -> CGRect {
            VideoLayout(geometry: geometry, gravity: gravity, areaWidth: 1280, areaHeight: 720).pictureRect(for: geometry)
        }
        XCTAssertEqual(rect(.resizeAspect), CGRect(x: 160, y: 0, width: 960, height: 720))
        XCTAssertEqual(rect(.resize), CGRect(x: 0, y: 0, width: 1280, height: 720))
        XCTAssertEqual(rect(.resizeAspectFill), CGRect(x: 0, y: -120, width: 1280, height: 960))
        // Anamorphic 720×576 shown 16:9, and a quarter turn: the shown shape counts.
        XCTAssertEqual(rect(.resizeAspectFill, VideoGeometry(width: 720, height: 576, sampleAspectRatio: 64.0 / 45)),
                       CGRect(x: 0, y: 0, width: 1280, height: 720))
        let portrait = rect(.resizeAspectFill, VideoGeometry(width: 320, height: 180, rotation: 90))
        XCTAssertEqual(portrait.width, 1280, accuracy: 0.001)
        XCTAssertEqual(portrait.height, 1280 * 16 / 9, accuracy: 0.001)
        XCTAssertEqual(portrait.midY, 360, accuracy: 0.001)
    }
}
