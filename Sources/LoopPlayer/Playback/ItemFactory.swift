import Filters

/// Makes a source's `PlaybackItem` from what the engine holds now: the source policy's plan
/// (`admit`), then the pipeline with its sound writer, subtitles and filters (`make`). Values in;
/// a subtitle file that is missing is an error event. Engine thread only.
struct ItemFactory {
    let configuration: EngineConfiguration
    /// The sound and the subtitles as chosen now (the configuration's, as changed since).
    let audio: AudioOptions
    let subtitleOptions: SubtitleOptions
    /// What network sources learn from the engine, kept across sources.
    let network: NetworkControls
    let sound: SoundOutput
    let filters: FilterStack
    /// A playlist's items end their sound with their picture.
    let endsSoundWithPicture: Bool
    /// The subtitle files are loaded before the first frame (`PlaybackEngine.framesCannotWait`).
    let framesCannotWait: Bool
    /// Frames on a virtual clock: no sound (it cannot play faster than real time).
    let virtualClock: Bool
    /// Time passing: loading starts now (`PlaybackStatistics.firstFrameMs`).
    let realClock: PlaybackClock
    let outbox: EngineOutbox
    let wake: @Sendable () -> Void

    /// `location` judged by the source policy, with what the configuration asks of every source.
    func admit(_ location: MediaLocation) -> Result<SourcePlan, PlayerError> {
        SourcePlan.admit(location, network: configuration.network, controls: network).map { admitted in
            var plan = admitted
            plan.sizeLimit = configuration.pictureSizeLimit
            return plan
        }
    }

    /// Starts the pipeline of `location` (its threads open and decode it from now on), loading
    /// started now. A new source takes the sound device at once; a `queued` one when the engine
    /// hands it over. An external subtitle file that is not there is skipped, and said.
    func make(_ location: MediaLocation, plan: SourcePlan, queued: Bool) -> PlaybackItem {
        let subtitleSetup = subtitleOptions.resolvedFiles()
        let pipeline = MediaPipeline(plan: plan, looping: configuration.looping,
                                     soundEndsWithPicture: endsSoundWithPicture, audio: audio,
                                     audioDriver: SoundControl.driver(for: audio, virtualClock: virtualClock),
                                     sound: sound.makeWriter(takesDevice: !queued),
                                     subtitleFiles: subtitleSetup.files, subtitleFetch: configuration.network.fetchOptions,
                                     frameCacheBytes: plan.reading == .file ? configuration.frameCacheBytes : 0,
                                     frameReady: wake)
        pipeline.setFilters(filters)
        let subtitles = SubtitleOverlay(library: pipeline.subtitles, choice: subtitleSetup.choice,
                                        framesCannotWait: framesCannotWait, wake: wake)
        subtitles.visible = subtitleOptions.visible
        subtitleSetup.missing.forEach(outbox.note)
        return PlaybackItem(location: location, pipeline: pipeline, subtitles: subtitles, loadStartedAt: realClock.now,
                            underrunsBefore: sound.underruns)
    }
}
