import Foundation
import LoopPlayerCore

extension HLSPlaylist {
    /// Parses a master or media playlist fetched from `url`.
    package static func parse(_ text: String, url: URL, limits: HLSLimits = .standard) throws(HLSError) -> HLSPlaylist {
        try parse(Array(text.utf8), url: url, limits: limits)
    }

    /// Parses a master or media playlist fetched from `url` (its bytes, UTF-8).
    package static func parse(_ bytes: [UInt8], url: URL, limits: HLSLimits = .standard) throws(HLSError) -> HLSPlaylist {
        var parser = HLSPlaylistParser(url: url, limits: limits)
        return try parser.parse(bytes)
    }

    /// Parses the media playlist of a variant or rendition listed by the master playlist `master`.
    /// A master playlist here is refused (`nestedMaster`), so loading never recurses.
    package static func parseMedia(_ bytes: [UInt8], url: URL, listedBy master: URL?,
                                  limits: HLSLimits = .standard) throws(HLSError) -> HLSMediaPlaylist {
        switch try parse(bytes, url: url, limits: limits) {
        case let .media(media): return media
        case .master: throw .nestedMaster(url: url.absoluteString, referencedBy: master?.absoluteString ?? url.absoluteString)
        }
    }

    /// Resolves a URI line or `URI=` attribute against the playlist's URL (RFC 3986). Nil when
    /// `uri` is not a URL reference: that includes FFmpeg-style protocol prefixes such as
    /// `subfile,,start,0,end,1,,:file:…`, whose first segment holds a colon but no valid scheme.
    package static func resolve(_ uri: String, against base: URL) -> URL? {
        guard !uri.isEmpty, !uri.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        let firstSegment = uri.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let colon = firstSegment.firstIndex(of: ":") {
            let scheme = firstSegment[..<colon]
            guard let first = scheme.first, first.isASCII, first.isLetter,
                  scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
            else { return nil }
        }
        return URL(string: uri, relativeTo: base)?.absoluteURL
    }
}

/// One pass over a playlist's lines; `HLSPlaylist.parse` is its only user.
private struct HLSPlaylistParser {
    let url: URL
    let limits: HLSLimits
    /// Seconds a segment may last in a playlist that gives no target duration.
    static let longestSegmentWithoutTarget = 60.0
    /// Seconds a segment counts for at least (an `#EXTINF:0`).
    static let shortestSegment = 0.001
    /// The largest media or discontinuity sequence number accepted (2^53, what players built on
    /// JavaScript numbers handle): numbering a playlist's segments from it, and counting its
    /// discontinuities, then never overflows, however the playlist is made.
    static let largestSequenceNumber = 1 << 53
    /// The largest byte a range may reach (2^53, 8 PiB): sums of offsets and lengths never overflow.
    static let largestByteOffset = 1 << 53
    private var lineNumber = 0

    // Master playlist state.
    private var variants: [HLSVariantStream] = []
    private var renditions: [HLSRendition] = []
    /// A variant read from its tag, waiting for its URI line.
    private var pendingVariant: (variant: HLSVariantStream, line: Int)?

    // Media playlist state.
    private var segments: [HLSSegment] = []
    private var targetDuration: Double?
    private var mediaSequence = 0
    private var discontinuitySequence = 0
    private var playlistType: HLSMediaPlaylist.PlaylistType?
    private var hasEndList = false
    private var independentSegments = false
    private var pendingSegment: (duration: Double, title: String?, line: Int)?
    private var pendingByteRange: (length: Int, offset: Int?)?
    private var pendingDiscontinuity = false
    private var initSection: HLSInitSection?

    init(url: URL, limits: HLSLimits) {
        self.url = url
        self.limits = limits
    }

    private var name: String { url.absoluteString }

