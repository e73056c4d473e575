import ArgumentParser
import LoopPlayer

/// The sound: on or muted, how loud, which track, how fast, through which device.
struct SoundArguments: ParsableArguments {
    @Flag(help: "Start muted (loopplay plays the sound by default, as mpv does; the library starts muted).")
    var mute = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Volume 0…100 (linear gain).", valueName: "0-100"))
    var volume: Float = 100

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Audio track: a language (en, eng, …), a number from 0, auto, or no.", valueName: "track"))
    var audioTrack = "auto"

    @Option(parsing: .unconditional,
            help: "Playback speed \(Loopplay.span(PropertyLimits.speed)) (0 holds the picture; the sound keeps its pitch).")
    var speed: Double = 1

    @Option(help: ArgumentHelp("SDL audio driver (\(Self.audioDrivers.joined(separator: ", ")); default: SDL's choice).",
                               valueName: "name"),
            completion: .list(Self.audioDrivers))
    var audioDriver: String?

    /// The drivers --help names and the completions offer (SDL may have others).
    private static let audioDrivers = ["pulseaudio", "alsa", "pipewire", "disk", "dummy"]

    @Option(help: ArgumentHelp("SDL audio device name (with --audio-driver disk: the file to write).", valueName: "name"))
    var audioDevice: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Most channels to open the device with; more are downmixed (e.g. 2 for stereo).", valueName: "n"))
    var audioChannels: Int?

    /// loopplay's volume is mpv's percentage of the library's gain.
    static let volumeRange = AudioOptions.volumeRange.lowerBound * 100...AudioOptions.volumeRange.upperBound * 100
    static let channelRange = 1...8

    func validate() throws {
        guard Self.volumeRange.contains(volume) else {
            throw ValidationError("--volume must be \(Loopplay.describe(Self.volumeRange))")
        }
        guard PropertyLimits.speed.contains(speed) else {
            throw ValidationError("--speed must be \(Loopplay.describe(PropertyLimits.speed))")
        }
        if let audioChannels, !Self.channelRange.contains(audioChannels) {
            throw ValidationError("--audio-channels must be \(Self.channelRange.lowerBound)…\(Self.channelRange.upperBound)")
        }
        _ = try trackChoice()
    }

    func trackChoice() throws -> AudioTrackChoice {
        switch audioTrack.lowercased() {
        case "auto", "": return .automatic
        case "no", "none": return .none
        case let text:
            if let number = Int(text) {
                guard number >= 0 else { throw ValidationError("--audio-track number must not be negative") }
                return .number(number)
            }
            guard LanguageCodeArgument.isPlausible(text) else {
                throw ValidationError("invalid --audio-track '\(audioTrack)': expected a language code, a number, auto or no")
            }
            return .language(text)
        }
    }

    var options: AudioOptions {
        get throws {
            AudioOptions(track: try trackChoice(), driver: audioDriver, device: audioDevice, maxChannels: audioChannels)
        }
    }

    /// The commands that set the volume and speed asked for.
    var commands: [PlaybackCommand] {
        (volume != 100 ? [.volume(volume / 100)] : []) + (speed != 1 ? [.playbackSpeed(Float(speed))] : [])
    }
}
