import CFFmpeg
import FFmpegSupport

/// Converts decoded frames the renderers cannot upload directly (10-bit, 4:4:4, RGB…) to yuv420p,
/// on the decode thread so the main thread only uploads.
final class PixelFormatNormalizer {
    private var scaler: OpaquePointer?

    deinit { sws_freeContext(scaler) }

    static func isDisplayable(_ format: AVPixelFormat) -> Bool {
        format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_NV12
    }

    /// Returns `frame` itself when displayable, else a converted copy (and frees `frame`).
    func normalize(_ frame: UnsafeMutablePointer<AVFrame>) -> UnsafeMutablePointer<AVFrame> {
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        guard !Self.isDisplayable(source), let output = av_frame_alloc() else { return frame }
        let width = frame.pointee.width, height = frame.pointee.height
        output.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        output.pointee.width = width
        output.pointee.height = height
        scaler = sws_getCachedContext(scaler, width, height, source, width, height, AV_PIX_FMT_YUV420P,
                                      SWS_BILINEAR, nil, nil, nil)
        guard scaler != nil, av_frame_get_buffer(output, 0) >= 0 else {
            var unused: UnsafeMutablePointer<AVFrame>? = output
            av_frame_free(&unused)
            return frame
        }
        av_frame_copy_props(output, frame)
        withFramePlanes(frame) { sourcePlanes, sourceStrides in
            withMutableFramePlanes(output) { outputPlanes, outputStrides in
                _ = sws_scale(scaler, sourcePlanes, sourceStrides, 0, height, outputPlanes, outputStrides)
            }
        }
        var consumed: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&consumed)
        return output
    }
}
