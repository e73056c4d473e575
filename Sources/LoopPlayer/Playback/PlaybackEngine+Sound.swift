/// Sound controls (`SoundControl`): volume, mute, audio tracks, and when the sound plays. Engine thread only.
extension PlaybackEngine {
    private var soundControl: SoundControl { SoundControl(device: sound) }

    /// Linear gain 0…1 (kept across sources).
    package var volume: Float { configuration.audio.volume }
    package var isMuted: Bool { configuration.audio.muted }

    /// Sets the volume (`SoundControl.setVolume`); emits `volumeChanged`.
    package func setVolume(_ volume: Float) {
        emit(.volumeChanged(soundControl.setVolume(volume, in: &configuration.audio)))
    }

    /// Mutes or unmutes (`SoundControl.setMuted`): unmuting moves the sound to the picture first.
    package func setMuted(_ muted: Bool) {
        let moved = soundControl.setMuted(muted, in: &configuration.audio, item: item, now: clock.now)
        if moved { sync.soundCorrector.moved(at: clock.now) }  // on a shared timeline: readings wait for the move
    }

    func realignSoundIfPending() {
        if soundControl.realignIfPending(item, now: clock.now) { sync.soundCorrector.moved(at: clock.now) }
    }

    /// The source's audio tracks (empty until it opened).
    package var audioTracks: [AudioTrack] { item?.pipeline.status.audioTracks ?? [] }

    /// The track being played, if any.
    package var audioTrack: AudioTrack? { item.flatMap { $0.chosenAudioTrack ?? $0.pipeline.status.audioTrack } }

    /// Switches to the first track in `language` (`en` or `eng`). Throws `audioTrackNotFound` (also
    /// sent as an error event) if none matches; the current track plays on.
    package func selectAudioTrack(language: String) throws(PlayerError) {
        select(try noting(SoundControl.track(language: language, in: audioTracks)))
    }

    /// Switches to the track at `number` among `audioTracks` (nil: none). Throws `audioTrackNotFound`
    /// (also sent as an error event) for a number with no track; the current track plays on.
    package func selectAudioTrack(number: Int?) throws(PlayerError) {
        guard let number else { return select(nil) }
        select(try noting(SoundControl.track(number: number, in: audioTracks)))
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
        item.chosenAudioTrack = .some(track)
        takeBackSound()
        if item.presenter?.showsCurrentGeneration == true, let spot = pictureSpot {
            item.pipeline.refreshSound(at: spot.position, inPass: spot.pass, audioTrack: track)
            item.realignPending = true
        } else {
            // Nothing of the current position is shown yet: a seek it was anyway.
            item.restart(generation: item.pipeline.seek(to: position, inPass: pictureSpot?.pass ?? 0, audioTrack: .some(track)))
            updateSound()
        }
        waiter.wake()
    }

    /// Whether the sound plays now (`SoundControl.update`); silent before the first frame.
    func updateSound() {
        guard let presenter = item?.presenter else { return }
        if soundControl.update(for: presenter, playing: state == .playing || state == .buffering) { realignSoundIfPending() }
    }
}
