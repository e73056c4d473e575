import Filters

/// Makes a source's `PlaybackItem` from what the engine holds now: the source policy's plan
/// (`admit`), then the pipeline with its sound writer, subtitles and filters (`make`). Values in;
/// the engine notes the subtitle files that are missing. Engine thread only.
struct ItemFactory {
    let configuration: EngineConfiguration
    /// What network sources learn from the engine, kept across sources.
    let network: NetworkControls
    let sound: SoundOutput
    let filters: FilterStack
    /// A playlist's items end their sound with their picture.
    let endsSoundWithPicture: Bool
    /// The subtitle files are loaded before the first frame (`PlaybackEngine.framesCannotWait`).
    let framesCannotWait: Bool
    let virtualClock: Bool
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
    /// started at `now`. A new source takes the sound device at once; a `queued` one when the engine
    /// hands it over. With the external subtitle files that are not there (skipped).
    func make(_ location: MediaLocation, plan: SourcePlan, queued: Bool, now: Double) -> (item: PlaybackItem, missing: [PlayerError]) {
        let subtitleSetup = configuration.subtitles.resolvedFiles()
        let pipeline = MediaPipeline(plan: plan, looping: configuration.looping,
                                     soundEndsWithPicture: endsSoundWithPicture, audio: configuration.audio,
                                     audioDriver: SoundControl.driver(for: configuration.audio, virtualClock: virtualClock),
                                     sound: sound.makeWriter(takesDevice: !queued),
                                     subtitleFiles: subtitleSetup.files, subtitleFetch: configuration.network.fetchOptions,
                                     frameCacheBytes: plan.reading == .file ? configuration.frameCacheBytes : 0,
                                     frameReady: wake)
        pipeline.setFilters(filters)
        let subtitles = SubtitleOverlay(library: pipeline.subtitles, choice: subtitleSetup.choice,
                                        framesCannotWait: framesCannotWait, wake: wake)
        subtitles.visible = configuration.subtitles.visible
        let item = PlaybackItem(location: location, pipeline: pipeline, subtitles: subtitles, loadStartedAt: now,
                                underrunsBefore: sound.underruns)
        return (item, subtitleSetup.missing)
    }
}
