import CFFmpeg
import FFmpegSupport
import Foundation

/// Where a packet goes on the loop's timeline, and which HLS variant it came from.
struct PacketPlacement {
    var pass: Int
    var variant: StreamVariant?
}

/// How the demux thread reads a source: a file, a progressive network source (reopened after a
/// lost connection), or an HLS stream.
enum NetworkReading {
    case local
    case progressive(ProgressiveReading)
    case hls(HLSReading)

    var isHLS: Bool {
        if case .hls = self { return true }
        return false
    }
}

/// An HLS source on the demux thread: the session, the stream being read, and what keeps packets
/// of successive containers on one timeline (the first container's time bases, codec extradata
/// sent in line when a variant's differs, packets of the next pass waiting for its first picture).
final class HLSReading {
    let session: HLSSession
    var stream: HLSByteStream
    /// Each variant as frames carry it (nil for a lone media playlist).
    let variants: [StreamVariant?]
    /// Time bases of the first container's picture and sound: later containers are rescaled to them.
    var videoTimeBase = AVRational(num: 1, den: 90_000)
    var audioTimeBase: AVRational?
    /// The extradata the decoders were given last, and new extradata to send with the next packet.
    var videoExtradata: [UInt8] = []
    var audioExtradata: [UInt8] = []
    var pendingVideoExtradata: [UInt8]?
    var pendingAudioExtradata: [UInt8]?
    /// The segment of the last packet (for packets without a position).
    var lastPlaced: HLSByteStream.Placed?
    /// Sound and subtitle packets of the next pass, read before its first picture packet: the pass
    /// ends (and the loop's length is measured) only at that picture.
    var held: [(packet: StoredPacket, placement: PacketPlacement)] = []
    static let holdLimit = 64

    init(session: HLSSession, stream: HLSByteStream) {
        self.session = session
        self.stream = stream
        variants = session.streamVariants
    }

    /// Remembers the first container's time bases and extradata.
    func adopt(_ input: MediaInput) {
        videoTimeBase = input.timelineStream.pointee.time_base
        audioTimeBase = input.audioStream?.pointee.time_base
        videoExtradata = MediaInput.extradata(of: input.hasVideo ? input.timelineStream : nil)
        audioExtradata = MediaInput.extradata(of: input.audioStream)
    }

    /// A new container (an fMP4 variant switch): its extradata goes to the decoders in line.
    func follow(_ input: MediaInput) {
        let video = MediaInput.extradata(of: input.hasVideo ? input.timelineStream : nil)
        if video != videoExtradata && !video.isEmpty {
            pendingVideoExtradata = video
            videoExtradata = video
        }
        let audio = MediaInput.extradata(of: input.audioStream)
        if audio != audioExtradata && !audio.isEmpty {
            pendingAudioExtradata = audio
            audioExtradata = audio
        }
    }

    /// Puts a packet of `input` on the first container's time bases, with new extradata attached.
    func conform(_ packet: UnsafeMutablePointer<AVPacket>, input: MediaInput) {
        let index = packet.pointee.stream_index
        if input.hasVideo && index == input.videoStreamIndex {
            rescale(packet, from: input.timelineStream.pointee.time_base, to: videoTimeBase)
            if let data = pendingVideoExtradata, attach(data, to: packet) { pendingVideoExtradata = nil }
        } else if let audio = input.audioStream, index == audio.pointee.index {
            if let audioTimeBase { rescale(packet, from: audio.pointee.time_base, to: audioTimeBase) }
            if let data = pendingAudioExtradata, attach(data, to: packet) { pendingAudioExtradata = nil }
        }
    }

    private func rescale(_ packet: UnsafeMutablePointer<AVPacket>, from source: AVRational, to target: AVRational) {
        guard source.num != target.num || source.den != target.den else { return }
        av_packet_rescale_ts(packet, source, target)
    }

    /// `AV_PKT_DATA_NEW_EXTRADATA`: the h264, hevc and aac decoders take new parameters from it.
    private func attach(_ data: [UInt8], to packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        guard let side = av_packet_new_side_data(packet, AV_PKT_DATA_NEW_EXTRADATA, data.count) else { return false }
        data.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { side.update(from: base, count: buffer.count) }
        }
        return true
    }
}

