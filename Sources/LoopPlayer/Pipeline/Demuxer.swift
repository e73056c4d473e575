import CFFmpeg
import FFmpegSupport
import Foundation

/// The demux thread: opens the input, reads packets, rewinds at the end of each pass and moves
/// every pass onto the loop's one timeline (pass k at `pts + k · loopDuration`), and sends packets
/// and control markers to the decode stages. It never flushes a decoder at a wrap: the stages just
/// see more packets, and a `passEnded` marker between them.
final class Demuxer: @unchecked Sendable {  // made by the pipeline, then used only on the demux thread
    /// How the demuxer starts the decode stages once the input is open (the pipeline owns them).
    struct Launcher: Sendable {
        /// Starts the picture stage (and the sound stage when `audio` is given). False if the
        /// pipeline stopped meanwhile.
        var start: @Sendable (OpenedSource) -> Bool
        /// Starts a sound stage for a track chosen later, when none runs. False if none could start.
        var startAudio: @Sendable (AudioStageStart) -> Bool
    }

    let plan: SourcePlan
    var location: MediaLocation { plan.location }
    let audioChoice: AudioTrackChoice
    /// Sound can be played (a driver started and a real clock): audio decoders are made.
    let soundWanted: Bool
    /// Without looping too, the sound ends where the picture does (a playlist item: what the encoder
    /// padded after the picture would delay the next item's sound).
    let soundEndsWithPicture: Bool
    let control: DemuxerControl
    let status: PipelineStatus
    let abort: AbortFlag
    /// FFmpeg's interrupt callback: the abort flag and the give-up deadline of network reads.
    let interrupt: InputInterrupt
    /// Opens a progressive network source and reconnects it after a lost connection.
    let recovery: ProgressiveRecovery
    let video: BoundedQueue<StageMessage>
    let audio: BoundedQueue<StageMessage>
    private let subtitles: BoundedQueue<StageMessage>
    private let subtitleLibrary: SubtitleLibrary
    private let launcher: Launcher

    init(plan: SourcePlan, audioChoice: AudioTrackChoice, soundWanted: Bool, soundEndsWithPicture: Bool = false,
         control: DemuxerControl,
         status: PipelineStatus, abort: AbortFlag, video: BoundedQueue<StageMessage>, audio: BoundedQueue<StageMessage>,
         subtitles: BoundedQueue<StageMessage>, subtitleLibrary: SubtitleLibrary, launcher: Launcher) {
        self.plan = plan
        interrupt = InputInterrupt(abort: abort)
        recovery = ProgressiveRecovery(location: plan.location, url: plan.url, kind: plan.kind, network: plan.network,
                                       interrupt: interrupt, abort: abort)
        self.audioChoice = audioChoice
        self.soundWanted = soundWanted
        self.soundEndsWithPicture = soundEndsWithPicture
        self.control = control
        self.status = status
        self.abort = abort
        self.video = video
        self.audio = audio
        self.subtitles = subtitles
        self.subtitleLibrary = subtitleLibrary
        self.launcher = launcher
    }

    /// What the read loop carries from packet to packet.
    struct Reading {
        var input: MediaInput
        var timeline: LoopTimeline
        var generation = 0
        var pass = 0
        /// Added to the timestamps of this pass, in the timeline stream's ticks.
        var offset: Int64 = 0
        /// The input reached its end and is not looping (waiting for a seek or for looping).
        var atEnd = false
        var timelinePacketsThisPass = 0
        var reopenedThisPass = false
        /// A sound stage takes the audio packets.
        var soundRouted: Bool
        /// Sound stored far ahead of the picture is being dropped (said once).
        var droppingSound = false
        /// Subtitle streams whose packets the subtitle stage decodes.
        var subtitleStreams: Set<Int32>
        /// How a network source is read (HLS stream, reconnects); `.local` for files.
        var network = NetworkReading.local
        /// A live stream: no passes, looping does not apply.
        var isLive = false
        var saidLiveIsNotLooped = false
        /// A fatal error was reported: the thread ends, nothing more is sent.
        var failed = false
    }

