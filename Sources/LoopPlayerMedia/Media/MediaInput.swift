import CFFmpeg
import Foundation
import LoopPlayerCore

/// Why an input could not be opened, and whether trying again later may help (a network failure).
package struct InputFailure: Error {
    package var error: PlayerError
    package var isTransient: Bool

    package init(_ error: PlayerError, transient: Bool) {
        self.error = error
        isTransient = transient
    }
}

/// Owns an opened `AVFormatContext` and knows which streams are played: the video and at most one
/// audio track. Every other stream is discarded by the demuxer. Used by the demux thread.
package final class MediaInput {
    private let context: UnsafeMutablePointer<AVFormatContext>
    package let location: MediaLocation
    /// The video stream, or −1 for audio-only media.
    package let videoStreamIndex: Int32
    package let video: VideoStreamInfo
    /// The stream whose packets measure the loop: the video, or the audio track of audio-only media.
    package let timelineStream: UnsafeMutablePointer<AVStream>
    /// Start of the presentation timeline in the timeline stream's time base (container start time honoured).
    package let startTimestamp: Int64
    /// Every audio stream of the source, in container order.
    package let audioTracks: [AudioTrack]
    /// The audio track being read, if any.
    package private(set) var audioTrack: AudioTrack?
    /// Every subtitle stream of the source, in container order; all of them are read (their packets
    /// are tiny), so a switch shows at once.
    package let subtitleTracks: [SubtitleTrack]
    private let interrupt: InputInterrupt
    /// The HLS stream reader the demuxer reads through (custom I/O); freed after the context.
    package let reader: HLSStreamReader?
    /// The largest picture it was opened to take (a reopen takes the same).
    package let sizeLimit: VideoSizeLimit

    /// Opens `location` and selects its best video stream and the audio track `choice` asks for.
    /// Media with sound but no video play their (automatic) track under a black picture. `access`
    /// says which protocols FFmpeg may use and how a network source behaves.
    /// `ignoringPicture`: as if the source had no video stream.
    package static func open(_ location: MediaLocation, interrupt: InputInterrupt, audio choice: AudioTrackChoice = .automatic,
                     access: InputAccess = .localFile, ignoringPicture: Bool = false,
                     sizeLimit: VideoSizeLimit = .standard) throws(InputFailure) -> MediaInput {
        if case let .file(path) = location {
            do { try LocalFile.check(path) } catch { throw InputFailure(error, transient: false) }
        }
        var context: UnsafeMutablePointer<AVFormatContext>? = try allocate(location.description, interrupt: interrupt)
        var options: OpaquePointer?
        access.apply(to: &options)
        let status = avformat_open_input(&context, location.ffmpegURL, nil, &options)
        av_dict_free(&options)
        guard status >= 0, let context else {
            if status == -EINVAL, case .url = location, protocolRefuses(location, access: access, interrupt: interrupt) {
                throw InputFailure(.sourceNotAllowed(SourceRefusal(target: location.description,
                                                                   reason: "it redirects to a resource that is not http(s)")),
                                   transient: false)
            }
            throw openError(status, location: location, interrupt: interrupt)
        }
        return try MediaInput(opened: context, location: location, interrupt: interrupt, audio: choice, reader: nil,
                              ignoringPicture: ignoringPicture, sizeLimit: sizeLimit)
    }

    /// Opens the container `reader` delivers (an HLS stream, custom I/O): `format` names the
    /// demuxer (nil: probed among the safe ones); nothing may be opened from inside the stream.
    package static func open(reader: HLSStreamReader, format: String?, location: MediaLocation, interrupt: InputInterrupt,
                     audio choice: AudioTrackChoice = .automatic, sizeLimit: VideoSizeLimit = .standard) throws(InputFailure) -> MediaInput {
        let allocated = try allocate(location.description, interrupt: interrupt)
        guard let io = reader.ioContext else {
            avformat_free_context(allocated)
            throw InputFailure(.unreadableMedia(source: location.description, cause: FFmpegError(code: -12, context: "out of memory")),
                               transient: false)
        }
        allocated.pointee.pb = io
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "none", 0)
        av_dict_set(&options, "format_whitelist", InputAccess.safeFormats, 0)
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        let status = avformat_open_input(&context, nil, format.flatMap { av_find_input_format($0) }, &options)
        av_dict_free(&options)
        guard status >= 0, let context else { throw openError(status, location: location, interrupt: interrupt) }
        return try MediaInput(opened: context, location: location, interrupt: interrupt, audio: choice, reader: reader,
                              sizeLimit: sizeLimit)
    }

    private init(opened context: UnsafeMutablePointer<AVFormatContext>, location: MediaLocation, interrupt: InputInterrupt,
                 audio choice: AudioTrackChoice, reader: HLSStreamReader?, ignoringPicture: Bool = false,
                 sizeLimit: VideoSizeLimit = .standard) throws(InputFailure) {
        self.location = location
        self.interrupt = interrupt
        self.reader = reader
        self.sizeLimit = sizeLimit
        let name = location.description
        let probed = avformat_find_stream_info(context, nil)
        if probed < 0 {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&doomed)
            throw Self.openError(probed, location: location, interrupt: interrupt)
        }
        let index = ignoringPicture ? -1 : Self.bestVideoStream(in: context)
        if let video = Self.stream(in: context, at: index), let size = sizeLimit.refusedSize(of: video) {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&doomed)
            throw InputFailure(.unsupportedVideoSize(source: name, width: size.width, height: size.height), transient: false)
        }
        let tracks = Self.streams(of: context)
            .filter { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
            .enumerated().map { AudioTrack(number: $0.offset, stream: $0.element) }
        let best = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, index, nil, 0)
        // Audio-only media: the chosen track is also the timeline, under a black picture.
        // A picture ignored (undecodable) keeps the user's choice when it names a track.
        let automatic = AudioTrackChoice.automatic.pick(from: tracks, best: best)
        let track = index >= 0 ? choice.pick(from: tracks, best: best)
            : ignoringPicture ? choice.pick(from: tracks, best: best) ?? automatic : automatic
        guard let stream = Self.stream(in: context, at: index >= 0 ? index : track?.streamIndex ?? -1) else {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&doomed)
            throw InputFailure(.noVideoStream(source: name), transient: false)
        }
        self.context = context
        subtitleTracks = SubtitleTrack.all(in: context)
        audioTracks = tracks
        audioTrack = track
        videoStreamIndex = index
        timelineStream = stream
        video = index >= 0 ? VideoStreamInfo(stream: stream, format: context) : VideoStreamInfo(blackPictureFor: stream, format: context)
        startTimestamp = (stream.pointee.start_time != noTimestamp ? stream.pointee.start_time : 0)
            + (index < 0 ? Self.untrimmedDelay(of: stream, in: context) : 0)
        updateDiscards()
    }

    /// Audio-only media time their loop by the sound, from its first sample heard. Matroska stamps
    /// Opus from before its pre-skip (`start_time` −7 ms, the decoder trims 312 samples), where Ogg
    /// and MP3 stamp from the first sample heard: the codec's delay, in the stream's ticks, to add.
    private static func untrimmedDelay(of stream: UnsafeMutablePointer<AVStream>,
                                       in context: UnsafeMutablePointer<AVFormatContext>) -> Int64 {
        guard let parameters = stream.pointee.codecpar, parameters.pointee.initial_padding > 0,
              parameters.pointee.sample_rate > 0,
              String(cString: context.pointee.iformat.pointee.name).hasPrefix("matroska") else { return 0 }
        return av_rescale_q(Int64(parameters.pointee.initial_padding), AVRational(num: 1, den: parameters.pointee.sample_rate),
                            stream.pointee.time_base)
    }

    /// Whether FFmpeg's protocol layer refuses `location` (EINVAL): a redirect to a protocol outside
    /// the whitelist. A format outside the format whitelist is EINVAL too, a layer up, so only the
    /// bytes are opened here to tell the two apart (a second request, on this failure only).
    private static func protocolRefuses(_ location: MediaLocation, access: InputAccess, interrupt: InputInterrupt) -> Bool {
        var options: OpaquePointer?
        access.apply(to: &options)
        defer { av_dict_free(&options) }
        var callback = AVIOInterruptCB(callback: interruptCallback, opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        return withExtendedLifetime(interrupt) {
            var io: UnsafeMutablePointer<AVIOContext>?
            let status = avio_open2(&io, location.ffmpegURL, AVIO_FLAG_READ, &callback, &options)
            avio_closep(&io)
            return status == -EINVAL
        }
    }

    private static let interruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<InputInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
    }

    /// A format context whose interrupt callback asks `interrupt`.
    private static func allocate(_ name: String, interrupt: InputInterrupt) throws(InputFailure) -> UnsafeMutablePointer<AVFormatContext> {
        guard let context = avformat_alloc_context() else {
            throw InputFailure(.unreadableMedia(source: name, cause: FFmpegError(code: -12, context: "out of memory")), transient: false)
        }
        context.pointee.interrupt_callback.callback = interruptCallback
        context.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(interrupt).toOpaque()
        return context
    }

    /// The error for a failed open: an HTTP status or a network failure is a `networkError`
    /// naming the URL (transient when waiting may help: 5xx, no connection, a stall); anything
    /// else is unreadable media.
    private static func openError(_ status: Int32, location: MediaLocation, interrupt: InputInterrupt) -> InputFailure {
        let name = location.description
        guard case .url = location else { return InputFailure(.unreadableMedia(source: name, cause: FFmpegError(code: status)), transient: false) }
        if interrupt.deadlinePassed { return InputFailure(.networkError(url: name, reason: "no answer in time"), transient: false) }
        if let http = HTTPErrorStatus(ffmpegCode: status) {
            return InputFailure(.networkError(url: name, reason: "HTTP \(http)"), transient: http == .serverError)
        }
        guard status != FFmpegError.invalidData else {
            return InputFailure(.unreadableMedia(source: name, cause: FFmpegError(code: status)), transient: false)
        }
        // Anything else about a URL is about getting the bytes: a network error naming it.
        return InputFailure(.networkError(url: name, reason: FFmpegError(code: status).message),
                            transient: InputAccess.isNetworkFailure(status))
    }

    /// Timeline seconds of the start (the timeline stream's start time).
    /// FFmpeg's name for the container (`matroska,webm`, `ogg`, `mp3`…).
    package var formatName: String { String(cString: context.pointee.iformat.pointee.name) }

    package var startSeconds: Double { Double(startTimestamp) * timelineStream.pointee.time_base.seconds }

    /// The container may jump in time (MPEG-TS and other formats flagged by libavformat).
    package var hasDiscontinuousTimestamps: Bool {
        guard let format = context.pointee.iformat else { return false }
        return format.pointee.flags & AVFMT_TS_DISCONT != 0
    }

    /// True unless the media is audio-only (then a black picture is shown).
    package var hasVideo: Bool { videoStreamIndex >= 0 }

    /// Reads `track` from now on (nil: no audio). Audio-only media keep their track: it is the timeline.
    package func select(audio track: AudioTrack?) {
        guard hasVideo else { return }
        audioTrack = track
        updateDiscards()
    }

    /// The stream of a subtitle track of this input.
    package func stream(of track: SubtitleTrack) -> UnsafeMutablePointer<AVStream>? {
        Self.stream(in: context, at: track.streamIndex)
    }

    package var audioStream: UnsafeMutablePointer<AVStream>? {
        audioTrack.flatMap { Self.stream(in: context, at: $0.streamIndex) }
    }

    private func updateDiscards() {
        for stream in Self.streams(of: context) {
            let index = stream.pointee.index
            let kept = index == videoStreamIndex || index == audioTrack?.streamIndex
                || subtitleTracks.contains { $0.streamIndex == index }
            stream.pointee.discard = kept ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&doomed)  // before `reader` (its AVIOContext) is released
    }

    package var formatContext: UnsafeMutablePointer<AVFormatContext> { context }

    /// Reads the next packet of the video or the selected audio stream into `packet`. Returns 0 or
    /// an FFmpeg error.
    package func readPacket(into packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        while true {
            let status = av_read_frame(context, packet)
            if status < 0 { return status }
            let index = packet.pointee.stream_index
            if index == videoStreamIndex || index == audioTrack?.streamIndex { return 0 }
            if subtitleTracks.contains(where: { $0.streamIndex == index }) { return 0 }
            av_packet_unref(packet)
        }
    }

    /// Seeks so that the next packet is the keyframe at or before `timestamp` (stream time base).
    package func seek(toTimestamp timestamp: Int64) -> Bool {
        avformat_seek_file(context, timelineStream.pointee.index, Int64.min, timestamp, timestamp, 0) >= 0
    }

    /// Seeks back to the very first packet.
    ///
    /// Formats without an index (MPEG-TS/PS, raw streams) seek by timestamp through a bisection that
    /// can land a few packets late and lose the first frames of every pass; byte 0 is exact there.
    /// Indexed formats (mp4, Matroska, HLS playlists) seek to the start time, as `ffmpeg -stream_loop`.
    package func rewind() -> Bool {
        let format = context.pointee.iformat.pointee
        let flags = format.flags
        let unindexed = flags & AVFMT_TS_DISCONT != 0 || format.read_seek == nil
        if unindexed && flags & AVFMT_NO_BYTE_SEEK == 0, let io = context.pointee.pb, io.pointee.seekable != 0 {
            if avformat_seek_file(context, -1, Int64.min, 0, 0, AVSEEK_FLAG_BYTE) >= 0 { return true }
        }
        // Seeking to the start time lands the sound on its first *audible* packet, after the codec's
        // priming packet, unless the video starts earlier (B-frames); the decoder then mixes the
        // previous pass's last frame into the first (448 wrong samples with AAC). The sound's first
        // index entry is the priming packet: when it is not later than the video's, seek by it.
        if let audio = audioStream, let first = avformat_index_get_entry(audio, 0)?.pointee.timestamp,
           soundStartsFirst(audio, at: first),
           avformat_seek_file(context, audio.pointee.index, Int64.min, first, first, 0) >= 0 {
            return true
        }
        let start = context.pointee.start_time == noTimestamp ? 0 : context.pointee.start_time
        if avformat_seek_file(context, -1, Int64.min, start, start, 0) >= 0 { return true }
        return avformat_seek_file(context, timelineStream.pointee.index, Int64.min, startTimestamp, startTimestamp,
                                  AVSEEK_FLAG_BACKWARD) >= 0
    }

    /// Where the picture's last frame ends (its stream's ticks), read from the last indexed keyframe
    /// on and measured as a loop's first pass is (frames marked to discard do not count); the input
    /// is rewound after. Only for an indexed, seekable input (Matroska with Cues): elsewhere the
    /// seek itself would read the whole file (raw streams, Matroska without Cues). Nil if it cannot
    /// tell, or the last keyframe is more than `byteLimit` bytes from the end.
    package func lastPictureEnd(byteLimit: Int64 = 32 << 20) -> Int64? {
        let stream = timelineStream
        let format = context.pointee.iformat.pointee
        let entries = avformat_index_get_entries_count(stream)
        guard format.read_seek != nil, format.flags & AVFMT_TS_DISCONT == 0, entries > 0,
              let io = context.pointee.pb, io.pointee.seekable != 0,
              let last = avformat_index_get_entry(stream, entries - 1)?.pointee.timestamp,
              let packet = av_packet_alloc() else { return nil }
        var doomed: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&doomed) }
        guard avformat_seek_file(context, stream.pointee.index, Int64.min, last, last, 0) >= 0 else {
            _ = rewind()  // a failed seek may have moved the input
            return nil
        }
        let from = avio_tell(io)
        var end: Int64?
        while av_read_frame(context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            if avio_tell(io) - from > byteLimit {
                end = nil
                break
            }
            guard packet.pointee.stream_index == stream.pointee.index,
                  packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 else { continue }
            let stamp = packet.pointee.pts != noTimestamp ? packet.pointee.pts : packet.pointee.dts
            guard stamp != noTimestamp, packet.pointee.duration > 0 else { continue }
            end = max(end ?? .min, stamp + packet.pointee.duration)
        }
        return rewind() ? end : nil
    }

    /// True if the sound's first packet (`first`, in its time base) is not later than the video's.
    private func soundStartsFirst(_ audio: UnsafeMutablePointer<AVStream>, at first: Int64) -> Bool {
        guard hasVideo else { return true }
        let video = timelineStream
        let videoFirst = avformat_index_get_entry(video, 0)?.pointee.timestamp ?? startTimestamp
        return Double(first) * audio.pointee.time_base.seconds <= Double(videoFirst) * video.pointee.time_base.seconds
    }

    /// The read position and whether the I/O layer saw an error or an early end (a network body
    /// cut short), for telling a lost connection from the end of the media.
    package var ioState: (position: Int64, size: Int64, error: Int32, eofReached: Bool)? {
        guard let io = context.pointee.pb else { return nil }
        return (avio_tell(io), avio_size(io), io.pointee.error, io.pointee.eof_reached != 0)
    }

    /// The codec extradata of `stream` (SPS/PPS, AudioSpecificConfig), to tell containers apart.
    package static func extradata(of stream: UnsafeMutablePointer<AVStream>?) -> [UInt8] {
        guard let parameters = stream?.pointee.codecpar, let data = parameters.pointee.extradata,
              parameters.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
    }

    /// The stream at `index`, if there is one (a negative index, FFmpeg's "none", gives nil).
    private static func stream(in context: UnsafeMutablePointer<AVFormatContext>, at index: Int32) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < context.pointee.nb_streams else { return nil }
        return context.pointee.streams[Int(index)]
    }

    private static func streams(of context: UnsafeMutablePointer<AVFormatContext>) -> [UnsafeMutablePointer<AVStream>] {
        (0..<Int32(context.pointee.nb_streams)).compactMap { stream(in: context, at: $0) }
    }

    private static func bestVideoStream(in context: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard let stream = stream(in: context, at: index) else { return -1 }
        // Cover art is a "video stream" of one picture; it is not something to loop.
        return stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 ? -1 : index
    }
}

extension MediaInput {
    /// The track a replacement input of the same source reads (the one chosen on this one).
    package var audioChoiceToKeep: AudioTrackChoice {
        audioTrack.map { AudioTrackChoice.number($0.number) } ?? .none
    }
}