extension Demuxer {
    enum Placement {
        case route(PacketPlacement)
        /// Keep it until the next pass's first picture packet.
        case hold(PacketPlacement)
        case drop
    }

    enum ReadOutcome {
        /// The media's end (or the end of a pass).
        case endOfInput
        /// Reading goes on (a new container, a reconnect, a seek to take).
        case resumed
        /// A fatal error was reported.
        case failed
    }

    private var initialAudioChoice: AudioTrackChoice { soundWanted ? audioChoice : .none }

    func fatal(_ error: PlayerError, _ reading: inout Reading) {
        reading.failed = true
        status.post(.fatal(error))
    }

    /// A network failure met while reading: what was read before it plays first (the picture's
    /// packets are decoded and shown), then the source fails. A seek or a stop cuts that short.
    func failAfterPlayingWhatWasRead(_ error: PlayerError, _ reading: inout Reading) {
        control.waitUntilEmpty(video)
        if abort.isRaised { return }
        fatal(error, &reading)
    }

    // MARK: Opening

    /// Opens the source the way its plan says.
    func openInput() throws(PlayerError) -> (MediaInput, NetworkReading) {
        switch plan.reading {
        case .file:
            do {
                return (try MediaInput.open(location, interrupt: interrupt, audio: initialAudioChoice, access: .localFile), .local)
            } catch { throw error.error }
        case .hls:
            return try openHLS(plan.url, kind: plan.kind)
        case .progressive:
            return try openProgressive()
        }
    }

    /// A progressive source, opened by the recovery (retried); one that turns out to be a
    /// playlist goes to our HLS client.
    private func openProgressive() throws(PlayerError) -> (MediaInput, NetworkReading) {
        switch try recovery.open(audio: initialAudioChoice) {
        case let .input(input): return (input, .progressive(ProgressiveReading()))
        case .playlist: return try openHLS(plan.url, kind: .remote)
        }
    }

    /// Our HLS client: the playlists (retried), a stream from the start, its first container.
    private func openHLS(_ url: URL, kind: SourceKind) throws(PlayerError) -> (MediaInput, NetworkReading) {
        let session = HLSSession(url: url, kind: kind, options: plan.network, controls: plan.controls, abort: abort,
                                 isLooping: { [control] in control.isLooping })
        do { try session.load() } catch { throw error.playerError }
        let hls = HLSReading(session: session, stream: session.startStream(at: 0, pass: 0))
        watch(hls.stream)
        let input = try openContainer(hls, audio: initialAudioChoice)
        hls.adopt(input)
        return (input, .hls(hls))
    }

    /// A demuxer on the stream's next container; the stream's own failure explains a failed open.
    private func openContainer(_ hls: HLSReading, audio choice: AudioTrackChoice) throws(PlayerError) -> MediaInput {
        do {
            return try MediaInput.open(reader: hls.stream.makeReader(), format: hls.session.containerFormat,
                                       location: location, interrupt: interrupt, audio: choice)
        } catch {
            if let failure = hls.stream.failure { throw failure.playerError }
            throw error.error
        }
    }

    /// Lets a seek or the pipeline's stop wake the demuxer while it waits for `stream`'s bytes.
    private func watch(_ stream: HLSByteStream) {
        control.setInterrupter { [weak stream] stopping in
            if stopping { stream?.cancel() } else { stream?.interruptRead() }
        }
    }

    // MARK: Reading

    /// A network read may not outlast the give-up time (FFmpeg's own reconnects, a stall).
    func armReadDeadline(_ reading: Reading) {
        guard case .progressive = reading.network else { return }
        recovery.armReadDeadline()
    }

    /// `av_read_frame` failed with `status`: the end of the input, or a network failure to recover
    /// from (a new container, a reconnect) or to report.
    func readFailed(_ status: Int32, _ reading: inout Reading) -> ReadOutcome {
        switch reading.network {
        case .local:
            return .endOfInput
        case let .progressive(progressive):
            guard recovery.connectionLost(status, reading.input) else { return .endOfInput }
            return reconnect(progressive, &reading) ? .resumed : .failed
        case let .hls(hls):
            return hlsReadFailed(status, hls, &reading)
        }
    }

