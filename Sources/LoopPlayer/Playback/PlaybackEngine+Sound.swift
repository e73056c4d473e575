/// Sound controls: volume, mute, audio tracks, and when the sound plays. Engine thread only.
extension PlaybackEngine {
    /// Linear gain 0…1 (kept across sources).
    package var volume: Float { configuration.audio.volume }
    package var isMuted: Bool { configuration.audio.muted }

    /// Sets the volume, clamped to 0…1; the change is ramped over one device buffer (no click).
    /// Emits `volumeChanged`.
    package func setVolume(_ volume: Float) {
        let clamped = AudioOptions.gain(volume)
        configuration.audio.volume = clamped
        sound.setVolume(clamped, muted: configuration.audio.muted)
        emit(.volumeChanged(clamped))
    }

    /// Mutes or unmutes. While muted the monotonic clock leads (the device runs on at zero gain).
    /// Unmuting first moves the sound to the picture (skipping or delaying it by what the two clocks
    /// drifted apart meanwhile), then fades it in: the picture never jumps.
    package func setMuted(_ muted: Bool) {
        // The sound is moved when both clocks can be read (now, or after a pause or a refill).
        if let item, configuration.audio.muted && !muted { item.realignPending = true }
        configuration.audio.muted = muted
        realignSoundIfPending()
        sound.setVolume(configuration.audio.volume, muted: muted)
    }

    /// After unmuting: the sound goes to where the picture is; until then the picture's clock leads.
    /// Moves under 5 ms are left to the presenter's slewing.
    func realignSoundIfPending() {
        guard let item, item.realignPending, item.pipeline.sound.hasDevice,
              let picture = item.presenter?.mediaTimeNow(), let heard = item.pipeline.sound.audibleMediaTime(at: clock.now)
        else { return }
        item.realignPending = false
        if abs(picture - heard) > 0.005 { sound.realign(by: picture - heard) }
        sync.soundCorrector.moved(at: clock.now)  // on a shared timeline: readings wait for the move
    }

    /// The source's audio tracks (empty until it opened).
    package var audioTracks: [AudioTrack] { item?.pipeline.status.audioTracks ?? [] }

    /// The track being played, if any.
    package var audioTrack: AudioTrack? { item?.pipeline.status.audioTrack }

    /// Switches to the first track in `language` (`en` or `eng`). Throws `audioTrackNotFound` (also
    /// sent as an error event) if none matches; the current track plays on.
    package func selectAudioTrack(language: String) throws(PlayerError) {
        guard let track = audioTracks.first(where: { $0.matches(language: language) }) else {
            let error = PlayerError.audioTrackNotFound(language: language, available: audioTracks.map(\.label))
            record(error)
            emit(.error(error))
            throw error
        }
        select(track)
    }

    /// Switches to the track at `number` among `audioTracks` (nil: none). Throws `audioTrackNotFound`
    /// (also sent as an error event) for a number with no track; the current track plays on.
    package func selectAudioTrack(number: Int?) throws(PlayerError) {
        guard let number else { return select(nil) }
        guard let track = audioTracks.first(where: { $0.number == number }) else {
            let error = PlayerError.audioTrackNotFound(language: "#\(number)", available: audioTracks.map(\.label))
            record(error)
            emit(.error(error))
            throw error
        }
        select(track)
    }

    /// The next audio track, after the last one none, then the first again (mpv's `#`).
    package func cycleAudioTrack() {
        let tracks = audioTracks
        guard !tracks.isEmpty else { return }
        guard let current = audioTrack else { return select(tracks[0]) }
        select(tracks.first { $0.number > current.number })
    }

    /// Plays `track` (nil: none) from the current position, as mpv refreshes a track: the demuxer
    /// reads again from the picture on screen for the sound alone, and the picture plays on
    /// untouched (a seek made it hold while it decoded again from a keyframe, and come back up to
    /// 0.2 s behind). The new sound is moved to the picture once it is heard; until then the
    /// picture keeps its own clock. Audio-only media keep their track (it is their timeline).
    private func select(_ track: AudioTrack?) {
        guard let item, track != audioTrack, videoInfo?.isBlackPicture != true else { return }
        // "No sound" is for this source only: the next one gets a track (and a driver) again.
        if let track { configuration.audio.track = .number(track.number) }
        takeBackSound()
        if item.presenter?.showsCurrentGeneration == true, let spot = pictureSpot {
            item.pipeline.refreshSound(at: spot.position, inPass: spot.pass, audioTrack: track)
            item.realignPending = true
        } else {
            // Nothing of the current position is shown yet: a seek it was anyway.
            let generation = item.pipeline.seek(to: position, inPass: pictureSpot?.pass ?? 0,
                                                audioTrack: .some(track))
            if let presenter = item.presenter {
                presenter.restart(generation: generation)
            } else {
                item.pendingSeekGeneration = generation
            }
            updateSound()
        }
        waiter.wake()
    }

    /// SDL's audio driver for a new source, or why there is none; nil when no sound is wanted
    /// (no track, or a virtual clock: sound cannot play faster than real time).
    func audioDriver() -> Result<String, PlayerError>? {
        guard configuration.audio.track != .none, !clock.isVirtual else { return nil }
        do {
            return .success(try SDLAudio.start(driver: configuration.audio.driver))
        } catch {
            return .failure(error)
        }
    }

    /// The sound plays while frames are shown and is silent otherwise (paused, held, ended, before
    /// the first frame, speed 0, and after a seek until the new picture shows: the decoder needs
    /// longer from the keyframe than the sound needs to start). Applied only when it changes.
    func updateSound() {
        guard let item, let presenter = item.presenter else { return }
        let playing = state == .playing || state == .buffering
        let silent = !playing || presenter.isPaused || !presenter.showsCurrentGeneration || presenter.ended
            || presenter.speed == 0
        guard silent != sound.isPaused else { return }
        sound.setPaused(silent)
        if !silent { realignSoundIfPending() }
    }
}
