import CFFmpeg
import FFmpegSupport
import Foundation

/// Owns an opened `AVCodecContext` (video with FFmpeg's own frame threads, or audio). Used by one
/// decode thread.
final class StreamDecoder: @unchecked Sendable {  // owns its codec context; used by one decode thread at a time
    private let context: UnsafeMutablePointer<AVCodecContext>
    /// Frames that failed to decode or packets rejected as corrupt (concealed, playback goes on).
    private(set) var errorCount = 0
    /// The stream's time base, in which packets and frames are stamped.
    let timeBase: AVRational

    init(stream: UnsafeMutablePointer<AVStream>, sourceName: String) throws(PlayerError) {
        let parameters = stream.pointee.codecpar
        let codecID = parameters?.pointee.codec_id ?? AV_CODEC_ID_NONE
        let codecName = String(cString: avcodec_get_name(codecID))
        guard let parameters, let codec = avcodec_find_decoder(codecID) else {
            throw .decoderUnavailable(source: sourceName, codec: codecName, cause: nil)
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw .decoderUnavailable(source: sourceName, codec: codecName, cause: nil)
        }
        var status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.pkt_timebase = stream.pointee.time_base
            if parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
                // One frame thread per core. FFmpeg's automatic choice is cores + 1, which on a small
                // machine adds a whole picture pool of memory and no throughput.
                context.pointee.thread_count = Int32(min(16, max(1, ProcessInfo.processInfo.activeProcessorCount)))
                context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            } else {
                context.pointee.thread_count = 1  // audio decodes far faster than real time on one thread
            }
            status = avcodec_open2(context, codec, nil)
        }
        guard status >= 0 else {
            var doomed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&doomed)
            throw .decoderUnavailable(source: sourceName, codec: codecName, cause: FFmpegError(code: status))
        }
        self.context = context
        timeBase = stream.pointee.time_base
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&doomed)
    }

    /// Feeds one packet (nil drains) and hands every frame it releases to `emit`.
    /// Decoding errors are counted and skipped: the codec conceals them.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>?, emit: (consuming OwnedFrame) -> Void) {
        while true {
            let sent = avcodec_send_packet(context, packet)
            if sent == FFmpegError.tryAgain {
                // The decoder's output is full: take frames out, then send the same packet again.
                if receiveAll(emit: emit) == 0 { return }
                continue
            }
            if sent < 0 && sent != FFmpegError.endOfFile { errorCount += 1 }
            _ = receiveAll(emit: emit)
            return
        }
    }

    /// Forgets buffered frames (after a seek, or to accept packets again after a drain).
    func flush() { avcodec_flush_buffers(context) }

    private func receiveAll(emit: (consuming OwnedFrame) -> Void) -> Int {
        var received = 0
        while let frame = OwnedFrame() {
            let status = avcodec_receive_frame(context, frame.pointer)
            if status < 0 {
                if status != FFmpegError.tryAgain && status != FFmpegError.endOfFile { errorCount += 1 }
                return received
            }
            if frame.pointer.pointee.decode_error_flags != 0 { errorCount += 1 }
            received += 1
            emit(frame)
        }
        return received
    }
}
