/// Sound controls: volume, mute, audio tracks. Engine thread only.
extension PlaybackEngine {
    /// Linear gain 0…1 (kept across sources).
    public var volume: Float { configuration.audio.volume }
    public var isMuted: Bool { configuration.audio.muted }

    /// Sets the volume, clamped to 0…1; the change is ramped over one device buffer (no click).
    /// Emits `volumeChanged`.
    public func setVolume(_ volume: Float) {
        let clamped = volume.isNaN ? 1 : min(max(volume, 0), 1)
        configuration.audio.volume = clamped
        pipeline?.audio.change { $0.volume = clamped }
        onEvent?(.volumeChanged(clamped))
    }

    /// Mutes or unmutes. While muted the monotonic clock leads (the device runs on at zero gain).
    /// Unmuting first moves the sound to the picture (skipping or delaying it by what the two clocks
    /// drifted apart meanwhile), then fades it in: the picture never jumps.
    public func setMuted(_ muted: Bool) {
        // The sound is moved when both clocks can be read (now, or after a pause or a refill).
        realignPending = configuration.audio.muted && !muted
        configuration.audio.muted = muted
        realignSoundIfPending()
        pipeline?.audio.change { $0.muted = muted }
    }

    /// After unmuting: the sound goes to where the picture is; until then the picture's clock leads.
    /// Moves under 5 ms are left to the presenter's slewing.
    func realignSoundIfPending() {
        guard realignPending, let output = pipeline?.audio.output, let picture = presenter?.mediaTimeNow(),
              let heard = output.audibleMediaTime(at: clock.now) else { return }
        realignPending = false
        if abs(picture - heard) > 0.005 { output.realign(by: picture - heard) }
    }

    /// The source's audio tracks (empty until it opened).
    public var audioTracks: [AudioTrack] { pipeline?.status.audioTracks ?? [] }

    /// The track being played, if any.
    public var audioTrack: AudioTrack? { pipeline?.status.audioTrack }

    /// Switches to the first track in `language` (`en` or `eng`). Throws `audioTrackNotFound` (also
    /// sent as an error event) if none matches; the current track plays on.
    public func selectAudioTrack(language: String) throws(PlayerError) {
        guard let track = audioTracks.first(where: { $0.matches(language: language) }) else {
            let error = PlayerError.audioTrackNotFound(language: language, available: audioTracks.map(\.label))
            record(error)
            onEvent?(.error(error))
            throw error
        }
        select(track)
    }

    /// The next audio track, after the last one none, then the first again (mpv's `#`).
    public func cycleAudioTrack() {
        let tracks = audioTracks
        guard !tracks.isEmpty else { return }
        guard let current = audioTrack else { return select(tracks[0]) }
        select(tracks.first { $0.number > current.number })
    }

    /// Plays `track` (nil: none) from the current position: the demuxer seeks back to the picture on
    /// screen, as mpv does, and the sound starts with the first new picture, in step. Audio-only
    /// media keep their track (it is their timeline).
    private func select(_ track: AudioTrack?) {
        guard let pipeline, track != audioTrack, videoInfo?.isBlackPicture != true else { return }
        // "No sound" is for this source only: the next one gets a track (and a driver) again.
        if let track { configuration.audio.track = .number(track.number) }
        let generation = pipeline.seek(to: position, inPass: presenter?.current?.pass ?? 0, audioTrack: .some(track))
        if let presenter { presenter.restart(generation: generation) } else { pendingSeekGeneration = generation }
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
    /// the first frame, speed 0).
    func updateAudioPause() {
        guard let presenter, let pipeline else { return }
        // After a seek or track change the sound waits for the new picture: the decoder needs longer
        // from the keyframe than the sound needs to start.
        let silent = presenter.isPaused || !presenter.showsCurrentGeneration || presenter.ended || presenter.speed == 0
            || state == .ready
        guard silent != audioPaused else { return }
        audioPaused = silent
        pipeline.audio.change { $0.paused = silent }
    }

    /// What the pipeline's threads reported: failures end the item, warnings and underruns are events.
    func handleReports(_ pipeline: MediaPipeline) {
        for report in pipeline.status.takeReports() {
            switch report {
            case let .fatal(error):
                fail(error)
            case let .warning(error):
                record(error)
                onEvent?(.error(error))
            case let .filterFailed(error, instead):
                // The decode thread went back to the last stack that worked: that is what runs now.
                filters = instead
                pipeline.setFilters(instead)
                record(.invalidFilter(error))
                onEvent?(.error(.invalidFilter(error)))
            case .underrun:
                onEvent?(.waitingToPlayAtSpecifiedRate)
            }
        }
        let underruns = pipeline.audio.output?.underruns ?? 0
        if underruns > reportedUnderruns {
            reportedUnderruns = underruns
            onEvent?(.waitingToPlayAtSpecifiedRate)
        }
    }
}