    /// Reconnects a lost progressive source (see `ProgressiveRecovery.reconnect`). False after a
    /// fatal failure (reported) or a stop.
    private func reconnect(_ progressive: ProgressiveReading, _ reading: inout Reading) -> Bool {
        switch recovery.reconnect(progressive, replacing: reading.input) {
        case let .resumed(input):
            reading.input = input
            return true
        case let .mediaChanged(error):
            fatal(error, &reading)
            return false
        case let .gaveUp(error):
            failAfterPlayingWhatWasRead(error, &reading)
            return false
        case .stopped:
            return false
        }
    }

    private func hlsReadFailed(_ status: Int32, _ hls: HLSReading, _ reading: inout Reading) -> ReadOutcome {
        if let failure = hls.stream.failure {
            failAfterPlayingWhatWasRead(failure.playerError, &reading)
            return .failed
        }
        guard let reader = reading.input.reader else { return .endOfInput }
        if reader.reachedBoundary { return reopenContainer(hls, &reading) ? .resumed : .failed }
        if reader.wasInterrupted {
            if control.hasPendingSeek || abort.isRaised { return .resumed }
            fatal(.networkError(url: hls.session.sourceURL.absoluteString, reason: "reading was interrupted"), &reading)
            return .failed
        }
        if status == FFmpegError.endOfFile { return .endOfInput }
        let reason = status == -ETIMEDOUT ? "no data for \(Int(hls.stream.readPatience)) s" : FFmpegError(code: status).message
        failAfterPlayingWhatWasRead(.networkError(url: hls.session.sourceURL.absoluteString, reason: reason), &reading)
        return .failed
    }

    /// The stream reached a container boundary (an fMP4 variant switch or a new pass): a new
    /// demuxer reads on from there; the decoders are kept (new extradata goes to them in line).
    private func reopenContainer(_ hls: HLSReading, _ reading: inout Reading) -> Bool {
        let current = reading.input
        let choice = current.audioTrack.map { AudioTrackChoice.number($0.number) } ?? AudioTrackChoice.none
        do {
            let input = try openContainer(hls, audio: choice)
            guard input.hasVideo == current.hasVideo else {
                fatal(.networkError(url: hls.session.sourceURL.absoluteString, reason: "a variant has no picture"), &reading)
                return false
            }
            hls.follow(input)
            reading.input = input
            return true
        } catch {
            fatal(error, &reading)
            return false
        }
    }

    /// A new stream from `position` inside pass `pass` (a seek, or the next pass after the end),
    /// after stopping the one being read. False after a fatal failure (reported).
    private func restartStream(_ hls: HLSReading, at position: Double, pass: Int, _ reading: inout Reading) -> Bool {
        let current = reading.input
        let choice = current.audioTrack.map { AudioTrackChoice.number($0.number) } ?? AudioTrackChoice.none
        hls.stream.stop()  // the schedule must not run twice at once
        hls.held.removeAll()
        hls.lastPlaced = nil
        hls.stream = hls.session.startStream(at: position, pass: pass)
        watch(hls.stream)
        do {
            let input = try openContainer(hls, audio: choice)
            hls.follow(input)
            reading.input = input
            return true
        } catch {
            // Interrupted by another seek (taken next) or a stop: not a failure of the source.
            if !abort.isRaised && !control.hasPendingSeek { fatal(error, &reading) }
            return false
        }
    }

    /// Back to the start for the next pass. HLS: a new stream from segment 0 (the schedule wraps by
    /// itself while looping; this is for looping switched on after the end).
    func rewindForNextPass(_ reading: inout Reading) -> Bool {
        switch reading.network {
        case let .hls(hls):
            return restartStream(hls, at: 0, pass: reading.pass + 1, &reading)
        case let .progressive(progressive):
            // A server without byte ranges cannot seek back: open it again at once; only when that
            // fails is the network at fault (tried again until the give-up time).
            if reading.input.rewind() || reopen(&reading) { return true }
            progressive.reset()
            return reconnect(progressive, &reading)
        case .local:
            return reading.input.rewind() || reopen(&reading)
        }
    }

