import Foundation
import Filters
import Overlay

/// One entry of a `VideoSettings { … }` block: one of the library's settings (`SourceName`, `Loop`, …).
/// Settings apply in order: given twice, the last wins. A type of one's own is refused by
/// `VideoSettings.validate()` (a setting must be one the player knows).
public protocol Setting: Sendable {}

/// How each of the library's settings writes itself into `VideoSettings`.
package protocol AppliesToSettings: Setting {
    func apply(to settings: inout VideoSettings)
}

/// The source: an http(s) URL (HLS included), a `file://` URL, a path, or a bare name looked up
/// in the current directory, `LOOPPLAYER_MEDIA_PATH` and the bundled media. The only required setting.
public struct SourceName: Setting, AppliesToSettings, Equatable {
    package var value: String
    /// Names the source to play (see the type's description for how it is resolved).
    public init(_ value: String) { self.value = value }
    /// Makes this the source of `settings`, replacing any given before.
    package func apply(to settings: inout VideoSettings) { settings.sourceName = value }
}

/// Extension for a bare name without one; an extension inside the name wins.
public struct Ext: Setting, AppliesToSettings, Equatable {
    /// The extension tried when no other is given: `mp4`.
    public static let defaultValue = "mp4"
    package var value: String
    /// Uses `value` (with or without a leading dot) as the extension for bare names.
    public init(_ value: String) { self.value = value }
    /// Sets the extension `settings` looks up bare names with.
    package func apply(to settings: inout VideoSettings) { settings.ext = value }

    /// Throws `invalidSetting` unless `value` is a plain extension: not empty, without `/` or spaces.
    /// A leading dot is accepted.
    package static func validate(_ value: String) throws(PlayerError) {
        let bare = value.hasPrefix(".") ? String(value.dropFirst()) : value
        guard !bare.isEmpty, !bare.contains("/"), !bare.contains(where: \.isWhitespace) else {
            throw .invalidSetting(name: "Ext", value: value, reason: "expected a file extension such as mp4")
        }
    }
}

/// How the picture fills the player area. Default `.resizeAspect`.
public struct Gravity: Setting, AppliesToSettings, Equatable {
    /// `.resizeAspect`: the whole picture shows, letterboxed.
    public static let defaultValue = VideoGravity.resizeAspect
    package var value: VideoGravity
    /// Fills the player area as `value` says.
    public init(_ value: VideoGravity = Gravity.defaultValue) { self.value = value }
    /// From a config string (`aspect`, `resizeAspectFill`…); unknown names throw `invalidSetting`.
    package init(parsing text: String) throws(PlayerError) { value = try VideoGravity(parsing: text) }
    /// Sets how the picture fills the player area.
    package func apply(to settings: inout VideoSettings) { settings.gravity = value }
}

/// Turns the picture clockwise on screen by 0, 90, 180 or 270 degrees, on top of the stream's own
/// rotation (mpv's `--video-rotate`): a portrait screen shows a landscape video upright. The
/// renderer turns it; the overlays stay upright for the viewer. `VideoRotation(90)`.
public struct VideoRotation: Setting, AppliesToSettings, Equatable {
    /// The turns accepted, in degrees.
    package static let validValues = PropertyLimits.videoRotations
    package var degrees: Int
    /// Turns the picture `degrees` clockwise; `VideoSettings.validate()` checks it is one of `validValues`.
    public init(_ degrees: Int) { self.degrees = degrees }
    /// Sets the turn.
    package func apply(to settings: inout VideoSettings) { settings.videoRotation = degrees }

    /// Throws `invalidSetting` unless `degrees` is 0, 90, 180 or 270.
    package static func validate(_ degrees: Int) throws(PlayerError) {
        guard validValues.contains(degrees) else {
            throw .invalidSetting(name: "VideoRotation", value: String(degrees),
                                  reason: "expected \(validValues.map(String.init).joined(separator: ", ")) degrees clockwise")
        }
    }
}

