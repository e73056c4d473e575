/// A valid HLS presentation: its media playlist and segments (file name → bytes).
struct HLSBase {
    var playlist: String
    var segments: [String: [UInt8]]
}

/// Bad HLS presentations: playlists that loop on themselves, that are huge or absurd, that point
/// at local files, and damaged segments. Each makes the files of one folder; `index.m3u8` is played.
struct HLSMutation: Sendable {
    let name: String
    let make: @Sendable (HLSBase, inout SeededGenerator) -> (detail: String, files: [String: [UInt8]])

    static let entry = "index.m3u8"

    static let all: [HLSMutation] = [selfReferencing, mutuallyReferencing, segmentIsThePlaylist, manyEntries, longLine,
                                     localFileSegment, localFileKey, badHeaders, badDurations, badSequence, byteRanges,
                                     missingSegments, damagedSegment, damagedSegment, discontinuities, badVariants]

    private static func files(_ base: HLSBase, playlist: String, extra: [String: String] = [:]) -> [String: [UInt8]] {
        var files = base.segments
        files[entry] = Array(playlist.utf8)
        for (name, text) in extra { files[name] = Array(text.utf8) }
        return files
    }

    private static func segmentNames(_ base: HLSBase) -> [String] { base.segments.keys.sorted() }

    private static func media(_ lines: [String], end: Bool = true) -> String {
        (["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:0"] + lines
            + (end ? ["#EXT-X-ENDLIST"] : [])).joined(separator: "\n") + "\n"
    }

