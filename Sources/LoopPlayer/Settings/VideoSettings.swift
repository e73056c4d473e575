import Filters
import Overlay

/// Everything that configures a player, built with the DSL or member by member.
///
/// ```swift
/// let settings = VideoSettings {
///     SourceName("swipe")
///     Gravity(.resizeAspectFill)
///     if kiosk { Loop() } else { NotAutoPlay() }
///     Events([.playing, .errorAny])
///     ErrorGroup { EColor(.white); EFontSize(24) }
/// }
/// ```
/// Settings apply in order, so a setting given twice takes the last value. Defaults and valid ranges
/// are declared on each setting type (`TimePublishing.validRange`…); `validate()` checks them.
public struct VideoSettings: Sendable, Equatable {
    /// The source to play (`SourceName`); required, so `validate()` throws while it is nil or blank.
    public var sourceName: String?
    /// The extension tried for a bare source name (`Ext`), `mp4` by default.
    public var ext: String = Ext.defaultValue
    /// How the picture fills the player area (`Gravity`).
    public var gravity: VideoGravity = Gravity.defaultValue
    /// The picture's clockwise turn on screen, degrees (`VideoRotation`).
    package var videoRotation = 0
    /// Seconds between time publications; nil = none.
    public var timePublishing: Double?
    /// Restart the source at its end instead of stopping on the last frame (`Loop`).
    public var loop = false
    /// The sources of a `Playlist`, in order (empty: `sourceName` alone).
    public var playlist: [String] = []
    /// Start a playlist again after its last item (`LoopPlaylist`).
    public var loopPlaylist = false
    /// Passes through a looping playlist before it ends (nil: forever).
    public var loopPlaylistPasses: Int?
    /// What plays when (docs/schedule.md): each entry's playlist in its window, the default between.
    /// A source or a playlist set while it plays (a `loadfile`) plays until its next change.
    package var schedule: Schedule?
    /// The largest picture decoded (`PictureSizeLimit`).
    public var pictureSizeLimit = VideoSizeLimit.standard
    /// Starts muted unless `Unmute()` or `Volume(…)` says otherwise, as the model does: a background
    /// video makes no noise by surprise. (loopplay starts with the sound on, as mpv does.)
    public var mute = true
    /// Linear gain 0…1 (`Volume`); nil: the player's (1 at first).
    public var volume: Float?
    /// Load and show the first frame, then wait for `play` (`NotAutoPlay`).
    public var notAutoPlay = false
    /// An external subtitle file or a language to show subtitles in (`Subtitles`); nil: a forced track only.
    public var subtitles: String?
    /// Which events the player delivers (`Events`); none by default.
    public var events: EventSelection = .none
    /// Colour of the error text drawn in the player area (`EColor`).
    public var errorColor: Color = EColor.defaultValue
    /// Size in points of the error text drawn in the player area (`EFontSize`).
    public var errorFontSize: Float = EFontSize.defaultValue
    /// Set by `EnableVector()`; vector overlays work either way.
    public var enableVector = false
    /// Picture-in-picture is enabled (and placed) by this; nil: `startPiP` is refused.
    public var pictureInPicture: PictureInPicture?
    /// The group whose other players pause when this one starts playing (`ExclusivePlayback`).
    public var exclusiveGroup: String?
    /// Clamped to `Brightness.validRange`.
    public var brightness: Float = Brightness.defaultValue
    /// Clamped to `Contrast.validRange`.
    public var contrast: Float = Contrast.defaultValue
    /// No source is no error: the player waits, idle, until one is set (mpv's `--idle`).
    package var idles = false
    /// The filter stack, applied in order before brightness and contrast (`Filters`).
    public var filters: [VideoFilter] = []
    /// Which HLS variant plays.
    public var hlsVariant: VariantPreference = HLSVariant.defaultValue
    /// Seconds a network source may keep failing before it fails.
    public var networkTimeout: Double = NetworkTimeout.defaultValue
    /// The sources the player may open.
    public var allowedSources: AllowedSources = .standard
    /// The shared timeline's epoch, Unix seconds (`SyncTimeline`); nil: the player's own timeline.
    public var syncEpoch: Double?
    /// MiB of decoded pictures a short loop may keep to be decoded once (`FrameCache`); 0: off.
    public var frameCacheMegabytes = FrameCache.defaultValue
    /// `PictureAlerts`.
    public var pictureAlerts = PictureAlerts()
    /// Vector overlay layers present from the first frame (`VectorLayers { … }`).
    public var vectorLayers: [any ShapeLayerBuilderProtocol] {
        get { layerList.builders }
        set { layerList = LayerList(builders: newValue) }
    }
    private var layerList = LayerList(builders: [])
    /// What `validate()` refuses before any value: a `Setting` of the user's own type (the player
    /// cannot apply it), or a `Playlist { … }` holding more than sources. Kept until the settings are
    /// replaced as a whole.
    var refusal: PlayerError?

    /// Settings built with the DSL, applied in order (a setting given twice keeps the last value).
    public init(@VideoSettingsBuilder _ content: () -> [any Setting]) {
        apply(content())
    }

