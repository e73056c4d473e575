import CFFmpeg
import FFmpegSupport

/// Sends packets and markers from the demux thread to the decode stages, each queue on its own
/// terms: the picture's packets wait for room (unless a seek or a stop is pending), sound waits
/// only while the picture has packets to play, subtitles never wait.
struct PacketRouter {
    private let video: BoundedQueue<StageMessage>
    private let audio: BoundedQueue<StageMessage>
    private let subtitles: BoundedQueue<StageMessage>
    private let control: DemuxerControl
    private let location: MediaLocation
    /// A sound stage takes the audio packets.
    var soundRouted: Bool
    /// Subtitle streams whose packets the subtitle stage decodes.
    private(set) var subtitleStreams: Set<Int32>
    /// Sound stored far ahead of the picture is being dropped (said once).
    private var droppingSound = false

    init(video: BoundedQueue<StageMessage>, audio: BoundedQueue<StageMessage>, subtitles: BoundedQueue<StageMessage>,
         control: DemuxerControl, location: MediaLocation, soundRouted: Bool, subtitleStreams: Set<Int32>) {
        self.video = video
        self.audio = audio
        self.subtitles = subtitles
        self.control = control
        self.location = location
        self.soundRouted = soundRouted
        self.subtitleStreams = subtitleStreams
    }

    /// Sends a packet of `input` on, its timestamps moved by `offset` (timeline ticks) onto the
    /// loop's timeline; a sound packet carries `soundGeneration`, `soundPictureExtent` (see
    /// `PacketContext.pictureExtent`) and whether it `startsSound`. True if it was a picture packet
    /// and went into its queue.
    @discardableResult
    mutating func route(_ packet: consuming OwnedPacket, of input: MediaInput, context: PacketContext,
                        soundGeneration: Int, offset: Int64, soundPictureExtent: Double?, startsSound: Bool) -> Bool {
        let index = packet.pointer.pointee.stream_index
        if index == input.timelineStream.pointee.index {
            shift(packet.pointer, by: offset)
        } else if let audioTimeBase = input.audioStream?.pointee.time_base {
            shift(packet.pointer, by: offset == 0 ? 0 : av_rescale_q(offset, input.video.timeBase, audioTimeBase))
        }
        let bytes = packet.byteCount
        if subtitleStreams.contains(index) {
            // Never waited for: the subtitle stage takes a cue in microseconds; a full queue drops.
            if subtitles.push(.packet(packet, context), bytes: bytes, giveUp: { true }) == .closed {
                subtitleStreams.removeAll()
            }
            return false
        }
        if index == input.videoStreamIndex {
            return video.push(.packet(packet, context), bytes: bytes,
                              giveUp: { [control] in control.hasPictureUrgentRequest }) == .queued
        }
        // Audio-only media: the black picture follows the sound's packets (a reference, no copy).
        if !input.hasVideo, let copy = packet.reference() {
            _ = video.push(.packet(copy, context), bytes: 64, giveUp: { [control] in control.hasPictureUrgentRequest })
        }
        guard soundRouted else { return false }
        var soundContext = context
        soundContext.generation = soundGeneration
        soundContext.pictureExtent = soundPictureExtent
        soundContext.startsSound = startsSound
        routeSound(packet, context: soundContext, bytes: bytes)
        return false
    }

    /// Sound stored far ahead of the picture must not starve it: while the picture's queue is
    /// empty a full sound queue drops instead of waiting (the picture cannot play meanwhile).
    private mutating func routeSound(_ packet: consuming OwnedPacket, context: PacketContext, bytes: Int) {
        let pictures = video
        let result = audio.push(.packet(packet, context), bytes: bytes, giveUp: { [control] in
            control.hasUrgentRequest || pictures.count == 0
        })
        switch result {
        case .queued:
            droppingSound = false
        case .gaveUp:
            if !droppingSound && !control.hasUrgentRequest {
                logger.notice("\(location): the sound is stored far ahead of the picture; dropping sound until the picture catches up")
            }
            droppingSound = true
        case .closed:
            soundRouted = false  // the sound stage ended (no device)
        }
    }

    /// Moves a packet of a later pass onto the timeline (`offset` in the packet's time base).
    private func shift(_ packet: UnsafeMutablePointer<AVPacket>, by offset: Int64) {
        guard offset != 0 else { return }
        if packet.pointee.pts != noTimestamp { packet.pointee.pts += offset }
        if packet.pointee.dts != noTimestamp { packet.pointee.dts += offset }
    }

    // MARK: Markers

    /// The end of a pass, to the sound stage (of `soundGeneration`) and, `toPicture`, the picture stage.
    func passEnded(_ boundary: PassBoundary, soundGeneration: Int, toPicture: Bool) {
        if toPicture { sendToPicture(.passEnded(boundary)) }
        var sound = boundary
        sound.generation = soundGeneration
        if soundRouted { send(.passEnded(sound), to: audio) }
    }

    /// The end of the stream, to the sound stage and, `toPicture`, the picture stage.
    func endOfStream(pictureGeneration: Int, soundGeneration: Int, toPicture: Bool, resumable: Bool) {
        if toPicture { sendToPicture(.endOfStream(generation: pictureGeneration, resumable: resumable)) }
        if soundRouted { send(.endOfStream(generation: soundGeneration, resumable: resumable), to: audio) }
    }

    /// The end of the last pass, to the sound stage alone (non-looping media whose sound ends with
    /// the picture: it cuts what lies past it).
    func soundPassEnded(_ boundary: PassBoundary) {
        if soundRouted { send(.passEnded(boundary), to: audio) }
    }

    /// Waits until the picture stage has taken every packet sent (or a seek or stop cuts it short).
    func waitUntilPicturesTaken() {
        control.waitUntilEmpty(video)
    }

    /// A seek's marker to every stage; the sound stage's carries `soundGeneration` and a newly
    /// chosen track's decoder.
    func seek(_ marker: SeekMarker, soundGeneration: Int, audioDecoder: StreamDecoder?) {
        sendToPicture(.seek(marker))
        if !subtitleStreams.isEmpty { _ = subtitles.push(.seek(marker), giveUp: { true }) }
        var soundMarker = marker
        soundMarker.generation = soundGeneration
        seekSound(soundMarker, audioDecoder: audioDecoder)
    }

    /// A seek's marker to the sound stage alone (a sound refresh).
    func seekSound(_ marker: SeekMarker, audioDecoder: StreamDecoder?) {
        guard soundRouted else { return }
        var audioMarker = marker
        audioMarker.audioDecoder = audioDecoder
        send(.seek(audioMarker), to: audio)
    }

    /// Markers wait for room like packets, but a pending seek makes them pointless.
    private func send(_ message: consuming StageMessage, to queue: BoundedQueue<StageMessage>) {
        _ = queue.push(message, giveUp: { [control] in control.hasUrgentRequest })
    }

    /// The picture's markers give up only for a seek that moves the picture too.
    private func sendToPicture(_ message: consuming StageMessage) {
        _ = video.push(message, giveUp: { [control] in control.hasPictureUrgentRequest })
    }

    /// Empties the picture and sound queues (a seek: what they hold is of the old position).
    func clear() {
        video.removeAll()
        audio.removeAll()
    }

    /// Empties the sound queue (a sound refresh).
    func clearSound() { audio.removeAll() }
}
