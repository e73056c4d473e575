import CFFmpeg
import Foundation
import LoopPlayerCore

/// Owns an opened `AVCodecContext` for one subtitle stream and turns its packets into cues.
/// Used by one thread at a time.
///
/// Text codecs (SubRip, WebVTT, mov_text, ASS…) give ASS events; bitmap codecs (DVD, PGS, DVB)
/// give pictures converted from their palette to premultiplied BGRA.
package final class SubtitleDecoder: @unchecked Sendable {  // one C owner, handed between threads, never shared
    private var context: UnsafeMutablePointer<AVCodecContext>?
    package let codecName: String
    package let isBitmap: Bool
    /// Packets the codec rejected (corrupt data, text that is not valid in the expected encoding).
    package private(set) var errorCount = 0
    /// Of those, the ones rejected as invalid data: with text codecs, usually text that is not
    /// UTF-8 (a legacy-encoded file: decode again with a `characterEncoding`).
    private var invalidDataCount = 0

    /// A decoder for `stream`. `characterEncoding` (an iconv name such as `CP1252`) converts
    /// legacy-encoded text subtitles; nil expects UTF-8.
    package convenience init(stream: UnsafeMutablePointer<AVStream>, sourceName: String,
                     characterEncoding: String? = nil) throws(PlayerError) {
        try self.init(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base,
                      sourceName: sourceName, characterEncoding: characterEncoding)
    }

    package init(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational, sourceName: String,
         characterEncoding: String? = nil) throws(PlayerError) {
        let id = parameters.pointee.codec_id
        codecName = String(cString: avcodec_get_name(id))
        isBitmap = SubtitleTrack.isBitmapCodec(id)
        guard parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE, let codec = avcodec_find_decoder(id) else {
            throw .decoderUnavailable(source: sourceName, codec: codecName, cause: nil)
        }
        var context = avcodec_alloc_context3(codec)
        guard let opened = context else { throw .decoderUnavailable(source: sourceName, codec: codecName, cause: nil) }
        var status = avcodec_parameters_to_context(opened, parameters)
        if status >= 0 {
            opened.pointee.pkt_timebase = timeBase
            var options: OpaquePointer?
            if let characterEncoding, !isBitmap { av_dict_set(&options, "sub_charenc", characterEncoding, 0) }
            status = avcodec_open2(opened, codec, &options)
            av_dict_free(&options)
        }
        guard status >= 0 else {
            avcodec_free_context(&context)
            throw .decoderUnavailable(source: sourceName, codec: codecName, cause: FFmpegError(code: status))
        }
        self.context = context
    }

    deinit { avcodec_free_context(&context) }

    /// The codec's ASS header (`[Script Info]`, styles, event format): the file's own for ASS/SSA,
    /// one FFmpeg generates (Arial 16 on a 384×288 script) for the other text codecs; nil for bitmaps.
    /// `ASSRenderer` keeps a file's styles and replaces FFmpeg's generated default with a readable one.
    package var assHeader: String? {
        guard let context, let header = context.pointee.subtitle_header, context.pointee.subtitle_header_size > 0 else { return nil }
        let bytes = UnsafeBufferPointer(start: header, count: Int(context.pointee.subtitle_header_size))
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The stream's time base, in which packets are stamped.
    package var timeBase: AVRational { context?.pointee.pkt_timebase ?? AVRational(num: 1, den: 1000) }

    /// Decodes one packet into zero or more cues (several text rects of one packet are several cues).
    /// A bitmap packet that clears the screen gives one empty cue. Errors are counted, not thrown.
    package func decode(_ packet: UnsafeMutablePointer<AVPacket>) -> [SubtitleCue] {
        guard let context else { return [] }
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let status = avcodec_decode_subtitle2(context, &subtitle, &got, packet)
        if status < 0 {
            errorCount += 1
            if status == FFmpegError.invalidData { invalidDataCount += 1 }
            return []
        }
        guard got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        guard let (start, end) = times(of: subtitle, packet: packet.pointee) else {
            errorCount += 1
            return []
        }
        var cues: [SubtitleCue] = []
        var bitmaps: [SubtitleBitmap] = []
        var forced = false
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[index] else { continue }
            forced = forced || rect.pointee.flags & AV_SUBTITLE_FLAG_FORCED != 0
            switch rect.pointee.type {
            case SUBTITLE_BITMAP:
                if let bitmap = Self.bitmap(of: rect.pointee) { bitmaps.append(bitmap) }
            case SUBTITLE_ASS:
                if let ass = rect.pointee.ass {
                    cues.append(SubtitleCue(start: start, end: end, content: .text(assEvent: String(cString: ass))))
                }
            case SUBTITLE_TEXT:
                if let text = rect.pointee.text {
                    cues.append(SubtitleCue(start: start, end: end,
                                            content: .text(assEvent: ASSEvent.event(plainText: String(cString: text)))))
                }
            default:
                continue
            }
        }
        if isBitmap {
            cues.append(SubtitleCue(start: start, end: end, content: .bitmap(bitmaps, canvas: canvas(for: bitmaps)),
                                    isForced: forced))
        }
        return cues
    }

    /// Forgets buffered state (after a seek or at the wrap of a loop).
    package func flush() {
        guard let context else { return }
        avcodec_flush_buffers(context)
    }

    /// Start and end in seconds of the stream's timeline. The display times are milliseconds
    /// after the subtitle's time stamp: the packet's, which FFmpeg copies into `AVSubtitle.pts`
    /// unless the codec knows better (PGS stamps a display set with its first segment's time).
    /// An end of 0 or `UInt32.max` with no packet duration means "until the next subtitle".
    private func times(of subtitle: AVSubtitle, packet: AVPacket) -> (Double, Double)? {
        let base: Double
        if subtitle.pts != noTimestamp {
            base = Double(subtitle.pts) / Double(AV_TIME_BASE)
        } else if packet.pts != noTimestamp {
            base = Double(packet.pts) * timeBase.seconds
        } else if packet.dts != noTimestamp {
            base = Double(packet.dts) * timeBase.seconds
        } else {
            return nil
        }
        let start = base + Double(subtitle.start_display_time) / 1000
        let endTime = subtitle.end_display_time
        if endTime != 0 && endTime != UInt32.max && endTime > subtitle.start_display_time {
            return (start, base + Double(endTime) / 1000)
        }
        if packet.duration > 0 {
            return (start, base + Double(packet.duration) * timeBase.seconds)
        }
        return (start, .infinity)
    }

    /// The canvas bitmaps are placed on: the codec's presentation size (DVD from the stream
    /// header, PGS from its presentation segment, DVB from its display definition); without one,
    /// the smallest usual size holding every picture.
    private func canvas(for bitmaps: [SubtitleBitmap]) -> SubtitleCanvas {
        if let context, context.pointee.width > 0, context.pointee.height > 0 {
            return SubtitleCanvas(width: Int(context.pointee.width), height: Int(context.pointee.height))
        }
        let right = bitmaps.map { $0.x + $0.width }.max() ?? 0
        let bottom = bitmaps.map { $0.y + $0.height }.max() ?? 0
        let usual = [(720, 480), (720, 576), (1280, 720), (1920, 1080), (3840, 2160)]
        let size = usual.first { $0.0 >= right && $0.1 >= bottom } ?? (right, bottom)
        return SubtitleCanvas(width: size.0, height: size.1)
    }

    /// Largest picture converted (PGS allows 4096×4096); larger ones are dropped as corrupt.
    private static let maximumBitmapSide = 8192

    /// A PAL8 picture (indices in `data[0]`, native-endian ARGB palette in `data[1]`) as
    /// premultiplied BGRA. Indices past the palette are transparent.
    package static func bitmap(of rect: AVSubtitleRect) -> SubtitleBitmap? {
        let width = Int(rect.w), height = Int(rect.h)
        guard width > 0, height > 0, width <= maximumBitmapSide, height <= maximumBitmapSide,
              let indices = rect.data.0, let paletteBytes = rect.data.1, rect.linesize.0 >= rect.w else { return nil }
        let colorCount = min(256, max(0, Int(rect.nb_colors)))
        var palette = [UInt32](repeating: 0, count: 256)
        paletteBytes.withMemoryRebound(to: UInt32.self, capacity: colorCount) { source in
            for index in 0..<colorCount { palette[index] = premultipliedBGRA(argb: source[index]) }
        }
        let stride = Int(rect.linesize.0)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { raw in
            let out = raw.bindMemory(to: UInt32.self)
            for y in 0..<height {
                let row = indices + y * stride
                for x in 0..<width { out[y * width + x] = palette[Int(row[x])] }
            }
        }
        return SubtitleBitmap(x: Int(rect.x), y: Int(rect.y), width: width, height: height, pixels: pixels)
    }

    /// 0xAARRGGBB (straight alpha) to the 32-bit word whose little-endian bytes are premultiplied B, G, R, A.
    package static func premultipliedBGRA(argb: UInt32) -> UInt32 {
        let a = argb >> 24
        func scaled(_ shift: UInt32) -> UInt32 { Pixels.divideBy255(((argb >> shift) & 0xFF) * a) << shift }
        return (a << 24) | scaled(16) | scaled(8) | scaled(0)
    }
}
