import Foundation
import Filters
import Overlay

/// One entry of a `VideoSettings { … }` block. Settings apply in order: given twice, the last wins.
public protocol Setting: Sendable {
    /// Writes this setting into `settings`.
    func apply(to settings: inout VideoSettings)
}

/// The source: an http(s) URL (HLS included), a `file://` URL, a path, or a bare name looked up
/// in the current directory, `LOOPPLAYER_MEDIA_PATH` and the bundled media. The only required setting.
public struct SourceName: Setting, Equatable {
    package var value: String
    public init(_ value: String) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.sourceName = value }
}

/// Extension for a bare name without one; an extension inside the name wins.
public struct Ext: Setting, Equatable {
    public static let defaultValue = "mp4"
    package var value: String
    public init(_ value: String) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.ext = value }

    public static func validate(_ value: String) throws(PlayerError) {
        let bare = value.hasPrefix(".") ? String(value.dropFirst()) : value
        guard !bare.isEmpty, !bare.contains("/"), !bare.contains(where: \.isWhitespace) else {
            throw .invalidSetting(name: "Ext", value: value, reason: "expected a file extension such as mp4")
        }
    }
}

/// How the picture fills the player area. Default `.resizeAspect`.
public struct Gravity: Setting, Equatable {
    public static let defaultValue = VideoGravity.resizeAspect
    package var value: VideoGravity
    public init(_ value: VideoGravity = Gravity.defaultValue) { self.value = value }
    /// From a config string (`aspect`, `resizeAspectFill`…); unknown names throw `invalidSetting`.
    public init(parsing text: String) throws(PlayerError) { value = try VideoGravity(parsing: text) }
    public func apply(to settings: inout VideoSettings) { settings.gravity = value }
}

/// Publish the playback position every `interval` seconds (bare: every second; absent: never).
public struct TimePublishing: Setting, Equatable {
    public static let defaultInterval = 1.0
    public static let validRange = 0.01...3600.0
    package var interval: Double
    public init(_ interval: Double = TimePublishing.defaultInterval) { self.interval = interval }
    public func apply(to settings: inout VideoSettings) { settings.timePublishing = interval }

    public static func validate(_ interval: Double) throws(PlayerError) {
        try checkRange(interval, validRange, setting: "TimePublishing", unit: "seconds")
    }
}

/// Restart seamlessly at the end. Absent: playback stops at the end and holds the last frame.
public struct Loop: Setting, Equatable {
    public init() {}
    public func apply(to settings: inout VideoSettings) { settings.loop = true }
}

/// Plays sources one after the other without a gap (the next one is opened and decoded while the
/// current one plays): `Playlist { SourceName("a.mp4"); SourceName("b.mp4") }` or
/// `Playlist(["a.mp4", "b.mp4"])`. Each entry is resolved like `SourceName` (with `Ext`). `Loop()`
/// still loops the current item; `LoopPlaylist()` starts the list again after its last item.
public struct Playlist: Setting, Equatable {
    package var sources: [String]
    public init(_ sources: [String]) { self.sources = sources }
    public init(@VideoSettingsBuilder _ content: () -> [any Setting]) {
        sources = content().compactMap { ($0 as? SourceName)?.value }
    }
    public func apply(to settings: inout VideoSettings) {
        settings.playlist = sources
        settings.sourceName = sources.first
    }
}

/// After a playlist's last item, the first plays again (mpv's `--loop-playlist`); with `passes`,
/// the list plays that many times in all and then ends (`--loop-playlist=N`).
public struct LoopPlaylist: Setting, Equatable {
    package var passes: Int?
    public init(passes: Int? = nil) { self.passes = passes.map { max(1, $0) } }
    public func apply(to settings: inout VideoSettings) {
        settings.loopPlaylist = true
        settings.loopPlaylistPasses = passes
    }
}

/// The largest picture the player decodes (default `VideoSizeLimit.standard`: 16384 a side, 36
/// Mpixel); a larger one is `unsupportedVideoSize` instead of seconds a frame and gigabytes.
public struct PictureSizeLimit: Setting, Equatable {
    package var limit: VideoSizeLimit
    public init(maxSide: Int, maxPixels: Int) { limit = VideoSizeLimit(maxSide: maxSide, maxPixels: maxPixels) }
    public func apply(to settings: inout VideoSettings) { settings.pictureSizeLimit = limit }
}

