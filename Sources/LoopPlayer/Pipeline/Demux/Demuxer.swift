import CFFmpeg
import FFmpegSupport
import Foundation

/// The demux thread's loop: it opens the source (`SourceOpener`), reads its packets
/// (`SourceReader`), rewinds at the end of each pass and puts every pass on the loop's one timeline
/// (pass k at `pts + k · loopDuration`), takes seeks, and hands packets and markers to the
/// `PacketRouter`. It never flushes a decoder at a wrap: the stages just see more packets, and a
/// `passEnded` marker between them.
final class Demuxer {
    /// How the demuxer starts the decode stages once the input is open (the pipeline owns them).
    struct Launcher: Sendable {
        /// Starts the picture stage (and the sound stage when `audio` is given). False if the
        /// pipeline stopped meanwhile.
        var start: @Sendable (OpenedSource) -> Bool
        /// Starts a sound stage for a track chosen later, when none runs. False if none could start.
        var startAudio: @Sendable (AudioStageStart) -> Bool
    }

    /// The queues to the decode stages (the router sends on them).
    struct Queues: Sendable {
        var video: BoundedQueue<StageMessage>
        var audio: BoundedQueue<StageMessage>
        var subtitles: BoundedQueue<StageMessage>
    }

    private let opener: SourceOpener
    private var plan: SourcePlan { opener.plan }
    private var location: MediaLocation { plan.location }
    /// Without looping too, the sound ends where the picture does (a playlist item: what the encoder
    /// padded after the picture would delay the next item's sound).
    private let soundEndsWithPicture: Bool
    private let control: DemuxerControl
    private let status: PipelineStatus
    private let abort: AbortFlag
    private let queues: Queues
    private let launcher: Launcher

    init(plan: SourcePlan, audioChoice: AudioTrackChoice, soundWanted: Bool, soundEndsWithPicture: Bool = false,
         control: DemuxerControl, status: PipelineStatus, abort: AbortFlag, queues: Queues,
         subtitleLibrary: SubtitleLibrary, launcher: Launcher) {
        let interrupt = InputInterrupt(abort: abort)
        var recovery = ProgressiveRecovery(location: plan.location, url: plan.url, kind: plan.kind, network: plan.network,
                                           interrupt: interrupt, abort: abort)
        recovery.sizeLimit = plan.sizeLimit
        opener = SourceOpener(plan: plan, audioChoice: audioChoice, soundWanted: soundWanted, control: control,
                              status: status, abort: abort, interrupt: interrupt, recovery: recovery,
                              subtitleLibrary: subtitleLibrary)
        self.soundEndsWithPicture = soundEndsWithPicture
        self.control = control
        self.status = status
        self.abort = abort
        self.queues = queues
        self.launcher = launcher
    }

    /// What the read loop carries from packet to packet.
    struct Reading {
        var reader: SourceReader
        var router: PacketRouter
        var timeline: LoopTimeline
        /// The sound's generation.
        var generation = 0
        /// The picture's (and subtitles') generation: a sound refresh leaves it.
        var pictureGeneration = 0
        /// The last picture packet sent, as (pass, dts): after a sound refresh, picture and subtitle
        /// packets up to it were sent already and are dropped (`catchingUp`).
        var lastPicture: PicturePlace?
        var catchingUp: PicturePlace?
        /// Passes whose end the picture stage was told (passes before a seek's count as told).
        var picturePassesEnded = 0
        /// The picture stage was told the end of the stream.
        var pictureEnded = false
        /// The next sound packet is the stream's first: the input opened, wrapped, or was sought to
        /// a pass's start (`PacketContext.startsSound`).
        var soundStartsNext = true
        /// The last subtitle packet sent, as `lastPicture` (a refresh's catch-up sends later ones).
        var lastSubtitle: PicturePlace?
        var pass = 0
        /// The input reached its end and is not looping (waiting for a seek or for looping).
        var atEnd = false
        var timelinePacketsThisPass = 0
        var reopenedThisPass = false
        /// A live stream: no passes, looping does not apply.
        var isLive = false
        var saidLiveIsNotLooped = false
        /// A fatal error was reported: the thread ends, nothing more is sent.
        var failed = false
        /// The file was replaced: at its end it does not loop again (a seek reads it once more).
        var replaced = false
        /// Looping stopped here (the input could not go back): an end is final, not resumable.
        var loopingStopped = false

