import Foundation

/// An HLS playlist (RFC 8216): a master playlist listing variants, or a media playlist listing
/// segments. URIs are resolved against the playlist's own URL.
///
/// ```swift
/// switch try HLSPlaylist.parse(text, url: URL(string: "https://cdn.example.com/live/master.m3u8")!) {
/// case let .master(master): print(master.variants.map(\.bandwidth))
/// case let .media(media): print(media.segments.count, media.isLive)
/// }
/// ```
/// Parsing is bounded (`HLSLimits`); nothing is fetched here, so nothing recurses: a loader asks
/// `parseMedia(_:url:listedBy:)` for a variant, which refuses a master playlist.
public enum HLSPlaylist: Sendable, Equatable {
    case master(HLSMasterPlaylist)
    case media(HLSMediaPlaylist)
}

/// Bounds on what a playlist may hold; beyond them parsing stops with a typed `HLSError`.
public struct HLSLimits: Sendable, Equatable {
    /// The largest playlist accepted, in bytes.
    public var maxBytes: Int
    /// The longest line accepted, in bytes.
    public var maxLineLength: Int
    /// The most variants plus segments (and renditions) accepted.
    public var maxEntries: Int
    /// The most variants plus renditions a master playlist may list (real ones list a few dozen).
    public var maxVariants: Int

    /// 4 MiB, 64 KiB lines, 50 000 entries (a day of 2 s segments is 43 200), 1 000 variants.
    public static let standard = HLSLimits(maxBytes: 4 << 20, maxLineLength: 64 << 10, maxEntries: 50_000, maxVariants: 1_000)

    public init(maxBytes: Int, maxLineLength: Int, maxEntries: Int, maxVariants: Int = 1_000) {
        self.maxBytes = maxBytes
        self.maxLineLength = maxLineLength
        self.maxEntries = maxEntries
        self.maxVariants = maxVariants
    }
}

/// A master playlist: the variants of one presentation and their alternative renditions.
public struct HLSMasterPlaylist: Sendable, Equatable {
    public var url: URL
    /// In playlist order.
    public var variants: [HLSVariantStream]
    /// `EXT-X-MEDIA` renditions (alternative audio, subtitles…), in playlist order.
    public var renditions: [HLSRendition]
    public var independentSegments: Bool

    /// The renditions of `group` (a variant's `audioGroup`, say).
    public func renditions(inGroup group: String, type: HLSRendition.MediaType) -> [HLSRendition] {
        renditions.filter { $0.groupID == group && $0.type == type }
    }
}

/// Pixel dimensions from a `RESOLUTION` attribute.
public struct HLSResolution: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)x\(height)" }
}

/// One `EXT-X-STREAM-INF` entry.
public struct HLSVariantStream: Sendable, Equatable {
    /// The variant's media playlist.
    public var url: URL
    /// Peak bits per second (`BANDWIDTH`); 0 when the playlist omits it.
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`, bits per second.
    public var averageBandwidth: Int?
    public var resolution: HLSResolution?
    /// `CODECS`, split at commas: `["avc1.64001f", "mp4a.40.2"]`.
    public var codecs: [String]
    public var frameRate: Double?
    /// `AUDIO`: the group of `EXT-X-MEDIA` audio renditions to play with this variant.
    public var audioGroup: String?
    public var videoGroup: String?
    public var subtitlesGroup: String?
}

/// One `EXT-X-MEDIA` entry.
public struct HLSRendition: Sendable, Equatable {
    public enum MediaType: String, Sendable, Equatable {
        case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS"
    }

    public var type: MediaType
    public var groupID: String
    public var name: String
    public var language: String?
    /// Its media playlist; nil when the rendition is carried inside the variant's own segments.
    public var url: URL?
    public var isDefault: Bool
    public var autoselect: Bool
    /// `CHANNELS` (audio), e.g. "2" or "6".
    public var channels: String?
}

/// A media playlist: the segments of one variant or rendition.
public struct HLSMediaPlaylist: Sendable, Equatable {
    public enum PlaylistType: String, Sendable, Equatable {
        case vod = "VOD", event = "EVENT"
    }

    public var url: URL
    /// `EXT-X-TARGETDURATION` in seconds (the longest segment when the tag is missing).
    public var targetDuration: Double
    /// The sequence number of the first segment (`EXT-X-MEDIA-SEQUENCE`).
    public var mediaSequence: Int
    public var discontinuitySequence: Int
    public var playlistType: PlaylistType?
    /// `EXT-X-ENDLIST`: no segment will be added.
    public var hasEndList: Bool
    public var independentSegments: Bool
    public var segments: [HLSSegment]

    /// A live playlist grows (or slides) until it gets `EXT-X-ENDLIST`; it must be reloaded.
    public var isLive: Bool { !hasEndList && playlistType != .vod }

    /// The sum of the segments' durations, in seconds.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }
}

/// A byte range of a resource (`EXT-X-BYTERANGE`, `BYTERANGE=`): `length` bytes from `offset`.
public struct HLSByteRange: Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var length: Int
    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }
    /// One past the last byte.
    public var end: Int { offset + length }
    public var description: String { "\(length)@\(offset)" }
}

/// The initialisation section of fMP4 segments (`EXT-X-MAP`).
public struct HLSInitSection: Sendable, Equatable {
    public var url: URL
    public var byteRange: HLSByteRange?
}

/// One media segment.
public struct HLSSegment: Sendable, Equatable {
    public var url: URL
    /// `EXTINF` duration in seconds.
    public var duration: Double
    public var title: String?
    /// Its media sequence number: `mediaSequence` + its index.
    public var sequenceNumber: Int
    /// Only part of `url` (`EXT-X-BYTERANGE`).
    public var byteRange: HLSByteRange?
    /// The fMP4 initialisation section in force for this segment.
    public var initSection: HLSInitSection?
    /// `EXT-X-DISCONTINUITY` before this segment: timestamps or encoding may change here.
    public var discontinuity: Bool
    /// The discontinuity sequence number this segment belongs to.
    public var discontinuitySequence: Int
}