    static let selfReferencing = HLSMutation(name: "hls-self") { base, _ in
        ("master", files(base, playlist: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\n\(entry)\n"))
    }

    static let mutuallyReferencing = HLSMutation(name: "hls-mutual") { base, _ in
        ("a-b-a", files(base, playlist: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nother.m3u8\n",
                        extra: ["other.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\n\(entry)\n"]))
    }

    static let segmentIsThePlaylist = HLSMutation(name: "hls-selfsegment") { base, random in
        let count = [1, 50].randomElement(using: &random)!
        return ("x\(count)", files(base, playlist: media(Array(repeating: ["#EXTINF:1.0,", entry], count: count).flatMap { $0 })))
    }

    /// 20 000 entries: of the real segments over and over, or of segments that do not exist.
    static let manyEntries = HLSMutation(name: "hls-20000") { base, random in
        let names = segmentNames(base)
        let missing = Bool.random(using: &random)
        let lines = (0..<20_000).flatMap { index in ["#EXTINF:1.0,", missing ? "gone\(index).ts" : names[index % names.count]] }
        return (missing ? "missing" : "real", files(base, playlist: media(lines)))
    }

    /// A line of 2 MB: a comment, a tag or a segment URI.
    static let longLine = HLSMutation(name: "hls-2mb-line") { base, random in
        let long = String(repeating: "A", count: 2 << 20)
        let names = segmentNames(base)
        let choice = Int.random(in: 0..<3, using: &random)
        let line = ["#" + long, "#EXT-X-PROGRAM-DATE-TIME:" + long, long + ".ts"][choice]
        return (["comment", "tag", "uri"][choice], files(base, playlist: media(["#EXTINF:1.0,", names[0], line, "#EXTINF:1.0,", names[1 % names.count]])))
    }

    /// Segments on the local disk of the machine playing a remote playlist: FFmpeg must not open them.
    static let localFileSegment = HLSMutation(name: "hls-file-segment") { base, random in
        let target = ["file:///etc/passwd", "/etc/passwd", "../../../../../../etc/passwd"].randomElement(using: &random)!
        return (target.hasPrefix("file") ? "file-url" : target.hasPrefix("/") ? "absolute" : "dotdot",
                files(base, playlist: media(["#EXTINF:1.0,", target, "#EXTINF:1.0,", segmentNames(base)[0]])))
    }

    static let localFileKey = HLSMutation(name: "hls-file-key") { base, _ in
        let names = segmentNames(base)
        return ("aes-passwd", files(base, playlist: media(["#EXT-X-KEY:METHOD=AES-128,URI=\"file:///etc/passwd\",IV=0x0",
                                                            "#EXTINF:1.0,", names[0]])))
    }

    static let badHeaders = HLSMutation(name: "hls-header") { base, random in
        let names = segmentNames(base)
        let body = names.flatMap { ["#EXTINF:1.0,", $0] }.joined(separator: "\n") + "\n#EXT-X-ENDLIST\n"
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return ("no-extm3u", files(base, playlist: "#EXT-X-TARGETDURATION:1\n" + body))
        case 1: return ("empty", files(base, playlist: "#EXTM3U\n"))
        case 2: return ("only-endlist", files(base, playlist: "#EXTM3U\n#EXT-X-ENDLIST\n"))
        default:
            var garbage = Array("#EXTM3U\n".utf8)
            for _ in 0..<4096 { garbage.append(UInt8.random(in: 0...255, using: &random)) }
            var result = base.segments
            result[entry] = garbage
            return ("garbage", result)
        }
    }

    static let badDurations = HLSMutation(name: "hls-duration") { base, random in
        let value = ["-1", "0", "1e308", "nan", "inf", "0.000001"].randomElement(using: &random)!
        let target = Bool.random(using: &random)
        let lines = segmentNames(base).flatMap { ["#EXTINF:\(value),", $0] }
        var playlist = media(lines)
        if target { playlist = playlist.replacingOccurrences(of: "#EXT-X-TARGETDURATION:1", with: "#EXT-X-TARGETDURATION:\(value)") }
        return ("\(target ? "target" : "extinf")\(value)", files(base, playlist: playlist))
    }

    static let badSequence = HLSMutation(name: "hls-sequence") { base, random in
        let value = ["9223372036854775807", "-5", "18446744073709551615"].randomElement(using: &random)!
        let playlist = media(segmentNames(base).flatMap { ["#EXTINF:1.0,", $0] })
            .replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:0", with: "#EXT-X-MEDIA-SEQUENCE:\(value)")
        return (value, files(base, playlist: playlist))
    }

    static let byteRanges = HLSMutation(name: "hls-byterange") { base, random in
        let range = ["999999999@999999999", "0@0", "188@-1", "9223372036854775807@1"].randomElement(using: &random)!
        let names = segmentNames(base)
        return (range, files(base, playlist: media(["#EXTINF:1.0,", "#EXT-X-BYTERANGE:\(range)", names[0], "#EXTINF:1.0,", names[0]])))
    }

    static let missingSegments = HLSMutation(name: "hls-404") { base, random in
        var result = files(base, playlist: media(segmentNames(base).flatMap { ["#EXTINF:1.0,", $0] }))
        let all = Bool.random(using: &random)
        for name in segmentNames(base) where all || Bool.random(using: &random) { result[name] = nil }
        return (all ? "all" : "some", result)
    }

    /// One segment damaged like a transport stream file.
    static let damagedSegment = HLSMutation(name: "hls-segment") { base, random in
        var result = files(base, playlist: media(segmentNames(base).flatMap { ["#EXTINF:1.0,", $0] }))
        let name = segmentNames(base).randomElement(using: &random)!
        let mutation = (TSMutations.all + ByteMutations.all).randomElement(using: &random)!
        var bytes = base.segments[name] ?? []
        let detail = mutation.apply(&bytes, &random) ?? "none"
        result[name] = bytes
        return ("\(mutation.name)-\(detail)", result)
    }

    static let discontinuities = HLSMutation(name: "hls-discontinuity") { base, _ in
        let names = segmentNames(base)
        let lines = names.reversed().flatMap { ["#EXT-X-DISCONTINUITY", "#EXTINF:1.0,", $0] } + ["#EXTINF:1.0,", names[0]]
        return ("reversed", files(base, playlist: media(lines)))
    }

    static let badVariants = HLSMutation(name: "hls-variant") { base, random in
        let names = segmentNames(base)
        let variant = ["missing.m3u8", names[0], "file:///etc/passwd"].randomElement(using: &random)!
        return (variant == names[0] ? "segment" : variant == "missing.m3u8" ? "missing" : "passwd",
                files(base, playlist: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000,RESOLUTION=99999x99999\n\(variant)\n"))
    }
}