        var input: MediaInput { reader.input }
    }

    /// Where a picture packet lies in reading order: its pass, then its byte position in the file
    /// (timestamps are no order: Matroska gives B-frames no dts, a stream may jump back). `stamp`:
    /// its timestamp, in the timeline stream's ticks of its pass.
    struct PicturePlace {
        var pass: Int
        var position: Int64
        var stamp: Int64

        /// Whether this packet was read after `other` (packets split from one read share a position:
        /// their stamps tell them apart).
        func follows(_ other: PicturePlace) -> Bool { (pass, position, stamp) > (other.pass, other.position, other.stamp) }
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
                if requests.looping && !reading.replaced {  // looping was switched on after the end: continue with the next pass
                    reading.atEnd = false
                    if !wrap(&reading) { endOfStream(&reading) }
                } else {
                    // A replaced file is not read again (its new content is another item): only a
                    // seek or the stop wakes the demuxer, not looping, which is on (it spun here).
                    control.waitForRequest(whileNotLooping: !reading.replaced)
                }
                continue
            }
            guard let packet = OwnedPacket() else { return }
            let status = reading.reader.read(into: packet.pointer)
            if status == FFmpegError.tryAgain {
                // A non-blocking protocol has nothing yet: wait a little, or less if asked something.
                control.waitForRequest(whileNotLooping: false, deadline: MonotonicCondition.now + 0.005)
                continue
            }
            if status < 0 {
                if abort.isRaised { return }
                switch reading.reader.readFailed(status) {
                case .endOfInput: endOfPass(&reading, looping: requests.looping)
                case .resumed: break
                case let .failed(failure):
                    fail(failure, &reading)
                    return
                }
                if reading.failed { return }
                continue
            }
            place(packet, &reading, looping: requests.looping)
        }
    }

    // MARK: Opening

    private func open() -> Reading? {
        let source: SourceOpener.Opened
        do { source = try opener.open() } catch {
            status.setPhase(.failed(error))
            return nil
        }
        guard launcher.start(source.stages) else { return nil }
        status.setPhase(.ready(source.stages.info))
        let router = PacketRouter(video: queues.video, audio: queues.audio, subtitles: queues.subtitles, control: control,
                                  location: location, soundRouted: source.stages.sound != nil,
                                  subtitleStreams: Set(source.stages.subtitleDecoders.keys))
        return Reading(reader: source.reader, router: router, timeline: source.stages.timeline, isLive: source.isLive)
    }

    // MARK: Packets

    /// Routes, holds or drops a packet, as its place on the timeline says.
    private func place(_ packet: consuming OwnedPacket, _ reading: inout Reading, looping: Bool) {
        switch reading.reader.place(packet, pass: reading.pass, looping: looping) {
        case let .route(placement):
            route(packet, placement, &reading, looping: looping)
        case let .beginsPass(placement):
            while reading.pass < placement.pass { finishPass(&reading) }
            for (stored, heldPlacement) in reading.reader.takeHeld() {
                guard let held = OwnedPacket() else { continue }
                av_packet_move_ref(held.pointer, stored.pointer)
                route(held, heldPlacement, &reading, looping: looping)
            }
            route(packet, placement, &reading, looping: looping)
        case let .hold(placement):
            reading.reader.hold(packet, placement)
        case .endOfMedia:
            if !reading.atEnd { endOfStream(&reading, resumable: !looping) }
        case .drop:
            break
        }
    }

    /// Sends a packet of pass `placement.pass` on. Its picture packets measure the first pass and
    /// tell the reader how far the picture got; while pass 0 is read, sound carries how far the
    /// picture reaches.
    private func route(_ packet: consuming OwnedPacket, _ placement: PacketPlacement, _ reading: inout Reading,
                       looping: Bool) {
        let input = reading.input
        let index = packet.pointer.pointee.stream_index
        let isPicture = index == input.timelineStream.pointee.index && input.hasVideo
        let place = PicturePlace(pass: placement.pass, position: packet.pointer.pointee.pos,
                                 stamp: Self.stamp(of: packet.pointer))
        let isSound = index == input.audioTrack?.streamIndex
        if let sent = reading.catchingUp, !isSound {
            // After a sound refresh: what the picture and the subtitles were sent already is not
            // sent again; the first picture packet read after it ends the catching up.
            if isPicture {
                guard place.follows(sent) else {
                    reading.timelinePacketsThisPass += 1
                    return
                }
                reading.catchingUp = nil
            } else if let subtitle = reading.lastSubtitle, !place.follows(subtitle) {
                return
            }
        }
        if index == input.timelineStream.pointee.index {
            reading.timelinePacketsThisPass += 1
            if placement.pass == 0, packet.pointer.pointee.flags & AV_PKT_FLAG_DISCARD == 0 {
                let stamped = packet.pointer.pointee
                let pts = stamped.pts != noTimestamp ? stamped.pts : stamped.dts != noTimestamp ? stamped.dts : nil
                // Audio-only media end with their last sample heard: the encoder's padding (the
                // packet's discard) is not the loop's (it was a gap at every wrap: 13.5 ms for Opus).
                let padding = input.hasVideo ? 0 : Self.discardedTicks(packet.pointer, of: input)
                if stamped.duration - padding > 0 || stamped.duration <= 0 {
                    reading.timeline.observeFirstPass(pts: pts, duration: stamped.duration - padding)
                }
            }
            reading.reader.pictureRouted(packet.pointer, placement: placement, timeline: reading.timeline)
        }
        let context = PacketContext(generation: reading.pictureGeneration, pass: placement.pass, variant: placement.variant)
        // While pass 0 is read the loop's length is unknown: sound past the picture read so far waits.
        let extent = (looping || soundEndsWithPicture) && placement.pass == 0 ? reading.timeline.firstPassEndSeconds ?? 0 : nil
        let startsSound = isSound && reading.soundStartsNext
        if isSound { reading.soundStartsNext = false }
        let sentPicture = reading.router.route(packet, of: input, context: context, soundGeneration: reading.generation,
                                               offset: reading.timeline.offset(forPass: placement.pass),
                                               soundPictureExtent: extent, startsSound: startsSound)
        if isPicture, sentPicture { reading.lastPicture = place }
        if !isPicture, !isSound { reading.lastSubtitle = place }
    }

    /// The samples a sound packet's end discards (`AV_PKT_DATA_SKIP_SAMPLES`), in its stream's
    /// ticks, where its duration still counts them (Matroska, MP3; Ogg's durations are already
    /// trimmed: counted twice, its loops came out 93 ms long or 5 ms short).
    private static func discardedTicks(_ packet: UnsafeMutablePointer<AVPacket>, of input: MediaInput) -> Int64 {
        let stream = input.timelineStream
        var size = 0
        guard !input.formatName.hasPrefix("ogg"),
              let side = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8,
              let rate = stream.pointee.codecpar?.pointee.sample_rate, rate > 0 else { return 0 }
        let samples = (0..<4).reduce(Int64(0)) { $0 | Int64(side[4 + $1]) << (8 * Int64($1)) }
        return av_rescale_q(samples, AVRational(num: 1, den: rate), stream.pointee.time_base)
    }

    /// A packet's timestamp (its dts, else its pts).
    private static func stamp(of packet: UnsafeMutablePointer<AVPacket>) -> Int64 {
        packet.pointee.dts != noTimestamp ? packet.pointee.dts : packet.pointee.pts
    }

    // MARK: The end of a pass

    private func endOfPass(_ reading: inout Reading, looping: Bool) {
        // A looping file replaced since it was opened plays its new content from the next pass.
        if looping, plan.fileWasReplaced {
            cutSoundAtThePicturesEnd(&reading)
            return replaced(&reading)
        }
        guard looping else {
            if soundEndsWithPicture { cutSoundAtThePicturesEnd(&reading) }
            return endOfStream(&reading, resumable: true)
        }
        if reading.timelinePacketsThisPass == 0 {
            // A rewind the server only pretended to do (no range requests): start over instead.
            if reading.pass > 0, !reading.reopenedThisPass, !reading.reader.isHLS, reading.reader.reopen() {
                reading.reopenedThisPass = true
                return
            }
            // A pass that yields nothing cannot loop: end instead of spinning.
            if reading.pass > 0 {
                reading.loopingStopped = true
                stopLooping(because: "the input held no packets after rewinding")
            }
            return endOfStream(&reading)
        }
        if !wrap(&reading) { endOfStream(&reading) }
    }

    /// Rewinds for the next pass (reopening an input that cannot seek back) and tells the stages the
    /// loop's length. False if looping had to stop.
    private func wrap(_ reading: inout Reading) -> Bool {
        do {
            guard try reading.reader.rewind(forPass: reading.pass + 1) else {
                if !abort.isRaised && !control.hasPendingSeek {
                    reading.loopingStopped = true
                    stopLooping(because: "the input cannot go back to its start")
                }
                return false
            }
        } catch {
            fail(error, &reading)
            return false
        }
        finishPass(&reading)
        return true
    }

    /// The input is back at its start: the stages learn the loop's length, the next pass begins.
    private func finishPass(_ reading: inout Reading) {
        _ = reading.timeline.wrap()
        let loopDuration = reading.timeline.loopDuration ?? 0
        let seconds = Double(loopDuration) * reading.timeline.tick
        if reading.pass == 0 {
            logger.debug("\(location): one pass lasts \(seconds) s; looping on one timeline")
            status.setLoopDuration(seconds)
        }
        let boundary = PassBoundary(generation: reading.pictureGeneration, pass: reading.pass,
                                    loopDuration: loopDuration, loopSeconds: seconds)
        // Read again for a sound refresh, a pass's end the picture was told already is the sound's alone.
        let toPicture = reading.pass >= reading.picturePassesEnded
        if toPicture { reading.picturePassesEnded = reading.pass + 1 }
        reading.router.passEnded(boundary, soundGeneration: reading.generation, toPicture: toPicture)
        reading.pass += 1
        reading.timelinePacketsThisPass = 0
        reading.reopenedThisPass = false
        reading.soundStartsNext = true
        reading.reader.passBegan()
    }

    /// The sound stage learns the last pass's length, as at a wrap: it cuts what the sound has past
    /// the picture and pads what it lacks.
    private func cutSoundAtThePicturesEnd(_ reading: inout Reading) {
        guard reading.router.soundRouted, !reading.isLive, reading.timelinePacketsThisPass > 0,
              let length = reading.timeline.loopDuration ?? reading.timeline.measuredLength else { return }
        let boundary = PassBoundary(generation: reading.generation, pass: reading.pass, loopDuration: length,
                                    loopSeconds: Double(length) * reading.timeline.tick)
        reading.router.soundPassEnded(boundary)
    }

    private func stopLooping(because reason: String) {
        control.isLooping = false
        status.post(.loopingStopped(.loopingStopped(source: location.description, reason: reason)))
    }

    /// `resumable`: the end came because looping was off, and switching it on goes on (never for a
    /// live stream, nor once looping had to stop here).
    private func endOfStream(_ reading: inout Reading, resumable: Bool = false) {
        reading.atEnd = true
        guard !reading.failed else { return }  // a network failure is never the end of the media
        let resumable = resumable && !reading.isLive && !reading.loopingStopped
        reading.router.endOfStream(pictureGeneration: reading.pictureGeneration, soundGeneration: reading.generation,
                                   toPicture: !reading.pictureEnded, resumable: resumable)
        reading.pictureEnded = true
    }

    /// Reports a failure to read on; after a network failure what was read plays first (the
    /// picture's packets are decoded and shown). A seek or a stop cuts that short.
    private func fail(_ failure: ReadFailure, _ reading: inout Reading) {
        let error: PlayerError
        switch failure {
        case .interrupted:
            return
        case let .fatal(fatal):
            error = fatal
        case let .afterPlaying(lost):
            reading.router.waitUntilPicturesTaken()
            if abort.isRaised { return }
            error = lost
        }
        // Copied over while it was read: the failure is the old content's, not the source's.
        if plan.fileWasReplaced { return replaced(&reading) }
        reading.failed = true
        status.post(.fatal(error))
    }

    /// The file was replaced: what was read plays out, and the engine queues the new content to
    /// follow it without a gap. The thread stays (a seek still plays the old content meanwhile), but
    /// does not loop the old content again.
    private func replaced(_ reading: inout Reading) {
        status.post(.sourceReplaced)
        endOfStream(&reading)
        reading.replaced = true
    }

    // MARK: Seeking

    private func perform(_ seek: DemuxerControl.SeekRequest, _ reading: inout Reading) {
        reading.generation = seek.generation
        guard let picture = seek.pictureGeneration else { return refreshSound(seek, &reading) }
        reading.router.clear()
        reading.pictureGeneration = picture
        reading.catchingUp = nil
        reading.lastPicture = nil
        reading.picturePassesEnded = seek.pass
        reading.pictureEnded = false
        reading.lastSubtitle = nil
        reading.soundStartsNext = seek.position <= 0
        var audioDecoder: StreamDecoder?
        if let change = seek.audioTrack {
            audioDecoder = switchTrack(to: change, &reading)
        }
        let target = Self.target(of: seek, on: reading.timeline)
        beginPass(seek.pass, &reading)
        do {
            if try !reading.reader.seek(to: target, position: max(0, seek.position), pass: seek.pass) {
                logger.warning("\(location): seek to \(seek.position) s failed")
            }
        } catch {
            fail(error, &reading)
            logger.warning("\(location): seek to \(seek.position) s failed")
        }
        let floor = reading.isLive ? reading.timeline.origin : target + reading.timeline.offset(forPass: seek.pass)
        let marker = SeekMarker(generation: picture, floor: floor, floorSeconds: reading.timeline.seconds(floor),
                                pass: seek.pass, audioDecoder: nil)
        reading.router.seek(marker, soundGeneration: seek.generation, audioDecoder: audioDecoder)
    }

    /// A sound refresh (a track change): the input goes back to the picture's position for the
    /// sound alone; picture and subtitle packets are sent on only from where they had been read to
    /// (`catchingUp`), so the picture plays on. If the input cannot go back, the sound restarts where
    /// the reading is.
    private func refreshSound(_ seek: DemuxerControl.SeekRequest, _ reading: inout Reading) {
        reading.router.clearSound()
        let audioDecoder = seek.audioTrack.flatMap { switchTrack(to: $0, &reading) }
        let target = Self.target(of: seek, on: reading.timeline)
        var floor = target + reading.timeline.offset(forPass: seek.pass)
        // Going back needs the file order of what was sent, and an input that is read again alike
        // (an HLS restart may take another variant, a live one the live edge).
        let canGoBack = !reading.reader.isHLS && !reading.isLive && (reading.lastPicture?.position ?? 0) >= 0
        if canGoBack, (try? reading.reader.seek(to: target, position: max(0, seek.position), pass: seek.pass)) == true {
            beginPass(seek.pass, &reading)
            reading.catchingUp = reading.lastPicture
            reading.soundStartsNext = seek.position <= 0
        } else {
            logger.warning("\(location): could not go back for the new sound track; it starts where the reading is")
            if let sent = reading.lastPicture { floor = sent.stamp + reading.timeline.offset(forPass: sent.pass) }
        }
        let marker = SeekMarker(generation: seek.generation, floor: floor, floorSeconds: reading.timeline.seconds(floor),
                                pass: reading.pass, audioDecoder: nil)
        reading.router.seekSound(marker, audioDecoder: audioDecoder)
    }

    /// Where `seek` goes, in the timeline stream's ticks of its pass.
    private static func target(of seek: DemuxerControl.SeekRequest, on timeline: LoopTimeline) -> Int64 {
        // A finite but huge position (a source whose length is not known) must not overflow.
        timeline.origin + Int64((max(0, seek.position) / timeline.tick).rounded(.down).clamped(to: 0...9e18))
    }

    /// The input was sought into pass `pass`: the reading starts that pass again.
    private func beginPass(_ pass: Int, _ reading: inout Reading) {
        reading.timeline.resume(inPass: pass)
        reading.pass = pass
        reading.atEnd = false
        reading.timelinePacketsThisPass = 0
        reading.reader.passBegan()
    }

    /// Reads `track` from now on (nil: none). Returns the decoder the running sound stage takes
    /// with the seek marker; starts a sound stage when none runs.
    private func switchTrack(to track: AudioTrack?, _ reading: inout Reading) -> StreamDecoder? {
        let input = reading.input
        guard input.hasVideo else { return nil }  // audio-only media keep their track: it is the timeline
        input.select(audio: track)
        guard track != nil, let start = opener.makeAudioStage(for: input, generation: reading.generation) else {
            if track != nil { input.select(audio: nil) }
            status.setAudioTracks(input.audioTracks, current: nil)
            return nil
        }
        status.setAudioTracks(input.audioTracks, current: track)
        if reading.router.soundRouted { return start.decoder }
        reading.router.soundRouted = launcher.startAudio(start)
        if !reading.router.soundRouted { input.select(audio: nil) }
        return nil
    }
}