/// Publish the playback position every `interval` seconds (bare: every second; absent: never).
public struct TimePublishing: Setting, AppliesToSettings, Equatable {
    /// The interval of a bare `TimePublishing()`: one second.
    public static let defaultInterval = 1.0
    /// The intervals accepted, in seconds: 0.01 to an hour.
    public static let validRange = 0.01...3600.0
    package var interval: Double
    /// Publishes the position every `interval` seconds;
    /// `VideoSettings.validate()` checks it against `validRange`.
    public init(_ interval: Double = TimePublishing.defaultInterval) { self.interval = interval }
    /// Turns on time publication at this interval.
    package func apply(to settings: inout VideoSettings) { settings.timePublishing = interval }

    /// Throws `invalidSetting` unless `interval` is within `validRange`.
    package static func validate(_ interval: Double) throws(PlayerError) {
        try checkRange(interval, validRange, setting: "TimePublishing", unit: "seconds")
    }
}

/// Restart seamlessly at the end. Absent: playback stops at the end and holds the last frame.
public struct Loop: Setting, AppliesToSettings, Equatable {
    /// Loops the source forever.
    public init() {}
    /// Makes the source restart at its end.
    package func apply(to settings: inout VideoSettings) { settings.loop = true }
}

/// Plays the loop on a timeline shared by every player given the same epoch — the screens of a
/// video wall, on one machine or many: pass *k* starts at `epoch + k × length` on the system clock,
/// so all of them show the same frame at the same moment. Keep the machines' clocks in step with
/// chrony or PTP (docs/sync.md). A player that starts late, or again, joins where the timeline is
/// (a seek) within a second; it does not pause, seek or change speed on its own (those commands are
/// refused with an error event). Needs `Loop()` and a local file or a VOD stream; or a `Playlist`
/// of local files with `LoopPlaylist()` (not `Loop()`): a schedule, item after item at the same
/// moments on every screen. The sound is resampled (at most 0.125 %) to stay on the timeline.
///
/// ```swift
/// VideoSettings { SourceName("wall.mp4"); Loop(); SyncTimeline(epoch: 1_798_761_600) }
/// ```
public struct SyncTimeline: Setting, AppliesToSettings, Equatable {
    /// Epochs accepted: 1970 to 2261, in Unix seconds.
    public static let validRange = SharedTimeline.epochRange
    package var epoch: Double
    /// A timeline starting at `epoch`, Unix seconds (`CLOCK_REALTIME`; fractions allowed).
    public init(epoch: Double) { self.epoch = epoch }
    /// A timeline starting at `date`.
    public init(epoch date: Date) { epoch = date.timeIntervalSince1970 }
    /// Sets the shared timeline's epoch.
    package func apply(to settings: inout VideoSettings) { settings.syncEpoch = epoch }

    /// Throws `invalidSetting` for an epoch out of range or not finite; a single source needs
    /// `Loop()`; a playlist (its items on a schedule, the list again and again) needs
    /// `LoopPlaylist()` and not `Loop()`, which would hold one item while the timeline moves on.
    package static func validate(_ epoch: Double, looping: Bool, playlist: Bool, loopingPlaylist: Bool = false) throws(PlayerError) {
        try checkRange(epoch, validRange, setting: "SyncTimeline", unit: "Unix seconds")
        if playlist {
            guard loopingPlaylist, !looping else {
                throw .invalidSetting(name: "SyncTimeline", value: String(epoch),
                                      reason: "a playlist on a shared timeline repeats the list: LoopPlaylist() without Loop()")
            }
        } else if !looping {
            throw .invalidSetting(name: "SyncTimeline", value: String(epoch), reason: "a shared timeline is a loop's: add Loop()")
        }
    }
}