    /// Applies `settings` in order; a type of the user's own is kept for `validate()` to refuse.
    mutating func apply(_ settings: [any Setting]) {
        for setting in settings {
            guard let known = setting as? any AppliesToSettings else {
                refusal = .invalidSetting(name: "Setting", value: String(describing: type(of: setting)),
                                          reason: "not one of LoopPlayer's settings")
                continue
            }
            known.apply(to: &self)
        }
    }

    /// The same value without the DSL.
    public init(sourceName: String? = nil, ext: String = Ext.defaultValue, gravity: VideoGravity = Gravity.defaultValue,
                timePublishing: Double? = nil, loop: Bool = false, mute: Bool = true, notAutoPlay: Bool = false,
                subtitles: String? = nil, events: EventSelection = .none, errorColor: Color = EColor.defaultValue,
                errorFontSize: Float = EFontSize.defaultValue, exclusiveGroup: String? = nil) {
        self.sourceName = sourceName
        self.ext = ext
        self.gravity = gravity
        self.timePublishing = timePublishing
        self.loop = loop
        self.mute = mute
        self.notAutoPlay = notAutoPlay
        self.subtitles = subtitles
        self.events = events
        self.errorColor = errorColor
        self.errorFontSize = errorFontSize
        self.exclusiveGroup = exclusiveGroup
    }

    /// True if both list the same layer builders (by type and `id`), in the same order.
    func sameVectorLayers(as other: VideoSettings) -> Bool { layerList == other.layerList }

    /// Checks every value against its setting's valid range.
    public func validate() throws(PlayerError) {
        if let refusal { throw refusal }
        // A source or a playlist given beside a schedule (a remote control's `loadfile`) plays until
        // its next change.
        if let schedule, syncEpoch != nil || loop {
            throw .invalidSetting(name: "Schedule", value: schedule.file,
                                  reason: "a schedule loops its entries and keeps them in step itself (sync: true): no Loop or SyncTimeline beside it")
        }
        let idle = (idles || schedule != nil) && sourceName == nil && playlist.isEmpty
        guard idle || sourceName.map({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == true else {
            throw .invalidSetting(name: "SourceName", value: sourceName ?? "", reason: "a source is required")
        }
        try Ext.validate(ext)
        try VideoRotation.validate(videoRotation)
        // The `Volume` setting clamps; a value assigned to the field itself is checked here.
        if let volume, !PropertyLimits.volume.contains(volume) {
            throw .invalidSetting(name: "Volume", value: String(volume),
                                  reason: "expected \(PropertyLimits.volume.lowerBound)…\(PropertyLimits.volume.upperBound)")
        }
        if let blank = playlist.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw .invalidSetting(name: "Playlist", value: playlist[blank], reason: "item \(blank) names no source")
        }
        if let timePublishing { try TimePublishing.validate(timePublishing) }
        try EFontSize.validate(errorFontSize)
        if let exclusiveGroup, exclusiveGroup.isEmpty {
            throw .invalidSetting(name: "ExclusivePlayback", value: "", reason: "the group name is empty")
        }
        do { try filterStack.validate() } catch { throw .invalidFilter(error) }
        try HLSVariant.validate(hlsVariant)
        try NetworkTimeout.validate(networkTimeout)
        try FrameCache.validate(frameCacheMegabytes)
        try pictureAlerts.validate()
        try pictureInPicture?.validate()
        if let syncEpoch {
            try SyncTimeline.validate(syncEpoch, looping: loop, playlist: !playlist.isEmpty, loopingPlaylist: loopPlaylist)
            // Each would hold one screen while the others play on.
            if notAutoPlay || exclusiveGroup != nil {
                throw .invalidSetting(name: "SyncTimeline", value: String(syncEpoch),
                                      reason: "a shared timeline plays at once: not with NotAutoPlay or ExclusivePlayback")
            }
        }
    }

    /// The network options these settings describe.
    package var networkOptions: NetworkOptions {
        NetworkOptions(variant: hlsVariant, timeout: networkTimeout, allowedSources: allowedSources)
    }

    /// The filters with brightness and contrast (clamped) after them.
    package var filterStack: FilterStack {
        FilterStack(filters, adjustment: ColorAdjustment(brightness: brightness, contrast: contrast))
    }
}

/// Layer builders compared by type and identity, so settings stay `Equatable`.
private struct LayerList: Sendable, Equatable {
    var builders: [any ShapeLayerBuilderProtocol]

    static func == (a: Self, b: Self) -> Bool {
        guard a.builders.count == b.builders.count else { return false }
        for index in a.builders.indices {
            let left: any ShapeLayerBuilderProtocol = a.builders[index]
            let right: any ShapeLayerBuilderProtocol = b.builders[index]
            guard type(of: left) == type(of: right), identity(of: left) == identity(of: right) else { return false }
        }
        return true
    }

    private static func identity<Builder: ShapeLayerBuilderProtocol>(of builder: Builder) -> AnyHashable {
        AnyHashable(builder.id)
    }
}

