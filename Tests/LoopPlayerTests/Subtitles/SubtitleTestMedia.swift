import CFFmpeg
import Foundation
@testable import LoopPlayer
import XCTest

/// Subtitle files written at test time, and containers muxed from them by the real `ffmpeg` tool.
enum SubtitleTestMedia {
    static let directory: URL = {
        let url = TestMedia.directory.appendingPathComponent("subtitles")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static let srt = """
        1
        00:00:01,000 --> 00:00:02,500
        Hello world

        2
        00:00:03,000 --> 00:00:04,000
        Second <i>line</i>

        3
        00:00:05,000 --> 00:00:06,250
        Line one
        Line two

        """

    static let vtt = """
        WEBVTT

        00:00:01.000 --> 00:00:02.000
        Web cue one

        00:00:02.500 --> 00:00:03.750
        Web cue two

        """

    /// A red style and a default white one on a 384×288 script; the third event is a sign
    /// pinned to the script's centre.
    static let ass = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 384
        PlayResY: 288
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,DejaVu Sans,20,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1
        Style: Red,DejaVu Sans,24,&H000000FF,&H000000FF,&H00000000,&H00000000,1,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:02.00,Red,,0,0,0,,Red text
        Dialogue: 0,0:00:03.00,0:00:04.50,Default,,0,0,0,,White {\\i1}text{\\i0}
        Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,{\\an5\\pos(192,144)}Sign

        """

    /// Writes `contents` as `name` in the subtitle folder (every run: the texts are the truth).
    static func file(_ name: String, _ contents: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func file(_ name: String, bytes: [UInt8]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func srtFile() throws -> String { try file("sample.en.srt", srt) }
    static func vttFile() throws -> String { try file("sample.vtt", vtt) }
    static func assFile() throws -> String { try file("sample.ass", ass) }

    /// Seven seconds of a small picture.
    private static let video = ["-f", "lavfi", "-i", "testsrc2=s=160x90:r=10:d=7"]

    /// Video + the SRT as English (track 0) + the ASS as German, forced (track 1).
    static func mkv() throws -> String {
        let srt = try srtFile(), ass = try assFile()
        return try TestMedia.clip("subtitles-two-tracks-v1.mkv", video + ["-i", srt, "-i", ass,
            "-map", "0:v", "-map", "1:s", "-map", "2:s", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-c:s:0", "srt", "-c:s:1", "ass",
            "-metadata:s:s:0", "language=eng", "-metadata:s:s:0", "title=English",
            "-metadata:s:s:1", "language=ger", "-disposition:s:0", "default", "-disposition:s:1", "forced"])
    }

    /// Video + the SRT as French mov_text.
    static func mp4() throws -> String {
        let srt = try srtFile()
        return try TestMedia.clip("subtitles-mov-text-v1.mp4", video + ["-i", srt, "-map", "0:v", "-map", "1:s",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-c:s", "mov_text", "-metadata:s:s:0", "language=fra"])
    }

    /// Every cue of subtitle track `number` of a container, decoded as the player would.
    static func decode(_ path: String, track number: Int) throws -> (track: SubtitleTrack, header: String?, cues: [SubtitleCue]) {
        let input = try SubtitleInput(contents: Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path, formats: nil, limits: .standard)
        let context = try XCTUnwrap(input.formatContext)
        let track = try XCTUnwrap(SubtitleTrack.all(in: context).first { $0.number == number })
        let stream = try XCTUnwrap(context.pointee.streams[Int(track.streamIndex)])
        let decoder = try SubtitleDecoder(stream: stream, sourceName: path)
        var cues: [SubtitleCue] = []
        while true {
            let packet = try XCTUnwrap(StoredPacket())
            guard try input.read(into: packet.pointer) else { break }
            if packet.pointer.pointee.stream_index == track.streamIndex { cues += decoder.decode(packet.pointer) }
        }
        XCTAssertEqual(decoder.errorCount, 0)
        return (track, decoder.assHeader, cues)
    }
}

/// What a rendered overlay contains, measured from its pixels.
struct OverlayPixels {
    /// Opaque near-white pixels (text fill).
    var white = 0
    /// Opaque near-black pixels (outline).
    var dark = 0
    /// Opaque pixels of a saturated red.
    var red = 0
    /// Bounding box of visible pixels (alpha > 64) in player-area coordinates.
    var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
    /// Premultiplied invariant broken (a colour above its alpha).
    var invalid = 0

    init(_ image: OverlayImage) {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                if p.b > p.a || p.g > p.a || p.r > p.a { invalid += 1 }
                guard p.a > 64 else { continue }
                minX = min(minX, image.x + x); maxX = max(maxX, image.x + x + 1)
                minY = min(minY, image.y + y); maxY = max(maxY, image.y + y + 1)
                guard p.a > 230 else { continue }
                if p.r > 225 && p.g > 225 && p.b > 225 { white += 1 }
                if p.r < 40 && p.g < 40 && p.b < 40 { dark += 1 }
                if p.r > 200 && p.g < 60 && p.b < 60 { red += 1 }
            }
        }
    }

    var width: Int { maxX - minX }
    var height: Int { maxY - minY }
    var midX: Double { Double(minX + maxX) / 2 }
    var midY: Double { Double(minY + maxY) / 2 }
}
