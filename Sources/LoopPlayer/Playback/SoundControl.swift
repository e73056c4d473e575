/// The sound's controls over the engine's device (`SoundOutput`, kept across sources): volume and
/// mute (kept in the engine's `AudioOptions`), which audio track, the sound moved to the picture
/// once both clocks can be read, and when the device plays. The engine hands it the item and does
/// on the pipeline what it decides. Engine thread only.
struct SoundControl {
    let device: SoundOutput

    /// Sets `options`' volume, clamped to 0…1; the device ramps the change over one buffer (no
    /// click). Returns the volume set.
    func setVolume(_ volume: Float, in options: inout AudioOptions) -> Float {
        let clamped = AudioOptions.gain(volume)
        options.volume = clamped
        device.setVolume(clamped, muted: options.muted)
        return clamped
    }

    /// Mutes or unmutes. While muted the monotonic clock leads (the device runs on at zero gain).
    /// Unmuting first moves the sound to the picture (when both clocks can be read: now, or after
    /// a pause or a refill), then fades it in: the picture never jumps. True when it moved now.
    func setMuted(_ muted: Bool, in options: inout AudioOptions, item: PlaybackItem?, now: Double) -> Bool {
        if let item, options.muted && !muted { item.realignPending = true }
        options.muted = muted
        let moved = realignIfPending(item, now: now)
        device.setVolume(options.volume, muted: muted)
        return moved
    }

    /// After unmuting or a new track: `item`'s sound goes to where its picture is; until then the
    /// picture's clock leads. Moves under 5 ms are left to the presenter's slewing. True when it
    /// was due and both clocks could be read (the move is done).
    func realignIfPending(_ item: PlaybackItem?, now: Double) -> Bool {
        guard let item, item.realignPending, item.pipeline.sound.hasDevice,
              let picture = item.presenter?.mediaTimeNow(), let heard = item.pipeline.sound.audibleMediaTime(at: now)
        else { return false }
        item.realignPending = false
        if abs(picture - heard) > 0.005 { device.realign(by: picture - heard) }
        return true
    }

    /// The sound plays while frames are shown and is silent otherwise (not `playing`, paused,
    /// held, ended, speed 0, and after a seek until the new picture shows: the decoder needs longer
    /// from the keyframe than the sound needs to start). Applied only when it changes; true when
    /// the sound started now.
    func update(for presenter: Presenter, playing: Bool) -> Bool {
        let silent = !playing || presenter.isPaused || !presenter.showsCurrentGeneration || presenter.ended
            || presenter.speed == 0
        guard silent != device.isPaused else { return false }
        device.setPaused(silent)
        return !silent
    }

    /// The first of `tracks` in `language` (`en` or `eng`).
    static func track(language: String, in tracks: [AudioTrack]) -> Result<AudioTrack, PlayerError> {
        guard let track = tracks.first(where: { $0.matches(language: language) }) else {
            return .failure(.audioTrackNotFound(language: language, available: tracks.map(\.label)))
        }
        return .success(track)
    }

    /// The track of `tracks` at `number`.
    static func track(number: Int, in tracks: [AudioTrack]) -> Result<AudioTrack, PlayerError> {
        guard let track = tracks.first(where: { $0.number == number }) else {
            return .failure(.audioTrackNotFound(language: "#\(number)", available: tracks.map(\.label)))
        }
        return .success(track)
    }

    /// SDL's audio driver for a new source, or why there is none; nil when no sound is wanted
    /// (no track, or a virtual clock: sound cannot play faster than real time).
    static func driver(for options: AudioOptions, virtualClock: Bool) -> Result<String, PlayerError>? {
        guard options.track != .none, !virtualClock else { return nil }
        do {
            return .success(try SDLAudio.start(driver: options.driver))
        } catch {
            return .failure(error)
        }
    }
}
