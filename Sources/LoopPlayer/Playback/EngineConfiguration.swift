import Overlay

/// How a `PlaybackEngine` plays: where pictures go, which clock, looping and when to stop.
package struct EngineConfiguration: Sendable, Equatable {
    /// Where pictures go.
    package enum Output: Sendable, Equatable {
        /// The engine's own SDL window (needs a display).
        case window(WindowOptions)
        /// No window (tests, benchmarks, servers); `snapshot()` still works.
        case offscreen
    }

    package var output: Output
    package var looping: Bool
    package var gravity: VideoGravity
    /// Show every frame as soon as it is decoded (a virtual clock): exact, fast tests and benchmarks.
    package var untimed: Bool
    package var stop: StopCondition
    /// The sound: track, device, volume and mute (changed at run time by the engine's controls).
    package var audio: AudioOptions
    /// External subtitle files and which track shows.
    package var subtitles = SubtitleOptions()
    /// How a failed source's error text is drawn in the player area (the model's `EColor`, `EFontSize`).
    package var errorColor: Color = EColor.defaultValue
    package var errorFontSize: Float = EFontSize.defaultValue
    /// Network sources: the source policy, the give-up time, the HLS variant choice.
    package var network = NetworkOptions()
    /// Picture-in-picture: where the mini window goes; nil: refused (`notSupportedPiP`).
    package var pictureInPicture: PictureInPicture?
    /// Bytes of decoded pictures a looping local file may keep so that it is decoded once
    /// (`FrameCache`); 0: every pass is decoded.
    package var frameCacheBytes = 0
    /// The shared timeline the loop follows (`SyncTimeline`); nil: its own.
    package var syncTimeline: SharedTimeline?
    /// The largest picture decoded: a larger one is `unsupportedVideoSize` (`PictureSizeLimit`).
    package var pictureSizeLimit = VideoSizeLimit.standard
    /// The clocks the engine reads: real ones by default, a test's `ManualClock` and
    /// `ManualSystemClock` to drive time.
    package var clocks = EngineClocks()

    package init(output: Output = .window(WindowOptions()), looping: Bool = false, gravity: VideoGravity = .default,
                untimed: Bool = false, stop: StopCondition = .never, audio: AudioOptions = AudioOptions()) {
        self.audio = audio
        self.output = output
        self.looping = looping
        self.gravity = gravity
        self.untimed = untimed
        self.stop = stop
    }
}

/// The monotonic and the system clock an engine reads (nil: the real ones). Two configurations
/// are equal when they name the same clocks (by identity: a clock is a running thing, not a value).
package struct EngineClocks: Sendable, Equatable {
    /// Frames are scheduled on it; nil: `CLOCK_MONOTONIC` (or a `VirtualClock` when untimed).
    package var monotonic: (any PlaybackClock)?
    /// A shared timeline is read on it; nil: `CLOCK_REALTIME`.
    package var system: (any SystemClock)?

    package init(monotonic: (any PlaybackClock)? = nil, system: (any SystemClock)? = nil) {
        self.monotonic = monotonic
        self.system = system
    }

    package static func == (lhs: EngineClocks, rhs: EngineClocks) -> Bool {
        lhs.monotonic.map(ObjectIdentifier.init) == rhs.monotonic.map(ObjectIdentifier.init)
            && lhs.system.map(ObjectIdentifier.init) == rhs.system.map(ObjectIdentifier.init)
    }
}