/// Plays sources one after the other without a gap (the next one is opened and decoded while the
/// current one plays): `Playlist { SourceName("a.mp4"); SourceName("b.mp4") }` or
/// `Playlist(["a.mp4", "b.mp4"])`. Each entry is resolved like `SourceName` (with `Ext`). `Loop()`
/// still loops the current item; `LoopPlaylist()` starts the list again after its last item.
public struct Playlist: Setting, AppliesToSettings, Equatable {
    package var sources: [String]
    /// The first entry of the block that is not a `SourceName` (`validate()` refuses it).
    private var misplaced: String?
    /// A playlist of these sources, each resolved like a `SourceName`.
    public init(_ sources: [String]) { self.sources = sources }
    /// A playlist of the `SourceName` entries in `content`; anything else there is refused by
    /// `VideoSettings.validate()` (`Loop()` belongs beside the playlist, not in it).
    public init(@VideoSettingsBuilder _ content: () -> [any Setting]) {
        let entries = content()
        sources = entries.compactMap { ($0 as? SourceName)?.value }
        misplaced = entries.first { !($0 is SourceName) }.map { String(describing: type(of: $0)) }
    }
    /// Sets the playlist and makes its first item the source.
    package func apply(to settings: inout VideoSettings) {
        settings.playlist = sources
        settings.sourceName = sources.first
        if let misplaced {
            settings.refusal = .invalidSetting(name: "Playlist", value: misplaced,
                                               reason: "a Playlist { … } holds SourceName entries only")
        }
    }
}

/// After a playlist's last item, the first plays again (mpv's `--loop-playlist`); with `passes`,
/// the list plays that many times in all and then ends (`--loop-playlist=N`).
public struct LoopPlaylist: Setting, AppliesToSettings, Equatable {
    package var passes: Int?
    /// Loops the playlist forever, or `passes` times in all (at least 1) when given.
    public init(passes: Int? = nil) { self.passes = passes.map { max(1, $0) } }
    /// Makes the playlist start again after its last item.
    package func apply(to settings: inout VideoSettings) {
        settings.loopPlaylist = true
        settings.loopPlaylistPasses = passes
    }
}

/// The largest picture the player decodes (default `VideoSizeLimit.standard`: 16384 a side, 36
/// Mpixel); a larger one is `unsupportedVideoSize` instead of seconds a frame and gigabytes.
public struct PictureSizeLimit: Setting, AppliesToSettings, Equatable {
    package var limit: VideoSizeLimit
    /// Refuses pictures with a side above `maxSide` pixels or an area above `maxPixels`.
    public init(maxSide: Int, maxPixels: Int) { limit = VideoSizeLimit(maxSide: maxSide, maxPixels: maxPixels) }
    /// Sets the largest picture the player will decode.
    package func apply(to settings: inout VideoSettings) { settings.pictureSizeLimit = limit }
}

/// Start muted: the default of `ExtVideoPlayer`, said explicitly.
public struct Mute: Setting, AppliesToSettings, Equatable {
    /// Starts the player muted.
    public init() {}
    /// Makes the player start muted.
    package func apply(to settings: inout VideoSettings) { settings.mute = true }
}

/// Start with the sound on (the player starts muted without it).
public struct Unmute: Setting, AppliesToSettings, Equatable {
    /// Starts the player with the sound on.
    public init() {}
    /// Makes the player start with the sound on.
    package func apply(to settings: inout VideoSettings) { settings.mute = false }
}

/// Start with the sound on at this linear gain, 0…1 (clamped; NaN is 1).
public struct Volume: Setting, AppliesToSettings, Equatable {
    package var level: Float
    /// Starts with the sound on at `level`, clamped to 0…1 (NaN counts as 1).
    public init(_ level: Float) { self.level = AudioOptions.gain(level) }
    /// Sets the starting volume and turns the sound on.
    package func apply(to settings: inout VideoSettings) {
        settings.volume = level
        settings.mute = false
    }
}

