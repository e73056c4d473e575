import Filters

/// One opened source: the demuxer, the picture stage and the sound stage, each on its own thread,
/// connected by bounded queues.
///
/// ```
/// demuxer ──StageMessage──▶ picture stage ──FrameItem──▶ frames (presenter)
///         ──StageMessage──▶ sound stage   ──samples───▶ SoundWriter ─▶ the player's SoundOutput
/// ```
/// The engine talks to it through a few small owners: `DemuxerControl` (seek, looping), the
/// `FilterMailbox`, the `SoundWriter` (its way into the engine's sound device) and `PipelineStatus`
/// (what the threads report back). Lock order, outermost first: the demuxer's condition (shared by
/// the packet queues) › the frame queue's condition; the status, the mailbox, the sound output and
/// the thread group are leaves. Nothing blocking runs under any of them. The picture stage
/// takes the demuxer's condition (a packet, whether it loops) and the frame queue's one after the other,
/// never one inside the other.
final class MediaPipeline: Sendable {
    let location: MediaLocation
    let status: PipelineStatus
    /// Decoded pictures for the presenter: four (130 ms at 30 fps) absorb decode-time jitter; more
    /// only costs memory (12 MiB at 1080p).
    let frames = BoundedQueue<FrameItem>(maxCount: 4, maxBytes: 64 << 20)
    /// This source's way into the player's sound device.
    let sound: SoundWriter
    let filters = FilterMailbox()
    private let control: DemuxerControl
    /// A local file's sound may play alone when its picture never decodes (it is opened again
    /// without it); other sources cannot be opened that way.
    private let soundMayPlayAlone: Bool
    private let plan: SourcePlan
    /// About 4 s of read-ahead at 30 fps, capped at 8 MiB, like ffplay's bounded packet queues.
    private let videoPackets: BoundedQueue<StageMessage>
    /// The same read-ahead for sound: 400 AAC packets are 8.5 s at 48 kHz.
    private let audioPackets: BoundedQueue<StageMessage>
    /// Subtitle packets (small and sparse) on their way to the subtitle stage.
    private let subtitlePackets: BoundedQueue<StageMessage>
    /// The source's subtitle tracks and the cues read so far.
    let subtitles = SubtitleLibrary()
    private let abort = AbortFlag()
    private let threads = ThreadGroup()

    /// Starts opening `location` on a new demux thread. `frameReady` wakes the engine's loop (after a
    /// frame is queued, and whenever the status changes).
    /// `subtitleFiles` are external subtitle files loaded with the source (their tracks come after
    /// the source's own). The sound stage writes through `sound` (a playlist's next item waits for
    /// the device until the engine hands it over), and `soundEndsWithPicture` cuts its sound at its
    /// picture's end without looping too. `frameCacheBytes` lets a loop that fits be decoded
    /// once (`LoopFrameCache`).
    init(plan: SourcePlan, looping: Bool, soundEndsWithPicture: Bool = false, audio options: AudioOptions = AudioOptions(),
         audioDriver: Result<String, PlayerError>? = nil, sound: SoundWriter, subtitleFiles: [String] = [], subtitleFetch: HTTPFetchOptions = HTTPFetchOptions(),
         frameCacheBytes: Int = 0,
         frameReady: @escaping @Sendable () -> Void) {
        FFmpegLogBridge.install
        let location = plan.location
        self.location = location
        status = PipelineStatus(wake: frameReady)
        self.sound = sound
        control = DemuxerControl(looping: looping)
        soundMayPlayAlone = plan.reading == .file
        self.plan = plan
        videoPackets = BoundedQueue(maxCount: 120, maxBytes: 8 << 20, condition: control.condition)
        audioPackets = BoundedQueue(maxCount: 400, maxBytes: 4 << 20, condition: control.condition)
        subtitlePackets = BoundedQueue(maxCount: 256, maxBytes: 8 << 20, condition: control.condition)

        let driver: String?
        switch audioDriver {
        case let .success(name)? where options.track != .none: driver = name
        case let .failure(error)? where options.track != .none:
            status.post(.warning(error))
            driver = nil
        default: driver = nil
        }
        let setup = driver.map { driver in
            AudioDecodeStage.Setup(driver: driver, writer: sound, status: status, sourceName: location.description)
        }
        let subtitleFiles = SubtitleStage.ExternalFiles(sources: subtitleFiles, fetch: subtitleFetch, abort: abort)
        let launcher = Demuxer.Launcher(
            start: { [self] opened in
                startStages(opened, sound: setup, subtitleFiles: subtitleFiles, frameCacheBytes: frameCacheBytes,
                            frameReady: frameReady)
            },
            startAudio: { [self] start in setup.map { startSound(start, setup: $0) } ?? false })
        let demuxer = Demuxer(plan: plan, audioChoice: options.track, soundWanted: setup != nil,
                              soundEndsWithPicture: soundEndsWithPicture,
                              control: control, status: status, abort: abort,
                              queues: Demuxer.Queues(video: videoPackets, audio: audioPackets, subtitles: subtitlePackets),
                              subtitleLibrary: subtitles, launcher: launcher)
        threads.launch("lp-demux") { demuxer.run() }
    }

