import Foundation

/// Opens a source the way its plan says (a file, a progressive network source tried again while
/// the failure is transient, our HLS client) and makes the decoders of its streams; a track chosen
/// later gets its decoder here too. Demux thread.
struct SourceOpener {
    let plan: SourcePlan
    let audioChoice: AudioTrackChoice
    /// Sound can be played (a driver started and a real clock): audio decoders are made.
    let soundWanted: Bool
    let control: DemuxerControl
    let status: PipelineStatus
    let abort: AbortFlag
    /// FFmpeg's interrupt callback: the abort flag and the give-up deadline of network reads.
    let interrupt: InputInterrupt
    /// Opens a progressive network source and reconnects it after a lost connection.
    let recovery: ProgressiveRecovery
    let subtitleLibrary: SubtitleLibrary

    private var location: MediaLocation { plan.location }
    private var initialAudioChoice: AudioTrackChoice { soundWanted ? audioChoice : .none }

    /// An open source: its reader and what the decode stages start with.
    struct Opened {
        var reader: SourceReader
        var stages: OpenedSource
        /// A live stream: no passes, looping does not apply.
        var isLive: Bool
    }

    /// Opens the source and makes its decoders (the picture's, the chosen sound track's, every
    /// subtitle stream's).
    func open() throws(PlayerError) -> Opened {
        let (input, network) = try openInput()
        let reader = SourceReader(input: input, network: network, location: location, interrupt: interrupt,
                                  recovery: recovery)
        let pictures: any FrameSource = input.hasVideo
            ? try StreamDecoder(stream: input.timelineStream, sourceName: location.description)
            : BlackPictureSource(info: input.video)
        var info = input.video
        var isLive = false
        if case let .hls(hls) = network {
            info.announcedDuration = hls.session.duration
            isLive = hls.session.isLive
        } else if case .local = network {
            info.announcedDuration = Self.fileLength(of: input)
        }
        let timeline = LoopTimeline(tick: info.timeBase.seconds, origin: input.startTimestamp,
                                    nominalFrameInterval: info.nominalFrameInterval)
        reportUnmatchedTrackChoice(in: input)
        let sound = soundWanted ? makeAudioStage(for: input, generation: 0) : nil
        if sound == nil && input.hasVideo { input.select(audio: nil) }
        status.setAudioTracks(input.audioTracks, current: sound == nil ? nil : input.audioTrack)
        let stages = OpenedSource(info: info, timeline: timeline, pictures: pictures, sound: sound,
                                  discontinuousTimestamps: input.hasDiscontinuousTimestamps,
                                  subtitleDecoders: makeSubtitleDecoders(for: input), origin: input.startSeconds)
        return Opened(reader: reader, stages: stages, isLive: isLive)
    }

    /// A local file's length: its picture's (the loop's), or its sound's without one. The
    /// container's length spans every stream (Matroska gives no track length): the picture's own is
    /// then read from the file's last pictures, so the `duration` said at the start is the loop's,
    /// not corrected once the first pass was read.
    static func fileLength(of input: MediaInput) -> Double? {
        let info = input.video
        guard input.hasVideo, input.timelineStream.pointee.duration <= 0, let end = input.lastPictureEnd() else {
            return info.announcedDuration
        }
        let ticks = max(Int64((info.nominalFrameInterval / info.timeBase.seconds).rounded()), end - input.startTimestamp)
        return Double(ticks) * info.timeBase.seconds
    }

    private func openInput() throws(PlayerError) -> (MediaInput, NetworkReading) {
        switch plan.reading {
        case .file:
            do {
                return (try MediaInput.open(location, interrupt: interrupt, audio: initialAudioChoice, access: .localFile,
                                            ignoringPicture: plan.ignoresPicture, sizeLimit: plan.sizeLimit), .local)
            } catch { throw error.error }
        case .hls:
            return try openHLS(plan.url, kind: plan.kind)
        case .progressive:
            switch try recovery.open(audio: initialAudioChoice) {
            case let .input(input): return (input, .progressive(ProgressiveReading()))
            case .playlist: return try openHLS(plan.url, kind: .remote)  // a playlist without its extension
            }
        }
    }

    private func openHLS(_ url: URL, kind: SourceKind) throws(PlayerError) -> (MediaInput, NetworkReading) {
        let session = HLSSession(url: url, kind: kind, options: plan.network, controls: plan.controls, abort: abort,
                                 isLooping: { [control] in control.isLooping })
        let (hls, input) = try HLSReading.open(session, location: location, interrupt: interrupt, control: control,
                                               abort: abort, audio: initialAudioChoice, sizeLimit: plan.sizeLimit)
        return (input, .hls(hls))
    }

    // MARK: Decoders

    /// The decoder for the input's selected track, or nil (reported) when it cannot be decoded.
    func makeAudioStage(for input: MediaInput, generation: Int) -> AudioStageStart? {
        guard let track = input.audioTrack, let stream = input.audioStream else { return nil }
        do {
            let decoder = try StreamDecoder(stream: stream, sourceName: location.description)
            return AudioStageStart(decoder: decoder, track: track, origin: input.startSeconds, generation: generation)
        } catch {
            status.post(.warning(.audioUnavailable(reason: "\(error.description)")))
            return nil
        }
    }

    /// A decoder for each subtitle stream, its track listed in the library (a stream FFmpeg cannot
    /// decode is listed all the same, and reported).
    private func makeSubtitleDecoders(for input: MediaInput) -> [Int32: (decoder: SubtitleDecoder, track: Int)] {
        var decoders: [Int32: (decoder: SubtitleDecoder, track: Int)] = [:]
        for track in input.subtitleTracks {
            guard let stream = input.stream(of: track) else { continue }
            do {
                let decoder = try SubtitleDecoder(stream: stream, sourceName: location.description)
                decoders[track.streamIndex] = (decoder, subtitleLibrary.add(track, header: decoder.assHeader))
            } catch {
                subtitleLibrary.add(track, header: nil)
                status.post(.warning(error))
            }
        }
        return decoders
    }

    /// A track asked for by language or number that the source does not have: said once; the
    /// automatic track plays instead.
    private func reportUnmatchedTrackChoice(in input: MediaInput) {
        let tracks = input.audioTracks
        let missing: String
        switch audioChoice {
        case let .language(code) where !tracks.contains(where: { $0.matches(language: code) }): missing = code
        case let .number(number) where !tracks.contains(where: { $0.number == number }): missing = "#\(number)"
        default: return
        }
        status.post(.warning(.audioTrackNotFound(language: missing, available: tracks.map(\.label))))
    }
}

/// What the pipeline needs to start the decode stages.
struct OpenedSource: Sendable {
    var info: VideoStreamInfo
    var timeline: LoopTimeline
    var pictures: any FrameSource
    var sound: AudioStageStart?
    /// The container may jump in time (MPEG-TS): big jumps are smoothed over, as ffplay does.
    var discontinuousTimestamps: Bool
    /// Stream index → decoder and library track, for the subtitle stage.
    var subtitleDecoders: [Int32: (decoder: SubtitleDecoder, track: Int)]
    /// Seconds of the input's start (cue times are made relative to it).
    var origin: Double
}

/// What a sound stage starts with.
struct AudioStageStart: Sendable {
    var decoder: StreamDecoder
    var track: AudioTrack
    /// Timeline seconds of the input's start (the audio's timestamps are made relative to it).
    var origin: Double
    var generation: Int
}