    /// The thread's body.
    func run() {
        guard var reading = open() else { return }
        defer { control.setInterrupter(nil) }
        while true {
            var requests = control.take()
            if requests.aborted || abort.isRaised || reading.failed { return }
            if let seek = requests.seek {
                perform(seek, &reading)
                continue
            }
            if reading.isLive {
                // Looping does not apply to a live stream: said (once) whenever it is asked for.
                if requests.looping && !reading.saidLiveIsNotLooped {
                    reading.saidLiveIsNotLooped = true
                    status.post(.warning(.liveStreamNotLooped(source: location.description)))
                }
                requests.looping = false
            }
            if reading.atEnd {
                if requests.looping {  // looping was switched on after the end: continue with the next pass
                    reading.atEnd = false
                    if !wrap(&reading) { endOfStream(&reading) }
                } else {
                    control.waitForRequest(whileNotLooping: true)
                }
                continue
            }
            guard let packet = OwnedPacket() else { return }
            armReadDeadline(reading)
            let status = reading.input.readPacket(into: packet.pointer)
            if status == FFmpegError.tryAgain {
                // A non-blocking protocol has nothing yet: wait a little, or less if asked something.
                control.waitForRequest(whileNotLooping: false, deadline: MonotonicCondition.now + 0.005)
                continue
            }
            if status < 0 {
                if abort.isRaised { return }
                switch readFailed(status, &reading) {
                case .endOfInput: endOfPass(&reading, looping: requests.looping)
                case .resumed: break
                case .failed: return
                }
                if reading.failed { return }
                continue
            }
            switch place(packet, &reading, looping: requests.looping) {
            case let .route(placement): route(packet, &reading, looping: requests.looping, placement: placement)
            case let .hold(placement): hold(packet, placement, &reading)
            case .drop: break
            }
        }
    }

    // MARK: Opening

    private func open() -> Reading? {
        let input: MediaInput
        let network: NetworkReading
        let pictures: any FrameSource
        do {
            (input, network) = try openInput()
            pictures = input.hasVideo ? try StreamDecoder(stream: input.timelineStream, sourceName: location.description)
                : BlackPictureSource(info: input.video)
        } catch {
            status.setPhase(.failed(error))
            return nil
        }
        var info = input.video
        if case let .hls(hls) = network { info.announcedDuration = hls.session.duration }
        let timeline = LoopTimeline(tick: info.timeBase.seconds, origin: input.startTimestamp,
                                    nominalFrameInterval: info.nominalFrameInterval)
        reportUnmatchedTrackChoice(in: input)
        let sound = soundWanted ? makeAudioStage(for: input, generation: 0) : nil
        if sound == nil && input.hasVideo { input.select(audio: nil) }
        status.setAudioTracks(input.audioTracks, current: sound == nil ? nil : input.audioTrack)
        let subtitleDecoders = makeSubtitleDecoders(for: input)
        let opened = OpenedSource(info: info, timeline: timeline, pictures: pictures, sound: sound,
                                  discontinuousTimestamps: input.hasDiscontinuousTimestamps,
                                  subtitleDecoders: subtitleDecoders, origin: input.startSeconds)
        guard launcher.start(opened) else { return nil }
        status.setPhase(.ready(info))
        var reading = Reading(input: input, timeline: timeline, soundRouted: sound != nil,
                              subtitleStreams: Set(subtitleDecoders.keys))
        reading.network = network
        if case let .hls(hls) = network { reading.isLive = hls.session.isLive }
        return reading
    }

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

    // MARK: Routing