/// Load and show the first frame, then wait for `play`.
public struct NotAutoPlay: Setting, AppliesToSettings, Equatable {
    /// Loads without starting playback.
    public init() {}
    /// Makes the player wait on its first frame for `play`.
    package func apply(to settings: inout VideoSettings) { settings.notAutoPlay = true }
}

/// Subtitles to show: an external file (a path or URL with a subtitle extension: loaded and shown)
/// or a language (`"en"`, `"fr"`: the first track in it, embedded or external). A language no track
/// has is a `subtitleTrackNotFound` event once the tracks are known.
public struct Subtitles: Setting, AppliesToSettings, Equatable {
    package var value: String
    /// Shows subtitles from an external file (path or URL) or the first track in a language (`"en"`).
    public init(_ value: String) { self.value = value }
    /// Sets which subtitles are shown.
    package func apply(to settings: inout VideoSettings) { settings.subtitles = value }
}

/// Plays what a schedule file says when (docs/schedule.md): each entry's playlist in its window, the
/// default between, with seamless changes. The file is read when the settings are made; one that
/// cannot be read or does not check refuses the settings (`invalidSetting`, naming its line and key).
/// A source or a playlist set while it plays (a `loadfile`) plays until the next change;
/// `PlaybackCommand.scheduleOverride` takes over for a while. Settings made again reread it.
public struct PlaySchedule: Setting, AppliesToSettings {
    package let path: String
    public init(_ path: String) { self.path = path }
    package func apply(to settings: inout VideoSettings) {
        do {
            settings.schedule = try ScheduleFile.read(path: path)
        } catch {
            settings.refusal = error.playerError
        }
    }
}

/// Which events are delivered: `Events()` all, `Events([.playing, .errorAny])` some; absent: none.
public struct Events: Setting, AppliesToSettings, Equatable {
    package var filters: [PlayerEventFilter]?
    /// Delivers the events matched by `filters`, or every event when nil.
    public init(_ filters: [PlayerEventFilter]? = nil) { self.filters = filters }
    /// Sets which events the player delivers.
    package func apply(to settings: inout VideoSettings) {
        settings.events = filters.map { .only(Set($0)) } ?? .all
    }
}

/// Colour of the error text drawn in the player area. Default red.
public struct EColor: Setting, AppliesToSettings, Equatable {
    /// The default: `Color.red`.
    public static let defaultValue = Color.red
    package var value: Color
    /// Draws the error text in `value`.
    public init(_ value: Color) { self.value = value }
    /// Sets the colour of the error text.
    package func apply(to settings: inout VideoSettings) { settings.errorColor = value }
}

/// Size in points of the error text drawn in the player area. Default 17.
public struct EFontSize: Setting, AppliesToSettings, Equatable {
    /// The default: 17 points.
    public static let defaultValue: Float = 17
    /// The sizes accepted, in points: 4 to 200.
    public static let validRange: ClosedRange<Float> = 4...200
    package var value: Float
    /// Draws the error text at `value` points;
    /// `VideoSettings.validate()` checks it against `validRange`.
    public init(_ value: Float) { self.value = value }
    /// Sets the size of the error text.
    package func apply(to settings: inout VideoSettings) { settings.errorFontSize = value }

    /// Throws `invalidSetting` unless `value` is within `validRange`.
    package static func validate(_ value: Float) throws(PlayerError) {
        try checkRange(value, validRange, setting: "EFontSize", unit: "points")
    }
}

/// Groups error-text settings; nesting flattens.
public struct ErrorGroup: Setting, AppliesToSettings {
    package var settings: [any Setting]
    /// Applies the settings in `content` in order, as if written in place of the group.
    public init(@VideoSettingsBuilder _ content: () -> [any Setting]) { settings = content() }
    /// Applies every grouped setting in order.
    package func apply(to target: inout VideoSettings) { target.apply(settings) }
}

