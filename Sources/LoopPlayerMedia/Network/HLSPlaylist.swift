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
package enum HLSPlaylist: Sendable, Equatable {
    case master(HLSMasterPlaylist)
    case media(HLSMediaPlaylist)
}

/// Bounds on what a playlist may hold; beyond them parsing stops with a typed `HLSError`.
package struct HLSLimits: Sendable, Equatable {
    /// The largest playlist accepted, in bytes.
    package var maxBytes: Int
    /// The longest line accepted, in bytes.
    package var maxLineLength: Int
    /// The most variants plus segments (and renditions) accepted.
    package var maxEntries: Int
    /// The most variants plus renditions a master playlist may list (real ones list a few dozen).
    package var maxVariants: Int

    /// 4 MiB, 64 KiB lines, 50 000 entries (a day of 2 s segments is 43 200), 1 000 variants.
    package static let standard = HLSLimits(maxBytes: 4 << 20, maxLineLength: 64 << 10, maxEntries: 50_000, maxVariants: 1_000)

    package init(maxBytes: Int, maxLineLength: Int, maxEntries: Int, maxVariants: Int = 1_000) {
        self.maxBytes = maxBytes
        self.maxLineLength = maxLineLength
        self.maxEntries = maxEntries
        self.maxVariants = maxVariants
    }
}

/// A master playlist: the variants of one presentation and their alternative renditions.
package struct HLSMasterPlaylist: Sendable, Equatable {
    package var url: URL
    /// In playlist order.
    package var variants: [HLSVariantStream]
    /// `EXT-X-MEDIA` renditions (alternative audio, subtitles…), in playlist order.
    package var renditions: [HLSRendition]
    package var independentSegments: Bool

    /// The renditions of `group` (a variant's `audioGroup`, say).
    package func renditions(inGroup group: String, type: HLSRendition.MediaType) -> [HLSRendition] {
        renditions.filter { $0.groupID == group && $0.type == type }
    }
}

/// Pixel dimensions from a `RESOLUTION` attribute.
package struct HLSResolution: Sendable, Equatable, CustomStringConvertible {
    package var width: Int
    package var height: Int
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    package var description: String { "\(width)x\(height)" }
}

/// One `EXT-X-STREAM-INF` entry.
package struct HLSVariantStream: Sendable, Equatable {
    /// The variant's media playlist.
    package var url: URL
    /// Peak bits per second (`BANDWIDTH`); 0 when the playlist omits it.
    package var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`, bits per second.
    package var averageBandwidth: Int?
    package var resolution: HLSResolution?
    /// `CODECS`, split at commas: `["avc1.64001f", "mp4a.40.2"]`.
    package var codecs: [String]
    package var frameRate: Double?
    /// `AUDIO`: the group of `EXT-X-MEDIA` audio renditions to play with this variant.
    package var audioGroup: String?
    package var videoGroup: String?
    package var subtitlesGroup: String?
}

/// One `EXT-X-MEDIA` entry.
package struct HLSRendition: Sendable, Equatable {
    package enum MediaType: String, Sendable, Equatable {
        case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS"
    }

    package var type: MediaType
    package var groupID: String
    package var name: String
    package var language: String?
    /// Its media playlist; nil when the rendition is carried inside the variant's own segments.
    package var url: URL?
    package var isDefault: Bool
    package var autoselect: Bool
    /// `CHANNELS` (audio), e.g. "2" or "6".
    package var channels: String?
}

/// A media playlist: the segments of one variant or rendition.
package struct HLSMediaPlaylist: Sendable, Equatable {
    package enum PlaylistType: String, Sendable, Equatable {
        case vod = "VOD", event = "EVENT"
    }

    package var url: URL
    /// `EXT-X-TARGETDURATION` in seconds (the longest segment when the tag is missing).
    package var targetDuration: Double
    /// The sequence number of the first segment (`EXT-X-MEDIA-SEQUENCE`).
    package var mediaSequence: Int
    package var discontinuitySequence: Int
    package var playlistType: PlaylistType?
    /// `EXT-X-ENDLIST`: no segment will be added.
    package var hasEndList: Bool
    package var independentSegments: Bool
    package var segments: [HLSSegment]

    /// A live playlist grows (or slides) until it gets `EXT-X-ENDLIST`; it must be reloaded.
    package var isLive: Bool { !hasEndList && playlistType != .vod }

    /// The sum of the segments' durations, in seconds.
    package var duration: Double { segments.reduce(0) { $0 + $1.duration } }
}

/// A byte range of a resource (`EXT-X-BYTERANGE`, `BYTERANGE=`): `length` bytes from `offset`.
package struct HLSByteRange: Sendable, Equatable, CustomStringConvertible {
    package var offset: Int
    package var length: Int
    package init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }
    /// One past the last byte.
    package var end: Int { offset + length }
    package var description: String { "\(length)@\(offset)" }
}

/// The initialisation section of fMP4 segments (`EXT-X-MAP`).
package struct HLSInitSection: Sendable, Equatable {
    package var url: URL
    package var byteRange: HLSByteRange?
}

/// One media segment.
package struct HLSSegment: Sendable, Equatable {
    package var url: URL
    /// `EXTINF` duration in seconds.
    package var duration: Double
    package var title: String?
    /// Its media sequence number: `mediaSequence` + its index.
    package var sequenceNumber: Int
    /// Only part of `url` (`EXT-X-BYTERANGE`).
    package var byteRange: HLSByteRange?
    /// The fMP4 initialisation section in force for this segment.
    package var initSection: HLSInitSection?
    /// `EXT-X-DISCONTINUITY` before this segment: timestamps or encoding may change here.
    package var discontinuity: Bool
    /// The discontinuity sequence number this segment belongs to.
    package var discontinuitySequence: Int
}
