import LoopPlayerCore

/// How a player plays sound. The volume, mute and speed controls change at run time; these pick
/// the device and the track when a source opens.
public struct AudioOptions: Sendable, Equatable {
    /// Which audio track to play (`.none`: no audio at all).
    public var track: AudioTrackChoice
    /// SDL audio driver (`pulseaudio`, `alsa`, `disk`, `dummy`, …); nil: `SDL_AUDIODRIVER` or SDL's choice.
    public var driver: String?
    /// SDL device name; nil for the default device. With the `disk` driver: the file to write.
    public var device: String?
    /// Most channels to ask the device for; sources with more are downmixed (nil: as many as the source).
    public var maxChannels: Int?
    /// Linear gain 0…1.
    public var volume: Float
    /// No sound while true; `volume` is kept for when the sound is turned back on.
    public var muted: Bool

    /// Options for the device, track and level; every default is the usual choice (full volume, sound on).
    public init(track: AudioTrackChoice = .automatic, driver: String? = nil, device: String? = nil,
                maxChannels: Int? = nil, volume: Float = 1, muted: Bool = false) {
        self.track = track
        self.volume = volume
        self.muted = muted
        self.driver = driver
        self.device = device
        self.maxChannels = maxChannels
    }

    /// The gains a volume takes; the one place they are checked (`Volume`, the engine, loopplay's
    /// percentage).
    package static let volumeRange = PropertyLimits.volume

    /// `volume` in `volumeRange` (NaN: full volume).
    package static func gain(_ volume: Float) -> Float { volume.isNaN ? 1 : volume.clamped(to: volumeRange) }
}