/// Start muted: the default of `ExtVideoPlayer`, said explicitly.
public struct Mute: Setting, Equatable {
    public init() {}
    public func apply(to settings: inout VideoSettings) { settings.mute = true }
}

/// Start with the sound on (the player starts muted without it).
public struct Unmute: Setting, Equatable {
    public init() {}
    public func apply(to settings: inout VideoSettings) { settings.mute = false }
}

/// Start with the sound on at this linear gain, 0…1 (clamped; NaN is 1).
public struct Volume: Setting, Equatable {
    package var level: Float
    public init(_ level: Float) { self.level = level.isNaN ? 1 : min(max(level, 0), 1) }
    public func apply(to settings: inout VideoSettings) {
        settings.volume = level
        settings.mute = false
    }
}

/// Load and show the first frame, then wait for `play`.
public struct NotAutoPlay: Setting, Equatable {
    public init() {}
    public func apply(to settings: inout VideoSettings) { settings.notAutoPlay = true }
}

/// Subtitles to show: an external file (a path or URL with a subtitle extension: loaded and shown)
/// or a language (`"en"`, `"fr"`: the first track in it, embedded or external). A language no track
/// has is a `subtitleTrackNotFound` event once the tracks are known.
public struct Subtitles: Setting, Equatable {
    package var value: String
    public init(_ value: String) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.subtitles = value }
}

/// Which events are delivered: `Events()` all, `Events([.playing, .errorAny])` some; absent: none.
public struct Events: Setting, Equatable {
    package var filters: [PlayerEventFilter]?
    public init(_ filters: [PlayerEventFilter]? = nil) { self.filters = filters }
    public func apply(to settings: inout VideoSettings) {
        settings.events = filters.map { .only(Set($0)) } ?? .all
    }
}

/// Colour of the error text drawn in the player area. Default red.
public struct EColor: Setting, Equatable {
    public static let defaultValue = Color.red
    package var value: Color
    public init(_ value: Color) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.errorColor = value }
}

/// Size in points of the error text drawn in the player area. Default 17.
public struct EFontSize: Setting, Equatable {
    public static let defaultValue: Float = 17
    public static let validRange: ClosedRange<Float> = 4...200
    package var value: Float
    public init(_ value: Float) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.errorFontSize = value }

    public static func validate(_ value: Float) throws(PlayerError) {
        try checkRange(value, validRange, setting: "EFontSize", unit: "points")
    }
}

/// Groups error-text settings; nesting flattens.
public struct ErrorGroup: Setting {
    package var settings: [any Setting]
    public init(@VideoSettingsBuilder _ content: () -> [any Setting]) { settings = content() }
    public func apply(to target: inout VideoSettings) { settings.forEach { $0.apply(to: &target) } }
}

/// Vector overlay layers that exist from the first frame, bottom to top:
/// `VectorLayers { Badge(); SVGLayer(file: "logo.svg") }`. Given twice, the last wins.
public struct VectorLayers: Setting {
    package var builders: [any ShapeLayerBuilderProtocol]
    public init(@VectorLayerListBuilder _ content: () -> [any ShapeLayerBuilderProtocol]) { builders = content() }
    public func apply(to settings: inout VideoSettings) { settings.vectorLayers = builders }
}

/// Builds a list of layer builders with the same control flow as `VideoSettingsBuilder`.
@resultBuilder
public enum VectorLayerListBuilder {
    public static func buildExpression(_ builder: any ShapeLayerBuilderProtocol) -> [any ShapeLayerBuilderProtocol] { [builder] }
    public static func buildExpression(_ builders: [any ShapeLayerBuilderProtocol]) -> [any ShapeLayerBuilderProtocol] { builders }
    public static func buildBlock(_ parts: [any ShapeLayerBuilderProtocol]...) -> [any ShapeLayerBuilderProtocol] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any ShapeLayerBuilderProtocol]?) -> [any ShapeLayerBuilderProtocol] { part ?? [] }
    public static func buildEither(first part: [any ShapeLayerBuilderProtocol]) -> [any ShapeLayerBuilderProtocol] { part }
    public static func buildEither(second part: [any ShapeLayerBuilderProtocol]) -> [any ShapeLayerBuilderProtocol] { part }
    public static func buildArray(_ parts: [[any ShapeLayerBuilderProtocol]]) -> [any ShapeLayerBuilderProtocol] { parts.flatMap { $0 } }
}