/// Vector overlay layers that exist from the first frame, bottom to top:
/// `VectorLayers { Badge(); SVGLayer(file: "logo.svg") }`. Given twice, the last wins.
public struct VectorLayers: Setting, AppliesToSettings {
    package var builders: [any ShapeLayerBuilderProtocol]
    /// The layers built in `content`, bottom to top.
    public init(@VectorLayerListBuilder _ content: () -> [any ShapeLayerBuilderProtocol]) { builders = content() }
    /// Sets the overlay layers shown from the first frame, replacing any given before.
    package func apply(to settings: inout VideoSettings) { settings.vectorLayers = builders }
}

/// Builds a list of layer builders with the same control flow as `VideoSettingsBuilder`.
@resultBuilder
public enum VectorLayerListBuilder {
    /// Lets a single layer builder stand as a statement.
    public static func buildExpression(_ builder: any ShapeLayerBuilderProtocol) -> [any ShapeLayerBuilderProtocol] { [builder] }
    /// Lets a list of layer builders stand as a statement, as if written one by one.
    public static func buildExpression(_ builders: [any ShapeLayerBuilderProtocol]) -> [any ShapeLayerBuilderProtocol] { builders }
    /// Joins the statements of a block, in order.
    public static func buildBlock(_ parts: [any ShapeLayerBuilderProtocol]...) -> [any ShapeLayerBuilderProtocol] { parts.flatMap { $0 } }
    /// An `if` without `else`: its layers when taken, none otherwise.
    public static func buildOptional(_ part: [any ShapeLayerBuilderProtocol]?) -> [any ShapeLayerBuilderProtocol] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [any ShapeLayerBuilderProtocol]) -> [any ShapeLayerBuilderProtocol] { part }
    /// The other branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [any ShapeLayerBuilderProtocol]) -> [any ShapeLayerBuilderProtocol] { part }
    /// Joins the layers of every pass of a `for` loop, in order.
    public static func buildArray(_ parts: [[any ShapeLayerBuilderProtocol]]) -> [any ShapeLayerBuilderProtocol] { parts.flatMap { $0 } }
}

/// Accepted for source compatibility with the model: vector overlays need no switch here.
public struct EnableVector: Setting, AppliesToSettings, Equatable {
    /// Accepted and recorded; vector overlays work without it.
    public init() {}
    /// Records that vector overlays were asked for (it changes nothing else).
    package func apply(to settings: inout VideoSettings) { settings.enableVector = true }
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
public struct PictureInPicture: Setting, AppliesToSettings, Equatable {
    /// The mini window's default width, in pixels.
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

    /// Enables picture-in-picture; the mini window is `width` × `height` pixels at (`x`, `y`) on
    /// the screen, nil meaning automatic (see the type's description).
    public init(width: Int = defaultWidth, height: Int? = nil, x: Int? = nil, y: Int? = nil,
                hidesMainWindow: Bool = false) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.hidesMainWindow = hidesMainWindow
    }

    /// Enables picture-in-picture in `settings`, placed as this setting says.
    package func apply(to settings: inout VideoSettings) { settings.pictureInPicture = self }

    package var placement: MiniWindowPlacement {
        MiniWindowPlacement(width: width, height: height, x: x, y: y, hidesMainWindow: hidesMainWindow)
    }

    /// Throws `invalidSetting` when the width or height is outside `validSide`.
    package func validate() throws(PlayerError) {
        let sides = [("width", width)] + (height.map { [("height", $0)] } ?? [])
        for (name, side) in sides where !Self.validSide.contains(side) {
            throw .invalidSetting(name: "PictureInPicture", value: "\(name) \(side)",
                                  reason: "the mini window's sides are \(Self.validSide.lowerBound)…\(Self.validSide.upperBound) px")
        }
    }
}

/// Players of one group pause the others when they start playing; of players started at once, the
/// last to start plays.
public struct ExclusivePlayback: Setting, AppliesToSettings, Equatable {
    package var group: String
    /// Puts the player in the group named `group`: starting to play pauses the group's others.
    public init(group: String) { self.group = group }
    /// Puts the player in the exclusive group.
    package func apply(to settings: inout VideoSettings) { settings.exclusiveGroup = group }
}