    /// Sends a packet of pass `placement.pass` on, its timestamps moved onto the loop's timeline.
    func route(_ packet: consuming OwnedPacket, _ reading: inout Reading, looping: Bool, placement: PacketPlacement) {
        let input = reading.input
        let index = packet.pointer.pointee.stream_index
        let timelineIndex = input.timelineStream.pointee.index
        let offset = reading.timeline.offset(forPass: placement.pass)
        if index == timelineIndex {
            reading.timelinePacketsThisPass += 1
            if placement.pass == 0, packet.pointer.pointee.flags & AV_PKT_FLAG_DISCARD == 0 {
                let stamped = packet.pointer.pointee
                let pts = stamped.pts != noTimestamp ? stamped.pts : stamped.dts != noTimestamp ? stamped.dts : nil
                reading.timeline.observeFirstPass(pts: pts, duration: stamped.duration)
            }
            shift(packet.pointer, by: offset)
        } else if let audioTimeBase = input.audioStream?.pointee.time_base {
            shift(packet.pointer, by: offset == 0 ? 0
                  : av_rescale_q(offset, input.video.timeBase, audioTimeBase))
        }
        var context = PacketContext(generation: reading.generation, pass: placement.pass, variant: placement.variant)
        let bytes = packet.byteCount
        if reading.subtitleStreams.contains(index) {
            // Never waited for: the subtitle stage takes a cue in microseconds; a full queue drops.
            if subtitles.push(.packet(packet, context), bytes: bytes, giveUp: { true }) == .closed {
                reading.subtitleStreams.removeAll()
            }
            return
        }
        if index == input.videoStreamIndex {
            _ = video.push(.packet(packet, context), bytes: bytes, giveUp: { [control] in control.hasUrgentRequestLocked })
            return
        }
        // Audio-only media: the black picture follows the sound's packets (a reference, no copy).
        if !input.hasVideo, let copy = packet.reference() {
            _ = video.push(.packet(copy, context), bytes: 64, giveUp: { [control] in control.hasUrgentRequestLocked })
        }
        guard reading.soundRouted else { return }
        // While pass 0 is read the loop's length is unknown: sound past the picture read so far waits.
        if (looping || soundEndsWithPicture) && placement.pass == 0 {
            context.pictureExtent = reading.timeline.firstPassEndSeconds ?? 0
        }
        // Sound stored far ahead of the picture must not starve it: while the picture's queue is
        // empty a full sound queue drops instead of waiting (the picture cannot play meanwhile).
        let pictures = video
        let result = audio.push(.packet(packet, context), bytes: bytes, giveUp: { [control] in
            control.hasUrgentRequestLocked || pictures.countLocked == 0
        })
        switch result {
        case .queued:
            reading.droppingSound = false
        case .gaveUp:
            if !reading.droppingSound && !control.condition.withLock({ control.hasUrgentRequestLocked }) {
                logger.notice("\(location): the sound is stored far ahead of the picture; dropping sound until the picture catches up")
            }
            reading.droppingSound = true
        case .closed:
            reading.soundRouted = false  // the sound stage ended (no device)
        }
    }

    /// Moves a packet of a later pass onto the timeline (`offset` in the packet's time base).
    private func shift(_ packet: UnsafeMutablePointer<AVPacket>, by offset: Int64) {
        guard offset != 0 else { return }
        if packet.pointee.pts != noTimestamp { packet.pointee.pts += offset }
        if packet.pointee.dts != noTimestamp { packet.pointee.dts += offset }
    }

    // MARK: The end of a pass

    private func endOfPass(_ reading: inout Reading, looping: Bool) {
        guard looping else {
            if soundEndsWithPicture { cutSoundAtThePicturesEnd(&reading) }
            return endOfStream(&reading)
        }
        if reading.timelinePacketsThisPass == 0 {
            // A rewind the server only pretended to do (no range requests): start over instead.
            if reading.pass > 0, !reading.reopenedThisPass, !reading.network.isHLS, reopen(&reading) {
                reading.reopenedThisPass = true
                return
            }
            // A pass that yields nothing cannot loop: end instead of spinning.
            if reading.pass > 0 { stopLooping(because: "the input held no packets after rewinding") }
            return endOfStream(&reading)
        }
        if !wrap(&reading) { endOfStream(&reading) }
    }

    /// Rewinds for the next pass (reopening an input that cannot seek back) and tells the stages the
    /// loop's length. False if looping had to stop.
    private func wrap(_ reading: inout Reading) -> Bool {
        guard rewindForNextPass(&reading) else {
            if !abort.isRaised && !reading.failed && !control.hasPendingSeek {
                stopLooping(because: "the input cannot go back to its start")
            }
            return false
        }
        finishPass(&reading)
        return true
    }

    /// The input is back at its start: the stages learn the loop's length, the next pass begins.
    func finishPass(_ reading: inout Reading) {
        reading.offset = reading.timeline.wrap()
        let loopDuration = reading.timeline.loopDuration ?? 0
        let seconds = Double(loopDuration) * reading.timeline.tick
        if reading.pass == 0 {
            logger.debug("\(location): one pass lasts \(seconds) s; looping on one timeline")
            status.setLoopDuration(seconds)
        }
        let boundary = PassBoundary(generation: reading.generation, pass: reading.pass, loopDuration: loopDuration,
                                    loopSeconds: seconds)
        send(.passEnded(boundary), to: video)
        if reading.soundRouted { send(.passEnded(boundary), to: audio) }
        reading.pass += 1
        reading.timelinePacketsThisPass = 0
        reading.reopenedThisPass = false
        passBegan(&reading)
    }