    /// A pass starts (after a wrap or a seek): what was delivered before is another pass's.
    func passBegan(_ reading: inout Reading) {
        if case let .progressive(progressive) = reading.network { progressive.reset() }
    }

    /// Moves the input to `target` (timeline ticks, inside the pass) for a seek; an HLS stream
    /// starts again at the segment holding `position` (a live one at its live edge).
    func seekInput(to target: Int64, position: Double, pass: Int, _ reading: inout Reading) -> Bool {
        switch reading.network {
        case let .hls(hls):
            return restartStream(hls, at: position, pass: pass, &reading)
        case let .progressive(progressive):
            progressive.reset()
            return reading.input.seek(toTimestamp: target)
        case .local:
            return reading.input.seek(toTimestamp: target)
        }
    }

    // MARK: Placing packets

    /// Which pass (and variant) a packet belongs to, and whether it goes on now.
    func place(_ packet: borrowing OwnedPacket, _ reading: inout Reading, looping: Bool) -> Placement {
        switch reading.network {
        case .local:
            return .route(PacketPlacement(pass: reading.pass))
        case let .progressive(progressive):
            return progressive.admit(packet.pointer) ? .route(PacketPlacement(pass: reading.pass)) : .drop
        case let .hls(hls):
            return placeHLS(packet.pointer, hls, &reading, looping: looping)
        }
    }

    /// An HLS packet's pass is its segment's: the schedule wrapped to segment 0, so the timestamps
    /// went back by one pass and the packet is moved on by `k · loopDuration` like a file's. The
    /// pass ends at the first picture packet of the next one (sound read before it waits), without
    /// any rewind: the stream simply continues.
    private func placeHLS(_ packet: UnsafeMutablePointer<AVPacket>, _ hls: HLSReading, _ reading: inout Reading,
                          looping: Bool) -> Placement {
        let input = reading.input
        hls.conform(packet, input: input)
        let position = packet.pointee.pos
        guard let placed = (position >= 0 ? input.reader?.segment(ofPacketAt: position) : nil) ?? hls.lastPlaced else {
            return .route(PacketPlacement(pass: reading.pass))
        }
        hls.lastPlaced = placed
        let segment = placed.segment
        let variant = hls.variants.indices.contains(segment.variant) ? hls.variants[segment.variant] : nil
        let placement = PacketPlacement(pass: segment.pass, variant: variant)
        let isPicture = packet.pointee.stream_index == input.timelineStream.pointee.index
        if segment.pass > reading.pass {
            guard looping else {
                // Looping was switched off while the next pass was being fetched: the media ends here.
                if !reading.atEnd { endOfStream(&reading) }
                return .drop
            }
            guard isPicture || hls.held.count >= HLSReading.holdLimit else { return .hold(placement) }
            while reading.pass < segment.pass { finishPass(&reading) }
            releaseHeld(hls, &reading, looping: looping)
        }
        if isPicture {
            let stamp = packet.pointee.pts != noTimestamp ? packet.pointee.pts : packet.pointee.dts
            if stamp != noTimestamp {
                let time = reading.timeline.seconds(stamp + reading.timeline.offset(forPass: segment.pass))
                hls.session.noteDemuxed(time: time, segmentIndex: placed.index)
            }
        }
        return .route(placement)
    }

    /// Keeps a packet of the next pass until that pass's first picture packet.
    func hold(_ packet: consuming OwnedPacket, _ placement: PacketPlacement, _ reading: inout Reading) {
        guard case let .hls(hls) = reading.network, let stored = StoredPacket() else { return }
        av_packet_move_ref(stored.pointer, packet.pointer)
        hls.held.append((stored, placement))
    }

    private func releaseHeld(_ hls: HLSReading, _ reading: inout Reading, looping: Bool) {
        let held = hls.held
        hls.held.removeAll()
        for (stored, placement) in held {
            guard let packet = OwnedPacket() else { continue }
            av_packet_move_ref(packet.pointer, stored.pointer)
            route(packet, &reading, looping: looping, placement: placement)
        }
    }
}