/// Brightness −1 … 1 (clamped), applied after the filters. Default 0.
public struct Brightness: Setting, AppliesToSettings, Equatable {
    /// 0: the picture as recorded.
    public static let defaultValue: Float = 0
    /// −1 (black) … 1 (white).
    public static let validRange = ColorAdjustment.brightnessRange
    package var value: Float
    /// Brightens (positive) or darkens (negative) the picture by `value`; clamped to `validRange`.
    public init(_ value: Float) { self.value = value }
    /// Sets the brightness applied after the filters.
    package func apply(to settings: inout VideoSettings) { settings.brightness = value }
}

/// Contrast 0 … 4 (clamped), applied after the filters. Default 1.
public struct Contrast: Setting, AppliesToSettings, Equatable {
    /// 1: the picture as recorded.
    public static let defaultValue: Float = 1
    /// 0 (flat grey) … 4.
    public static let validRange = ColorAdjustment.contrastRange
    package var value: Float
    /// Scales the picture's contrast by `value` (1 unchanged); clamped to `validRange`.
    public init(_ value: Float) { self.value = value }
    /// Sets the contrast applied after the filters.
    package func apply(to settings: inout VideoSettings) { settings.contrast = value }
}

/// The filter stack, in order: `Filters { VideoFilter.sepia(); FFmpegFilter("hqdn3d=4") }`.
public struct Filters: Setting, AppliesToSettings, Equatable {
    package var filters: [VideoFilter]
    /// The filters built in `content`, applied in order.
    public init(@FilterListBuilder _ content: () -> [VideoFilter]) { filters = content() }
    /// Sets the filter stack, replacing any given before.
    package func apply(to settings: inout VideoSettings) { settings.filters = filters }
}

/// Builds a filter list with the same control flow as `VideoSettingsBuilder`.
@resultBuilder
public enum FilterListBuilder {
    /// Lets a filter stand as a statement.
    public static func buildExpression(_ filter: VideoFilter) -> [VideoFilter] { [filter] }
    /// Lets an FFmpeg filter chain stand as a statement.
    public static func buildExpression(_ filter: FFmpegFilter) -> [VideoFilter] { [filter.filter] }
    /// Lets an optional filter stand as a statement: nil adds nothing.
    public static func buildExpression(_ filter: VideoFilter?) -> [VideoFilter] { filter.map { [$0] } ?? [] }
    /// Lets a list of filters stand as a statement, as if written one by one.
    public static func buildExpression(_ filters: [VideoFilter]) -> [VideoFilter] { filters }
    /// Joins the statements of a block, in order.
    public static func buildBlock(_ parts: [VideoFilter]...) -> [VideoFilter] { parts.flatMap { $0 } }
    /// An `if` without `else`: its filters when taken, none otherwise.
    public static func buildOptional(_ part: [VideoFilter]?) -> [VideoFilter] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [VideoFilter]) -> [VideoFilter] { part }
    /// The other branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [VideoFilter]) -> [VideoFilter] { part }
    /// Joins the filters of every pass of a `for` loop, in order.
    public static func buildArray(_ parts: [[VideoFilter]]) -> [VideoFilter] { parts.flatMap { $0 } }
    /// A block under `if #available`, passed through unchanged.
    public static func buildLimitedAvailability(_ part: [VideoFilter]) -> [VideoFilter] { part }
}

/// Which HLS variant plays: `.automatic` (by measured throughput, buffer and output size; switches
/// while playing), `.maxBitrate`, `.minBitrate` or `.bitrate(n)` (the highest not above n bits/s).
/// Default `.automatic`; changing it applies to a running HLS source from its next segment.
public struct HLSVariant: Setting, AppliesToSettings, Equatable {
    /// `.automatic`: chosen by throughput, buffer and output size.
    public static let defaultValue = VariantPreference.automatic
    package var value: VariantPreference
    /// Plays the HLS variant `value` picks.
    public init(_ value: VariantPreference = HLSVariant.defaultValue) { self.value = value }
    /// Sets how the HLS variant is chosen.
    package func apply(to settings: inout VideoSettings) { settings.hlsVariant = value }

