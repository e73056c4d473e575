import CFFmpeg
import FFmpegSupport
import Foundation
import LoopPlayerCore

/// Owns an opened `AVCodecContext` (video with FFmpeg's own frame threads, or audio). Used by one
/// decode thread.
package final class StreamDecoder: @unchecked Sendable {  // owns its codec context; used by one decode thread at a time
    private let context: UnsafeMutablePointer<AVCodecContext>
    /// Frames that failed to decode or packets rejected as corrupt (concealed, playback goes on).
    package private(set) var errorCount = 0
    /// The stream's time base, in which packets and frames are stamped.
    package let timeBase: AVRational

    package init(stream: UnsafeMutablePointer<AVStream>, sourceName: String) throws(PlayerError) {
        guard let parameters = stream.pointee.codecpar else {
            throw .decoderUnavailable(source: sourceName, codec: "an unknown codec (no codec parameters)", cause: nil)
        }
        let codecName = Self.codecName(parameters.pointee)
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
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

    /// FFmpeg's name for the codec, or the container's codec tag when FFmpeg does not know it
    /// (`avcodec_get_name` would say "none").
    package static func codecName(_ parameters: AVCodecParameters) -> String {
        if parameters.codec_id != AV_CODEC_ID_NONE { return String(cString: avcodec_get_name(parameters.codec_id)) }
        let tag = parameters.codec_tag
        guard tag != 0 else { return "an unknown codec (the container gives no codec tag)" }
        // A fourcc is four bytes, first byte lowest: 'avc1', 'XVID'.
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        let text = bytes.allSatisfy { (0x20...0x7E).contains($0) } ? "'\(String(decoding: bytes, as: UTF8.self))'"
            : "0x" + String(tag, radix: 16)
        return "an unknown codec (codec tag \(text))"
    }

    /// Feeds one packet (nil drains) and hands every frame it releases to `emit`.
    /// Decoding errors are counted and skipped: the codec conceals them.
    package func decode(_ packet: UnsafeMutablePointer<AVPacket>?, emit: (consuming OwnedFrame) -> Void) {
        fresh = false
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
    package func flush() { avcodec_flush_buffers(context) }

    /// Whether no packet was sent since the codec opened: its delay (Opus's pre-skip) is then still
    /// trimmed by the codec itself.
    private var fresh = true

    /// Makes `packet`, the stream's first, decode as it did when the codec opened: from a clean
    /// state, its first `delay` samples trimmed (timestamps moved past them). A flush or a wrap does
    /// not re-arm that trim, and the samples it hides are the encoder's look-ahead, not sound: kept,
    /// a looped Opus track played them at every wrap (7 ms in its 20 ms frame, heard as a click).
    package func startOver(with packet: UnsafeMutablePointer<AVPacket>) {
        let delay = context.pointee.delay
        guard !fresh, delay > 0 else { return }
        flush()
        // Ogg says what to skip itself; Matroska does not.
        var size = 0
        guard av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size) == nil,
              let side = av_packet_new_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, 10) else { return }
        // AV_PKT_DATA_SKIP_SAMPLES: little-endian u32 samples to skip, u32 to discard at the end, two reason bytes.
        side.initialize(repeating: 0, count: 10)
        for byte in 0..<4 { side[byte] = UInt8(truncatingIfNeeded: UInt32(delay) >> (8 * UInt32(byte))) }
    }

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