/// Accepted for source compatibility with the model: vector overlays need no switch here.
public struct EnableVector: Setting, Equatable {
    public init() {}
    public func apply(to settings: inout VideoSettings) { settings.enableVector = true }
}

/// Enables picture-in-picture: the `startPiP` command opens a mini player, a small borderless window
/// that stays on top of the others and shows the player's scene (the video and its overlays) while
/// the main window stays; `stopPiP`, or closing the mini window, removes it. It can be dragged
/// anywhere. Without this setting (or without a window) `startPiP` gives a `notSupportedPiP` error.
///
/// ```swift
/// PictureInPicture()                                   // 320 px wide, bottom-right of the screen
/// PictureInPicture(width: 400, height: 225, x: 40, y: 40)
/// ```
public struct PictureInPicture: Setting, Equatable {
    public static let defaultWidth = 320
    /// The range of the mini window's width and height, in pixels.
    public static let validSide = MiniWindowPlacement.validSide
    /// The mini window's size; a nil height follows the player area's shape.
    package var width: Int
    package var height: Int?
    /// Its top-left corner on the screen; nil: 16 px in from the bottom-right corner of the usable
    /// area of the main window's display.
    package var x: Int?
    package var y: Int?
    /// The main window hides while the mini window shows (a mini player); closing the mini window
    /// brings it back.
    package var hidesMainWindow: Bool

    public init(width: Int = defaultWidth, height: Int? = nil, x: Int? = nil, y: Int? = nil,
                hidesMainWindow: Bool = false) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.hidesMainWindow = hidesMainWindow
    }

    public func apply(to settings: inout VideoSettings) { settings.pictureInPicture = self }

    package var placement: MiniWindowPlacement {
        MiniWindowPlacement(width: width, height: height, x: x, y: y, hidesMainWindow: hidesMainWindow)
    }

    public func validate() throws(PlayerError) {
        let sides = [("width", width)] + (height.map { [("height", $0)] } ?? [])
        for (name, side) in sides where !Self.validSide.contains(side) {
            throw .invalidSetting(name: "PictureInPicture", value: "\(name) \(side)",
                                  reason: "the mini window's sides are \(Self.validSide.lowerBound)…\(Self.validSide.upperBound) px")
        }
    }
}

/// Players of one group pause the others when they start playing; of players started at once, the
/// last to start plays.
public struct ExclusivePlayback: Setting, Equatable {
    package var group: String
    public init(group: String) { self.group = group }
    public func apply(to settings: inout VideoSettings) { settings.exclusiveGroup = group }
}

/// Brightness −1 … 1 (clamped), applied after the filters. Default 0.
public struct Brightness: Setting, Equatable {
    public static let defaultValue: Float = 0
    public static let validRange = ColorAdjustment.brightnessRange
    package var value: Float
    public init(_ value: Float) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.brightness = value }
}

/// Contrast 0 … 4 (clamped), applied after the filters. Default 1.
public struct Contrast: Setting, Equatable {
    public static let defaultValue: Float = 1
    public static let validRange = ColorAdjustment.contrastRange
    package var value: Float
    public init(_ value: Float) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.contrast = value }
}

/// The filter stack, in order: `Filters { VideoFilter.sepia(); FFmpegFilter("hqdn3d=4") }`.
public struct Filters: Setting, Equatable {
    package var filters: [VideoFilter]
    public init(@FilterListBuilder _ content: () -> [VideoFilter]) { filters = content() }
    public func apply(to settings: inout VideoSettings) { settings.filters = filters }
}

/// Builds a filter list with the same control flow as `VideoSettingsBuilder`.
@resultBuilder
public enum FilterListBuilder {
    public static func buildExpression(_ filter: VideoFilter) -> [VideoFilter] { [filter] }
    public static func buildExpression(_ filter: FFmpegFilter) -> [VideoFilter] { [filter.filter] }
    public static func buildExpression(_ filter: VideoFilter?) -> [VideoFilter] { filter.map { [$0] } ?? [] }
    public static func buildExpression(_ filters: [VideoFilter]) -> [VideoFilter] { filters }
    public static func buildBlock(_ parts: [VideoFilter]...) -> [VideoFilter] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [VideoFilter]?) -> [VideoFilter] { part ?? [] }
    public static func buildEither(first part: [VideoFilter]) -> [VideoFilter] { part }
    public static func buildEither(second part: [VideoFilter]) -> [VideoFilter] { part }
    public static func buildArray(_ parts: [[VideoFilter]]) -> [VideoFilter] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [VideoFilter]) -> [VideoFilter] { part }
}