    /// Throws `invalidSetting` for a `.bitrate` that is not positive.
    package static func validate(_ value: VariantPreference) throws(PlayerError) {
        if case let .bitrate(bits) = value, bits <= 0 {
            throw .invalidSetting(name: "HLSVariant", value: "\(bits)", reason: "expected a positive number of bits per second")
        }
    }
}

extension VariantPreference {
    /// From mpv's `--hls-bitrate` words: `max`, `min`, a number of bits per second (`1500000`,
    /// `1500k`, `1.5M`), or `auto`. Anything else throws `invalidSetting`.
    package init(parsing text: String) throws(PlayerError) {
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
public struct NetworkTimeout: Setting, AppliesToSettings, Equatable {
    /// The default: 30 seconds.
    public static let defaultValue = NetworkOptions.defaultTimeout
    /// The durations accepted, in seconds: half a second to a day.
    public static let validRange = NetworkOptions.timeoutRange
    package var seconds: Double
    /// Lets a network source fail for up to `seconds` before it is given up;
    /// `VideoSettings.validate()` checks it against `validRange`.
    public init(_ seconds: Double = NetworkTimeout.defaultValue) { self.seconds = seconds }
    /// Sets how long a network source may keep failing.
    package func apply(to settings: inout VideoSettings) { settings.networkTimeout = seconds }

    /// Throws `invalidSetting` unless `seconds` is within `validRange`.
    package static func validate(_ seconds: Double) throws(PlayerError) {
        try checkRange(seconds, validRange, setting: "NetworkTimeout", unit: "seconds")
    }
}

/// Lets a looping local file keep the decoded pictures of one whole pass, up to `megabytes`, and
/// replay them on later passes instead of decoding again: a short loop then costs its decoding
/// once, however long it runs (its picture path, filters and sound go on as before). A loop that
/// does not fit decodes every pass. Default 0 (off); memory is the price, so it is chosen.
public struct FrameCache: Setting, AppliesToSettings, Equatable {
    /// The default: 0, no cache.
    public static let defaultValue = 0
    /// The sizes accepted, in MiB: 0 (off) to 64 GiB.
    public static let validRange = 0...65_536
    package var megabytes: Int
    /// Keeps up to `megabytes` MiB of a looping file's decoded pictures;
    /// `VideoSettings.validate()` checks it against `validRange`.
    public init(megabytes: Int) { self.megabytes = megabytes }
    /// Sets the frame cache's size.
    package func apply(to settings: inout VideoSettings) { settings.frameCacheMegabytes = megabytes }

    /// Throws `invalidSetting` unless `megabytes` is within `validRange`.
    package static func validate(_ megabytes: Int) throws(PlayerError) {
        try checkRange(megabytes, validRange, setting: "FrameCache", unit: "MiB")
    }
}

/// The sources the player may open (the seed's navigation policy): `AllowedSources(schemes:
/// ["https"], hosts: ["*.example.com"])`. A refused source fails with `sourceNotAllowed`.
extension AllowedSources: Setting, AppliesToSettings {
    /// Makes these the sources the player may open.
    package func apply(to settings: inout VideoSettings) { settings.allowedSources = self }
}

/// `invalidSetting` unless `value` is in `range` ("expected 0.5…86400.0 seconds").
func checkRange<Value: Comparable>(_ value: Value, _ range: ClosedRange<Value>, setting: String,
                                   unit: String) throws(PlayerError) {
    guard range.contains(value) else {
        throw .invalidSetting(name: setting, value: "\(value)", reason: "expected \(range.lowerBound)…\(range.upperBound) \(unit)")
    }
}
