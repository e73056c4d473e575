/// The sound of the item playing, through the engine's device (`SoundOutput`, kept across
/// sources): volume and mute, the audio track (`options`, for the sources loaded from now on
/// too), the sound moved to the picture once both clocks can be read, and when the device plays.
/// The engine says which item plays (`item`) and whether its state plays (`update`). Engine thread only.
package final class SoundControl {
    package let device: SoundOutput
    /// The sound as chosen now: volume, mute, track.
    private(set) var options: AudioOptions
    /// The item whose sound plays (the engine's current item).
    weak var item: PlaybackItem?
    private let timeline: TimelineSync
    private let switcher: ItemSwitch
    private let clock: PlaybackClock
    private let outbox: EngineOutbox
    private let wake: @Sendable () -> Void

    init(device: SoundOutput, options: AudioOptions, timeline: TimelineSync, switcher: ItemSwitch, clock: PlaybackClock,
         outbox: EngineOutbox, wake: @escaping @Sendable () -> Void) {
        self.device = device
        self.options = options
        self.timeline = timeline
        self.switcher = switcher
        self.clock = clock
        self.outbox = outbox
        self.wake = wake
    }

    /// Linear gain 0…1 (kept across sources).
    package var volume: Float { options.volume }
    package var isMuted: Bool { options.muted }

    /// Sets the volume, clamped to 0…1, and emits `volumeChanged`; the device ramps the change over
    /// one buffer (no click).
    package func setVolume(_ volume: Float) {
        let clamped = AudioOptions.gain(volume)
        options.volume = clamped
        device.setVolume(clamped, muted: options.muted)
        outbox.emit(.volumeChanged(clamped))
    }

    /// Mutes or unmutes. While muted the monotonic clock leads (the device runs on at zero gain).
    /// Unmuting first moves the sound to the picture (when both clocks can be read: now, or after
    /// a pause or a refill), then fades it in: the picture never jumps.
    package func setMuted(_ muted: Bool) {
        if let item, options.muted && !muted { item.realignPending = true }
        options.muted = muted
        realignIfPending()
        device.setVolume(options.volume, muted: muted)
    }

    /// After unmuting or a new track: the sound goes to where the picture is; until then the
    /// picture's clock leads. Moves under 5 ms are left to the presenter's slewing. Done when both
    /// clocks can be read; on a shared timeline, its readings wait for the move.
    func realignIfPending() {
        let now = clock.now
        guard let item, item.realignPending, item.pipeline.sound.hasDevice,
              let picture = item.presenter?.mediaTimeNow(), let heard = item.pipeline.sound.audibleMediaTime(at: now)
        else { return }
        item.realignPending = false
        if abs(picture - heard) > 0.005 { device.realign(by: picture - heard) }
        timeline.soundMoved()
    }

    /// The sound plays while frames are shown and is silent otherwise (not `playing`, paused,
    /// held, ended, speed 0, and after a seek until the new picture shows: the decoder needs longer
    /// from the keyframe than the sound needs to start). Applied only when it changes; a sound
    /// that starts is moved to the picture if that is pending.
    func update(playing: Bool) {
        guard let presenter = item?.presenter else { return }
        let silent = !playing || presenter.isPaused || !presenter.showsCurrentGeneration || presenter.ended
            || presenter.speed == 0
        guard silent != device.isPaused else { return }
        device.setPaused(silent)
        if !silent { realignIfPending() }
    }

    // MARK: Tracks

    /// The source's audio tracks (empty until it opened).
    package var audioTracks: [AudioTrack] { item?.pipeline.status.audioTracks ?? [] }

    /// The track being played, if any.
    package var audioTrack: AudioTrack? { item?.audioTrack }

    /// Switches to the first track in `language` (`en` or `eng`). Throws `audioTrackNotFound` (also
    /// sent as an error event) if none matches; the current track plays on.
    package func selectAudioTrack(language: String) throws(PlayerError) {
        select(try outbox.noting(Self.track(language: language, in: audioTracks)))
    }

    /// Switches to the track at `number` among `audioTracks` (nil: none). Throws `audioTrackNotFound`
    /// (also sent as an error event) for a number with no track; the current track plays on.
    package func selectAudioTrack(number: Int?) throws(PlayerError) {
        guard let number else { return select(nil) }
        select(try outbox.noting(Self.track(number: number, in: audioTracks)))
    }

    /// The next audio track, after the last one none, then the first again (mpv's `#`).
    package func cycleAudioTrack() {
        let tracks = audioTracks
        guard !tracks.isEmpty else { return }
        guard let current = audioTrack else { return select(tracks[0]) }
        select(tracks.first { $0.number > current.number })
    }

    /// Plays `track` (nil: none) from the current position (`PlaybackItem.playSound`); a seek it was
    /// when nothing of the position was shown yet: silent until it is. Audio-only media keep their
    /// track (it is their timeline).
    private func select(_ track: AudioTrack?) {
        guard let item, track != audioTrack, item.info?.isBlackPicture != true else { return }
        // "No sound" is for this source only: the next one gets a track (and a driver) again.
        if let track { options.track = .number(track.number) }
        switcher.takeBackSound()
        if item.playSound(track) { update(playing: false) }  // silent until its picture shows
        wake()
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