    /// Opens the source again from its first byte (the same stream is required); the decoders are kept.
    func reopen(_ reading: inout Reading) -> Bool {
        let current = reading.input
        let choice = current.audioTrack.map { AudioTrackChoice.number($0.number) } ?? AudioTrackChoice.none
        guard let reopened = try? MediaInput.open(location, interrupt: interrupt, audio: choice, access: recovery.access),
              reopened.video.codecName == current.video.codecName, reopened.video.width == current.video.width,
              reopened.video.height == current.video.height else { return false }
        reading.input = reopened
        logger.debug("\(location): reopened for the next pass (the input cannot seek back)")
        return true
    }

    /// The sound stage learns the last pass's length, as at a wrap: it cuts what the sound has past
    /// the picture and pads what it lacks.
    private func cutSoundAtThePicturesEnd(_ reading: inout Reading) {
        guard reading.soundRouted, !reading.isLive, reading.timelinePacketsThisPass > 0,
              let length = reading.timeline.loopDuration ?? reading.timeline.measuredLength else { return }
        let boundary = PassBoundary(generation: reading.generation, pass: reading.pass, loopDuration: length,
                                    loopSeconds: Double(length) * reading.timeline.tick)
        send(.passEnded(boundary), to: audio)
    }

    func stopLooping(because reason: String) {
        control.isLooping = false
        status.post(.loopingStopped(.loopingStopped(source: location.description, reason: reason)))
    }

    func endOfStream(_ reading: inout Reading) {
        reading.atEnd = true
        guard !reading.failed else { return }  // a network failure is never the end of the media
        send(.endOfStream(generation: reading.generation), to: video)
        if reading.soundRouted { send(.endOfStream(generation: reading.generation), to: audio) }
    }

    /// Markers wait for room like packets, but a pending seek makes them pointless.
    func send(_ message: consuming StageMessage, to queue: BoundedQueue<StageMessage>) {
        _ = queue.push(message, giveUp: { [control] in control.hasUrgentRequestLocked })
    }

    // MARK: Seeking

    private func perform(_ seek: DemuxerControl.SeekRequest, _ reading: inout Reading) {
        video.removeAll()
        audio.removeAll()
        reading.generation = seek.generation
        var audioDecoder: StreamDecoder?
        if let change = seek.audioTrack {
            audioDecoder = switchTrack(to: change, &reading)
        }
        reading.timeline.resume(inPass: seek.pass)
        let target = reading.timeline.origin + Int64((max(0, seek.position) / reading.timeline.tick).rounded(.down))
        reading.offset = reading.timeline.offset(forPass: seek.pass)
        reading.pass = seek.pass
        reading.atEnd = false
        reading.timelinePacketsThisPass = 0
        passBegan(&reading)
        if !seekInput(to: target, position: max(0, seek.position), pass: seek.pass, &reading) {
            logger.warning("\(location): seek to \(seek.position) s failed")
        }
        let floor = reading.isLive ? reading.timeline.origin : target + reading.offset
        let marker = SeekMarker(generation: seek.generation, floor: floor, floorSeconds: reading.timeline.seconds(floor),
                                pass: seek.pass, audioDecoder: nil)
        send(.seek(marker), to: video)
        if !reading.subtitleStreams.isEmpty { _ = subtitles.push(.seek(marker), giveUp: { true }) }
        if reading.soundRouted {
            var audioMarker = marker
            audioMarker.audioDecoder = audioDecoder
            send(.seek(audioMarker), to: audio)
        }
    }

    /// Reads `track` from now on (nil: none). Returns the decoder the running sound stage takes
    /// with the seek marker; starts a sound stage when none runs.
    private func switchTrack(to track: AudioTrack?, _ reading: inout Reading) -> StreamDecoder? {
        let input = reading.input
        guard input.hasVideo else { return nil }  // audio-only media keep their track: it is the timeline
        input.select(audio: track)
        guard track != nil, let start = makeAudioStage(for: input, generation: reading.generation) else {
            if track != nil { input.select(audio: nil) }
            status.setAudioTracks(input.audioTracks, current: nil)
            return nil
        }
        status.setAudioTracks(input.audioTracks, current: track)
        if reading.soundRouted { return start.decoder }
        reading.soundRouted = launcher.startAudio(start)
        if !reading.soundRouted { input.select(audio: nil) }
        return nil
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
