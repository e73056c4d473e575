import CFFmpeg
import FFmpegSupport
import Foundation

/// An HLS source on the demux thread: the session, the stream being read and its successive
/// containers (a variant switch in fMP4, a new pass), and what keeps their packets on one timeline
/// (the first container's time bases, codec extradata sent in line when a variant's differs, the
/// next pass's packets waiting for its first picture).
final class HLSReading {
    let session: HLSSession
    private(set) var stream: HLSByteStream
    private let location: MediaLocation
    private let interrupt: InputInterrupt
    private let control: DemuxerControl
    private let abort: AbortFlag
    /// The largest picture a container may bring.
    private var sizeLimit = VideoSizeLimit.standard
    /// Each variant as frames carry it (nil for a lone media playlist).
    private let variants: [StreamVariant?]
    /// Time bases of the first container's picture and sound: later containers are rescaled to them.
    private var videoTimeBase = AVRational(num: 1, den: 90_000)
    private var audioTimeBase: AVRational?
    /// The extradata the decoders were given last, and new extradata to send with the next packet.
    private var videoExtradata: [UInt8] = []
    private var audioExtradata: [UInt8] = []
    private var pendingVideoExtradata: [UInt8]?
    private var pendingAudioExtradata: [UInt8]?
    /// The segment of the last packet (for packets without a position).
    private var lastPlaced: HLSByteStream.Placed?
    /// Sound and subtitle packets of the next pass, read before its first picture packet: the pass
    /// ends (and the loop's length is measured) only at that picture.
    private var held: [(packet: StoredPacket, placement: PacketPlacement)] = []
    private static let holdLimit = 64

    private var url: String { session.sourceURL.absoluteString }

    /// Loads the playlists (retried) and opens the first container of a stream from the start.
    static func open(_ session: HLSSession, location: MediaLocation, interrupt: InputInterrupt, control: DemuxerControl,
                     abort: AbortFlag, audio choice: AudioTrackChoice,
                     sizeLimit: VideoSizeLimit = .standard) throws(PlayerError) -> (HLSReading, MediaInput) {
        do { try session.load() } catch { throw error.playerError }
        let hls = HLSReading(session: session, location: location, interrupt: interrupt, control: control, abort: abort)
        hls.sizeLimit = sizeLimit
        let input: MediaInput
        do { input = try hls.openContainer(audio: choice) } catch {
            hls.stream.stop()  // its fetch thread holds it: stopped and joined here, not left running
            throw error
        }
        hls.adopt(input)
        return (hls, input)
    }

    private init(session: HLSSession, location: MediaLocation, interrupt: InputInterrupt, control: DemuxerControl,
                 abort: AbortFlag) {
        self.session = session
        self.location = location
        self.interrupt = interrupt
        self.control = control
        self.abort = abort
        variants = session.streamVariants
        stream = session.startStream(at: 0, pass: 0)
        watch(stream)
    }

    // MARK: Containers

    /// A demuxer on the stream's next container; the stream's own failure explains a failed open.
    private func openContainer(audio choice: AudioTrackChoice) throws(PlayerError) -> MediaInput {
        let reader = stream.makeReader()
        do {
            return try MediaInput.open(reader: reader, format: session.containerFormat,
                                       location: location, interrupt: interrupt, audio: choice, sizeLimit: sizeLimit)
        } catch {
            if let failure = stream.failure { throw failure.playerError }
            // The bytes came but are not media (an HTML error page served as a segment): name it.
            guard let segment = reader.segment(ofPacketAt: 0), !abort.isRaised else { throw error.error }
            // Only "these bytes are no media": a time-out or a network error stays what it is.
            let endOfFile = FFmpegError(code: FFmpegError.endOfFile).message
            let reason: String
            switch error.error {
            case let .unreadableMedia(_, cause): reason = cause.message
            case let .networkError(_, text) where text == endOfFile: reason = text
            default: throw error.error
            }
            throw .unreadableMedia(source: "\(location): its segment \(segment.segment.url.absoluteString)",
                                   cause: FFmpegError(code: FFmpegError.invalidData, message: reason))
        }
    }

    /// Lets a seek or the pipeline's stop wake the demuxer while it waits for `stream`'s bytes.
    private func watch(_ stream: HLSByteStream) {
        control.setInterrupter { [weak stream] stopping in
            if stopping { stream?.cancel() } else { stream?.interruptRead() }
        }
    }

    /// Remembers the first container's time bases and extradata.
    private func adopt(_ input: MediaInput) {
        videoTimeBase = input.timelineStream.pointee.time_base
        audioTimeBase = input.audioStream?.pointee.time_base
        videoExtradata = MediaInput.extradata(of: input.hasVideo ? input.timelineStream : nil)
        audioExtradata = MediaInput.extradata(of: input.audioStream)
    }