    mutating func parse(_ bytes: [UInt8]) throws(HLSError) -> HLSPlaylist {
        guard bytes.count <= limits.maxBytes else {
            throw .playlistTooLarge(url: name, bytes: bytes.count, limit: limits.maxBytes)
        }
        var sawHeader = false
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0   // a UTF-8 byte-order mark
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var end = newline
            if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            lineNumber += 1
            guard end - start <= limits.maxLineLength else {
                throw .lineTooLong(url: name, line: lineNumber, limit: limits.maxLineLength)
            }
            let line = String(decoding: bytes[start..<end], as: UTF8.self).trimmingSpaces
            start = newline + 1
            if line.isEmpty { continue }
            if !sawHeader {
                guard line == "#EXTM3U" else { throw .notAPlaylist(url: name) }
                sawHeader = true
                continue
            }
            if line.hasPrefix("#") {
                try handleTag(line)
            } else {
                try handleURI(line)
            }
        }
        guard sawHeader else { throw .notAPlaylist(url: name) }
        return try finish()
    }

    // MARK: Lines

    private mutating func handleTag(_ line: String) throws(HLSError) {
        guard line.hasPrefix("#EXT") else { return }   // a comment
        let colon = line.firstIndex(of: ":")
        let tag = String(line[..<(colon ?? line.endIndex)])
        let value = colon.map { line[line.index(after: $0)...] } ?? ""
        switch tag {
        case "#EXT-X-STREAM-INF":
            if let pending = pendingVariant { throw .missingURI(url: name, line: pending.line) }
            pendingVariant = (try variant(try attributes(value, tag: tag)), lineNumber)
        case "#EXT-X-MEDIA":
            try addRendition(try attributes(value, tag: tag))
        case "#EXTINF":
            if let pending = pendingSegment { throw .missingURI(url: name, line: pending.line) }
            let comma = value.firstIndex(of: ",")
            let durationText = String(value[..<(comma ?? value.endIndex)]).trimmingSpaces
            guard let duration = Double(durationText), duration.isFinite, duration >= 0 else {
                throw invalid(tag, "'\(durationText.prefix(40))' is not a duration in seconds")
            }
            let title = comma.map { String(value[value.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
            pendingSegment = (duration, title, lineNumber)
        case "#EXT-X-TARGETDURATION":
            targetDuration = Double(try integer(value, tag: tag))
        case "#EXT-X-MEDIA-SEQUENCE":
            mediaSequence = try sequenceNumber(value, tag: tag)
        case "#EXT-X-DISCONTINUITY-SEQUENCE":
            discontinuitySequence = try sequenceNumber(value, tag: tag)
        case "#EXT-X-BYTERANGE":
            pendingByteRange = try byteRange(String(value), tag: tag)
        case "#EXT-X-DISCONTINUITY":
            pendingDiscontinuity = true
        case "#EXT-X-ENDLIST":
            hasEndList = true
        case "#EXT-X-PLAYLIST-TYPE":
            guard let type = HLSMediaPlaylist.PlaylistType(rawValue: String(value).trimmingSpaces) else {
                throw invalid(tag, "expected VOD or EVENT, not '\(value.prefix(40))'")
            }
            playlistType = type
        case "#EXT-X-INDEPENDENT-SEGMENTS":
            independentSegments = true
        case "#EXT-X-MAP":
            try setInitSection(try attributes(value, tag: tag))
        case "#EXT-X-KEY":
            let list = try attributes(value, tag: tag)
            guard let method = list.enumerated("METHOD") else { throw invalid(tag, "METHOD is missing") }
            // AES-128 could go through FFmpeg's crypto protocol (key fetched apart, IV from the
            // tag or the sequence number); not done yet, so refused with a clear error.
            guard method == "NONE" else { throw .unsupportedEncryption(url: name, method: method) }
        default:
            break   // Unknown tags are ignored (RFC 8216 §6.3.1).
        }
    }

    private mutating func handleURI(_ line: String) throws(HLSError) {
        if let pending = pendingVariant {
            pendingVariant = nil
            try addVariant(uri: line, pending.variant)
        } else if let pending = pendingSegment {
            pendingSegment = nil
            try addSegment(uri: line, duration: pending.duration, title: pending.title)
        }
        // A URI line with no tag before it says nothing we can use; ignored like other players.
    }

    // MARK: Entries

    /// A variant from its tag's attributes; its URL comes with the next URI line.
    private func variant(_ list: HLSAttributeList) throws(HLSError) -> HLSVariantStream {
        let tag = "#EXT-X-STREAM-INF"
        return HLSVariantStream(
            url: url,
            bandwidth: try check(list.integer("BANDWIDTH"), tag: tag) ?? 0,
            averageBandwidth: try check(list.integer("AVERAGE-BANDWIDTH"), tag: tag),
            resolution: try check(list.resolution("RESOLUTION"), tag: tag),
            codecs: (list.string("CODECS") ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty },
            frameRate: try check(list.decimal("FRAME-RATE"), tag: tag),
            audioGroup: list.string("AUDIO"),
            videoGroup: list.string("VIDEO"),
            subtitlesGroup: list.string("SUBTITLES"))
    }

    private mutating func addVariant(uri: String, _ pending: HLSVariantStream) throws(HLSError) {
        var variant = pending
        variant.url = try resolve(uri)
        if Self.sameResource(variant.url, url) { throw .selfReference(url: name) }
        try countEntry(variant: true)
        variants.append(variant)
    }

    private mutating func addRendition(_ list: HLSAttributeList) throws(HLSError) {
        let tag = "#EXT-X-MEDIA"
        guard let typeName = list.enumerated("TYPE"), let type = HLSRendition.MediaType(rawValue: typeName) else {
            throw invalid(tag, "TYPE must be AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS")
        }
        guard let group = list.string("GROUP-ID") else { throw invalid(tag, "GROUP-ID is missing") }
        guard let renditionName = list.string("NAME") else { throw invalid(tag, "NAME is missing") }
        var renditionURL: URL?
        if let uri = list.string("URI") {
            renditionURL = try resolve(uri)
            if let resolved = renditionURL, Self.sameResource(resolved, url) { throw .selfReference(url: name) }
        }
        try countEntry(variant: true)
        renditions.append(HLSRendition(type: type, groupID: group, name: renditionName, language: list.string("LANGUAGE"),
                                       url: renditionURL, isDefault: list.enumerated("DEFAULT") == "YES",
                                       autoselect: list.enumerated("AUTOSELECT") == "YES", channels: list.string("CHANNELS")))
    }

    private mutating func addSegment(uri: String, duration: Double, title: String?) throws(HLSError) {
        let segmentURL = try resolve(uri)
        if Self.sameResource(segmentURL, url) { throw .selfReference(url: name) }
        var range: HLSByteRange?
        if let pending = pendingByteRange {
            pendingByteRange = nil
            // Without an offset the range follows the previous range of the same resource.
            let previous = segments.last.flatMap { $0.url == segmentURL ? $0.byteRange : nil }
            let offset = pending.offset ?? previous?.end ?? 0
            // A chain of ranges adds up: its end must stay a number (and a plausible file size).
            guard offset <= Self.largestByteOffset - pending.length else {
                throw invalid("#EXT-X-BYTERANGE", "the range ends past \(Self.largestByteOffset) bytes")
            }
            range = HLSByteRange(offset: offset, length: pending.length)
        }
        try countEntry()
        segments.append(HLSSegment(url: segmentURL, duration: duration, title: title, sequenceNumber: 0, byteRange: range,
                                   initSection: initSection, discontinuity: pendingDiscontinuity, discontinuitySequence: 0))
        pendingDiscontinuity = false
    }

    private mutating func setInitSection(_ list: HLSAttributeList) throws(HLSError) {
        let tag = "#EXT-X-MAP"
        guard let uri = list.string("URI") else { throw invalid(tag, "URI is missing") }
        let range = try list.string("BYTERANGE").map { text throws(HLSError) in
            let parsed = try byteRange(text, tag: tag)
            return HLSByteRange(offset: parsed.offset ?? 0, length: parsed.length)
        }
        initSection = HLSInitSection(url: try resolve(uri), byteRange: range)
    }

    private mutating func countEntry(variant: Bool = false) throws(HLSError) {
        guard variants.count + segments.count + renditions.count < limits.maxEntries else {
            throw .tooManyEntries(url: name, limit: limits.maxEntries)
        }
        if variant, variants.count + renditions.count >= limits.maxVariants {
            throw .tooManyVariants(url: name, limit: limits.maxVariants)
        }
    }

    // MARK: Result

    private func finish() throws(HLSError) -> HLSPlaylist {
        if let pending = pendingVariant { throw .missingURI(url: name, line: pending.line) }
        if let pending = pendingSegment { throw .missingURI(url: name, line: pending.line) }
        if !variants.isEmpty && !segments.isEmpty { throw .mixedPlaylist(url: name) }
        if !variants.isEmpty || (!renditions.isEmpty && segments.isEmpty) {
            guard !variants.isEmpty else { throw .empty(url: name) }
            return .master(HLSMasterPlaylist(url: url, variants: variants, renditions: renditions,
                                             independentSegments: independentSegments))
        }
        // No segments: empty when it can never get any (ended), or when it says nothing of a live
        // stream either (a bare "#EXTM3U": no target duration to reload it by).
        if segments.isEmpty && (hasEndList || playlistType == .vod || targetDuration == nil) { throw .empty(url: name) }
        var numbered = segments
        var discontinuities = discontinuitySequence
        // A segment's EXTINF may not exceed the target duration (rounded): longer claims (an endless
        // "#EXTINF:1e308") are cut to it, so the schedule's times and the fetch-ahead stay sane.
        let longestAllowed = (targetDuration ?? Self.longestSegmentWithoutTarget) + 0.5
        for index in numbered.indices {
            // Nor less than a millisecond: the schedule steps by time, and a segment lasting
            // nothing would be named again and again at the same moment.
            numbered[index].duration = min(max(numbered[index].duration, Self.shortestSegment), longestAllowed)
            if numbered[index].discontinuity { discontinuities += 1 }
            numbered[index].sequenceNumber = mediaSequence + index
            numbered[index].discontinuitySequence = discontinuities
        }
        let longest = numbered.map(\.duration).max() ?? 0
        return .media(HLSMediaPlaylist(url: url, targetDuration: targetDuration ?? longest.rounded(.up),
                                       mediaSequence: mediaSequence, discontinuitySequence: discontinuitySequence,
                                       playlistType: playlistType, hasEndList: hasEndList,
                                       independentSegments: independentSegments, segments: numbered))
    }

    // MARK: Values

    private func resolve(_ uri: String) throws(HLSError) -> URL {
        guard let resolved = HLSPlaylist.resolve(uri, against: url) else {
            throw .invalidURI(url: name, line: lineNumber, uri: String(uri.prefix(200)))
        }
        return resolved
    }

    private func attributes(_ text: Substring, tag: String) throws(HLSError) -> HLSAttributeList {
        switch HLSAttributeList.parse(text) {
        case let .success(list): return list
        case let .failure(malformed): throw invalid(tag, malformed.reason)
        }
    }

    private func check<T>(_ result: Result<T?, HLSAttributeList.Malformed>, tag: String) throws(HLSError) -> T? {
        switch result {
        case let .success(value): return value
        case let .failure(malformed): throw invalid(tag, malformed.reason)
        }
    }

    private func integer(_ text: Substring, tag: String) throws(HLSError) -> Int {
        let trimmed = String(text).trimmingSpaces
        guard let value = Int(trimmed), value >= 0 else { throw invalid(tag, "'\(trimmed.prefix(40))' is not a non-negative integer") }
        return value
    }

    private func sequenceNumber(_ text: Substring, tag: String) throws(HLSError) -> Int {
        let value = try integer(text, tag: tag)
        guard value <= Self.largestSequenceNumber else {
            throw invalid(tag, "\(value) is out of range (0…\(Self.largestSequenceNumber))")
        }
        return value
    }

    /// `length[@offset]`.
    private func byteRange(_ text: String, tag: String) throws(HLSError) -> (length: Int, offset: Int?) {
        let parts = text.trimmingSpaces.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let length = Int(parts[0]), length > 0, length <= Self.largestByteOffset else {
            throw invalid(tag, "'\(text.prefix(40))' is not LENGTH[@OFFSET]")
        }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = Int(parts[1]), offset >= 0, offset <= Self.largestByteOffset - length else {
            throw invalid(tag, "'\(text.prefix(40))' is not LENGTH[@OFFSET]")
        }
        return (length, offset)
    }

    private func invalid(_ tag: String, _ reason: String) -> HLSError {
        .invalidTag(url: name, line: lineNumber, tag: String(tag.dropFirst()), reason: reason)
    }

    /// The same resource, ignoring a fragment.
    private static func sameResource(_ a: URL, _ b: URL) -> Bool {
        func key(_ url: URL) -> String {
            let text = url.absoluteString
            return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
        }
        return key(a) == key(b)
    }
}