/// Which HLS variant plays: `.automatic` (by measured throughput, buffer and output size; switches
/// while playing), `.maxBitrate`, `.minBitrate` or `.bitrate(n)` (the highest not above n bits/s).
/// Default `.automatic`; changing it applies to a running HLS source from its next segment.
public struct HLSVariant: Setting, Equatable {
    public static let defaultValue = VariantPreference.automatic
    package var value: VariantPreference
    public init(_ value: VariantPreference = HLSVariant.defaultValue) { self.value = value }
    public func apply(to settings: inout VideoSettings) { settings.hlsVariant = value }

    public static func validate(_ value: VariantPreference) throws(PlayerError) {
        if case let .bitrate(bits) = value, bits <= 0 {
            throw .invalidSetting(name: "HLSVariant", value: "\(bits)", reason: "expected a positive number of bits per second")
        }
    }
}

extension VariantPreference {
    /// From mpv's `--hls-bitrate` words: `max`, `min`, a number of bits per second (`1500000`,
    /// `1500k`, `1.5M`), or `auto`. Anything else throws `invalidSetting`.
    public init(parsing text: String) throws(PlayerError) {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch word {
        case "max", "maximum": self = .maxBitrate
        case "min", "minimum": self = .minBitrate
        case "auto", "automatic": self = .automatic
        default:
            let multiplier: Double = word.hasSuffix("k") ? 1e3 : word.hasSuffix("m") ? 1e6 : 1
            let digits = multiplier == 1 ? word : String(word.dropLast())
            guard let value = Double(digits), value.isFinite, value * multiplier >= 1, value * multiplier < 1e12 else {
                throw .invalidSetting(name: "HLSVariant", value: text, reason: "expected max, min, auto or bits per second")
            }
            self = .bitrate(Int((value * multiplier).rounded()))
        }
    }
}

/// Seconds a network source may keep failing (server gone, stalled, 5xx) before it fails with
/// `networkError`; playback shows `buffering` meanwhile. Default 30.
public struct NetworkTimeout: Setting, Equatable {
    public static let defaultValue = NetworkOptions.defaultTimeout
    public static let validRange = NetworkOptions.timeoutRange
    package var seconds: Double
    public init(_ seconds: Double = NetworkTimeout.defaultValue) { self.seconds = seconds }
    public func apply(to settings: inout VideoSettings) { settings.networkTimeout = seconds }

    public static func validate(_ seconds: Double) throws(PlayerError) {
        try checkRange(seconds, validRange, setting: "NetworkTimeout", unit: "seconds")
    }
}

/// Lets a looping local file keep the decoded pictures of one whole pass, up to `megabytes`, and
/// replay them on later passes instead of decoding again: a short loop then costs its decoding
/// once, however long it runs (its picture path, filters and sound go on as before). A loop that
/// does not fit decodes every pass. Default 0 (off); memory is the price, so it is chosen.
public struct FrameCache: Setting, Equatable {
    public static let defaultValue = 0
    public static let validRange = 0...65_536
    package var megabytes: Int
    public init(megabytes: Int) { self.megabytes = megabytes }
    public func apply(to settings: inout VideoSettings) { settings.frameCacheMegabytes = megabytes }

    public static func validate(_ megabytes: Int) throws(PlayerError) {
        try checkRange(megabytes, validRange, setting: "FrameCache", unit: "MiB")
    }
}

/// The sources the player may open (the seed's navigation policy): `AllowedSources(schemes:
/// ["https"], hosts: ["*.example.com"])`. A refused source fails with `sourceNotAllowed`.
extension AllowedSources: Setting {
    public func apply(to settings: inout VideoSettings) { settings.allowedSources = self }
}

/// `invalidSetting` unless `value` is in `range` ("expected 0.5…86400.0 seconds").
func checkRange<Value: Comparable>(_ value: Value, _ range: ClosedRange<Value>, setting: String,
                                   unit: String) throws(PlayerError) {
    guard range.contains(value) else {
        throw .invalidSetting(name: setting, value: "\(value)", reason: "expected \(range.lowerBound)…\(range.upperBound) \(unit)")
    }
}