    /// A new container: its extradata goes to the decoders in line.
    private func follow(_ input: MediaInput) {
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

    /// The stream reached a container boundary (an fMP4 variant switch or a new pass): a new
    /// demuxer reads on from there; the decoders are kept (new extradata goes to them in line).
    private func nextContainer(after current: MediaInput) throws(PlayerError) -> MediaInput {
        let input = try openContainer(audio: current.audioChoiceToKeep)
        guard input.hasVideo == current.hasVideo else { throw .networkError(url: url, reason: "a variant has no picture") }
        follow(input)
        return input
    }

    /// A new stream from `position` inside pass `pass` (a seek, or the next pass after the end),
    /// after stopping the one being read.
    func restart(at position: Double, pass: Int, after current: MediaInput) throws(ReadFailure) -> MediaInput {
        stream.stop()  // the schedule must not run twice at once
        held.removeAll()
        lastPlaced = nil
        stream = session.startStream(at: position, pass: pass)
        watch(stream)
        do {
            let input = try openContainer(audio: current.audioChoiceToKeep)
            follow(input)
            return input
        } catch {
            // Interrupted by another seek (taken next) or a stop: not a failure of the source.
            if abort.isRaised || control.hasPendingSeek { throw .interrupted }
            throw .fatal(error)
        }
    }

    // MARK: Reading

    /// What a failed read of an HLS container means.
    enum ReadResult {
        case endOfInput
        /// Reading goes on: on this new container (the stream reached a boundary), or on the same
        /// input (interrupted for a seek or a stop).
        case next(MediaInput?)
        case failed(ReadFailure)
    }

    /// A read of `input` failed with `status`: a new container, the end, or a failure.
    func readFailed(_ status: Int32, input: MediaInput) -> ReadResult {
        if let failure = stream.failure { return .failed(.afterPlaying(failure.playerError)) }
        guard let reader = input.reader else { return .endOfInput }
        if reader.reachedBoundary {
            do { return .next(try nextContainer(after: input)) } catch { return .failed(.fatal(error)) }
        }
        if reader.wasInterrupted {
            if control.hasPendingSeek || abort.isRaised { return .next(nil) }
            return .failed(.fatal(.networkError(url: url, reason: "reading was interrupted")))
        }
        if status == FFmpegError.endOfFile { return .endOfInput }
        let reason = status == -ETIMEDOUT ? "no data for \(Int(stream.readPatience)) s" : FFmpegError(code: status).message
        return .failed(.afterPlaying(.networkError(url: url, reason: reason)))
    }

    // MARK: Placing packets

    /// An HLS packet's pass is its segment's: the schedule wrapped to segment 0, so the timestamps
    /// went back by one pass and the packet is moved on by `k · loopDuration` like a file's. The
    /// pass ends at the first picture packet of the next one (sound read before it waits), without
    /// any rewind: the stream simply continues.
    func place(_ packet: UnsafeMutablePointer<AVPacket>, input: MediaInput, pass: Int, looping: Bool) -> PacketDisposition {
        conform(packet, input: input)
        let position = packet.pointee.pos
        guard let placed = (position >= 0 ? input.reader?.segment(ofPacketAt: position) : nil) ?? lastPlaced else {
            return .route(PacketPlacement(pass: pass))
        }
        lastPlaced = placed
        let segment = placed.segment
        let variant = variants.indices.contains(segment.variant) ? variants[segment.variant] : nil
        let placement = PacketPlacement(pass: segment.pass, variant: variant, segmentIndex: placed.index)
        guard segment.pass > pass else { return .route(placement) }
        // Looping was switched off while the next pass was being fetched: the media ends here.
        guard looping else { return .endOfMedia }
        let isPicture = packet.pointee.stream_index == input.timelineStream.pointee.index
        guard isPicture || held.count >= Self.holdLimit else { return .hold(placement) }
        return .beginsPass(placement)
    }

    /// Tells the session which segment the picture reached (the fetcher waits for room by it);
    /// `packet` is a picture packet.
    func noteDemuxed(_ packet: UnsafeMutablePointer<AVPacket>, placement: PacketPlacement, timeline: LoopTimeline) {
        guard let index = placement.segmentIndex else { return }
        let stamp = packet.pointee.pts != noTimestamp ? packet.pointee.pts : packet.pointee.dts
        guard stamp != noTimestamp else { return }
        session.noteDemuxed(time: timeline.seconds(stamp + timeline.offset(forPass: placement.pass)), segmentIndex: index)
    }

    /// Keeps a packet of the next pass until that pass's first picture packet.
    func hold(_ packet: consuming OwnedPacket, _ placement: PacketPlacement) {
        guard let stored = StoredPacket() else { return }
        av_packet_move_ref(stored.pointer, packet.pointer)
        held.append((stored, placement))
    }

    /// The held packets, in the order they were read.
    func takeHeld() -> [(packet: StoredPacket, placement: PacketPlacement)] {
        defer { held.removeAll() }
        return held
    }

    /// Puts a packet of `input` on the first container's time bases, with new extradata attached.
    private func conform(_ packet: UnsafeMutablePointer<AVPacket>, input: MediaInput) {
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
