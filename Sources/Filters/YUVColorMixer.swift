import CFFmpeg
import CPixelKernels
import FFmpegSupport

/// An RGB colour matrix (sepia, `colorMatrix`) applied straight to an 8-bit 4:2:0 picture: each
/// pixel is mixed as if it had been converted to RGB (clipped to 0…255) and back — its luma from its
/// own mixed colour, its block's chroma from the mean of the block's four — with the picture's own
/// YUV matrix and range. libavfilter's `colorchannelmixer` works in RGB only, so it needs a conversion
/// to rgb24 and back around it, which cost more than the mix itself (`docs/benchmarks.md`).
struct YUVColorMixer {
    let matrix: ColorMatrix

    /// Formats it reads and writes: 8-bit 4:2:0, limited or full range.
    static func accepts(_ format: Int32) -> Bool {
        format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue
    }

    /// The mixed picture, a new frame with `frame`'s properties; nil when out of memory or when
    /// `frame` is not 8-bit 4:2:0.
    func apply(to frame: borrowing OwnedFrame) -> OwnedFrame? {
        let source = frame.pointer
        guard Self.accepts(source.pointee.format), let output = OwnedFrame() else { return nil }
        let target = output.pointer
        target.pointee.format = source.pointee.format
        target.pointee.width = source.pointee.width
        target.pointee.height = source.pointee.height
        guard av_frame_get_buffer(target, 0) >= 0, av_frame_copy_props(target, source) >= 0,
              let sourceY = source.pointee.data.0, let sourceCb = source.pointee.data.1, let sourceCr = source.pointee.data.2,
              let targetY = target.pointee.data.0, let targetCb = target.pointee.data.1, let targetCr = target.pointee.data.2
        else { return nil }
        let picture = source.pointee
        let space = YUVMatrix(tagged: picture.colorspace, height: Int(picture.height))
        let fullRange = picture.color_range == AVCOL_RANGE_JPEG || picture.format == AV_PIX_FMT_YUVJ420P.rawValue
        var mixer = lp_rgb_matrix()
        matrix.values.withUnsafeBufferPointer { values in
            lp_rgb_matrix_prepare(&mixer, values.baseAddress, space.lumaWeights.red, space.lumaWeights.blue, fullRange ? 1 : 0)
        }
        var from = lp_yuv420_planes(y: sourceY, cb: sourceCb, cr: sourceCr, y_stride: picture.linesize.0,
                                    cb_stride: picture.linesize.1, cr_stride: picture.linesize.2)
        var into = lp_yuv420_planes(y: targetY, cb: targetCb, cr: targetCr, y_stride: target.pointee.linesize.0,
                                    cb_stride: target.pointee.linesize.1, cr_stride: target.pointee.linesize.2)
        guard lp_rgb_matrix_apply(&mixer, picture.width, picture.height, &from, &into) == 0 else { return nil }
        // The picture is tagged with the matrix it was mixed with (an untagged one stays readable the same way).
        target.pointee.colorspace = space.colorSpace
        return output
    }
}
