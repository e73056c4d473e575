import CFFmpeg
import FFmpegSupport

/// Converts decoded frames the renderers cannot upload directly (10-bit, 4:4:4, RGB…) to yuv420p,
/// on the decode thread so the main thread only uploads.
package final class PixelFormatNormalizer {
    private var scaler: OpaquePointer?

    deinit { sws_freeContext(scaler) }

    private static func isDisplayable(_ format: AVPixelFormat) -> Bool {
        format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_NV12
    }

    /// `frame` itself when displayable, else a yuv420p copy (or `frame` if the conversion failed).
    package func normalize(_ frame: consuming OwnedFrame) -> OwnedFrame {
        let source = AVPixelFormat(rawValue: frame.pointer.pointee.format)
        guard !Self.isDisplayable(source), let output = OwnedFrame() else { return frame }
        let width = frame.pointer.pointee.width, height = frame.pointer.pointee.height
        output.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        output.pointer.pointee.width = width
        output.pointer.pointee.height = height
        scaler = sws_getCachedContext(scaler, width, height, source, width, height, AV_PIX_FMT_YUV420P,
                                      SWS_BILINEAR, nil, nil, nil)
        guard scaler != nil, av_frame_get_buffer(output.pointer, 0) >= 0 else { return frame }
        av_frame_copy_props(output.pointer, frame.pointer)
        // From RGB, swscale writes limited-range BT.601 YUV: say so, or a full-range RGB source
        // (the usual) would be shown washed out (black at 16, white at 235).
        if let descriptor = av_pix_fmt_desc_get(source), descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 {
            output.pointer.pointee.color_range = AVCOL_RANGE_MPEG
            output.pointer.pointee.colorspace = AVCOL_SPC_SMPTE170M
        }
        withFramePlanes(frame.pointer) { sourcePlanes, sourceStrides in
            withMutableFramePlanes(output.pointer) { outputPlanes, outputStrides in
                _ = sws_scale(scaler, sourcePlanes, sourceStrides, 0, height, outputPlanes, outputStrides)
            }
        }
        return output
    }

    package init() {}
}