    private func startStages(_ opened: OpenedSource, sound: AudioDecodeStage.Setup?,
                             subtitleFiles: SubtitleStage.ExternalFiles, frameCacheBytes: Int,
                             frameReady: @escaping @Sendable () -> Void) -> Bool {
        let pictures = VideoDecodeStage(opened: opened, input: videoPackets, output: frames, filters: filters,
                                        status: status, sourceName: location.description,
                                        frameCacheBytes: frameCacheBytes, soundMayPlayAlone: soundMayPlayAlone,
                                        sizeLimit: plan.sizeLimit,
                                        isLooping: { [control] in control.isLooping },
                                        frameReady: frameReady)
        guard threads.launch("lp-vdecode", { pictures.run() }) else { return false }
        if let start = opened.sound, let sound { _ = startSound(start, setup: sound) }
        if !opened.subtitleDecoders.isEmpty || !subtitleFiles.sources.isEmpty {
            subtitles.expectFiles(subtitleFiles.sources.count)
            let stage = SubtitleStage(input: subtitlePackets, library: subtitles, decoders: opened.subtitleDecoders,
                                      files: subtitleFiles, origin: opened.origin, status: status, wake: frameReady)
            threads.launch("lp-subtitles") { stage.run() }
        } else {
            subtitlePackets.close()
        }
        return true
    }

    private func startSound(_ start: AudioStageStart, setup: AudioDecodeStage.Setup) -> Bool {
        guard !audioPackets.isClosed else { return false }  // a sound stage ran and found no device
        let stage = AudioDecodeStage(start: start, setup: setup, input: audioPackets)
        return threads.launch("lp-adecode") { stage.run() }
    }

    /// Packets read ahead of the decoders (picture and sound) and their bytes: the buffer level.
    var readAhead: (packets: Int, bytes: Int) {
        control.condition.withLock {
            (videoPackets.count + audioPackets.count, videoPackets.bytes + audioPackets.bytes)
        }
    }

    /// A local file replaced since it was opened (copied over, renamed onto, gone).
    var sourceWasReplaced: Bool { plan.fileWasReplaced }

    var isLooping: Bool {
        get { control.isLooping }
        set { control.isLooping = newValue }
    }

    /// Replaces the filters for the frames decoded from now on.
    func setFilters(_ stack: FilterStack) { filters.set(stack) }

    /// Asks for a seek to `position` seconds inside pass `pass` (and a track change with it:
    /// `.some(nil)` for none). Returns the new generation: frames and sound of older ones are stale.
    @discardableResult
    func seek(to position: Double, inPass pass: Int, audioTrack: AudioTrack?? = nil) -> Int {
        let generation = control.nextGeneration()
        // Stale sound stops at once, before the demuxer can produce any of the new generation.
        sound.flush(generation: generation)
        control.requestSeek(.init(generation: generation, position: position, pass: pass, audioTrack: audioTrack))
        return generation
    }

    /// Restarts the sound alone at `position` inside pass `pass`, with `audioTrack` (`nil`: none),
    /// as mpv refreshes a track: the demuxer reads again from there for the sound and sends the
    /// picture only what it has not been sent yet, so the picture plays on untouched.
    func refreshSound(at position: Double, inPass pass: Int, audioTrack: AudioTrack?) {
        let generation = control.nextGeneration()
        sound.flush(generation: generation)
        control.requestSeek(.init(generation: generation, position: position, pass: pass, audioTrack: .some(audioTrack),
                                  keepsPicture: true))
    }

    /// Stops every thread, waits for them and releases every queued packet and frame. Idempotent.
    func stop() {
        abort.raise()
        control.abort()
        videoPackets.close()
        audioPackets.close()
        subtitlePackets.close()
        frames.close()
        sound.cancel()  // wakes a sound stage blocked on a full ring or waiting for the device
        threads.closeAndJoin()
    }

    deinit { stop() }
}
