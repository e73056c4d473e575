import CFFmpeg
import CPixelKernels
import FFmpegSupport

/// Brightness and contrast (`ColorAdjustment`) on an 8-bit picture's luma plane, through a table of
/// 256 values computed as `lutyuv` evaluates `lumaExpression` (the same output to the level). A
/// picture the chain owns alone (a colour matrix's) is changed in place; a shared one (the decoder's)
/// gets a new luma plane from a pool and keeps its chroma planes by reference, without a copy.
/// libavfilter's `lutyuv` copies every plane of a picture it does not own, chroma included. Pictures
/// of other formats go through `lutyuv` instead (`FilterChain`). One thread at a time.
final class LumaAdjuster {
    private var table = [UInt8](repeating: 0, count: 256)
    private var pool: OpaquePointer?  // AVBufferPool
    private var poolPlaneSize = 0
    /// Rows of a new luma plane are this many bytes apart at least (SIMD loads downstream).
    private static let alignment = 64

    init(_ adjustment: ColorAdjustment) { set(adjustment) }

    deinit { av_buffer_pool_uninit(&pool) }  // planes still in frames stay valid until those are freed

    /// Uses `adjustment` from the next picture on.
    func set(_ adjustment: ColorAdjustment) { table = adjustment.lumaTable }

    /// Whether `frame`'s first plane is 8-bit luma whose code values the table applies to as
    /// `lutyuv` would, and its other planes can be kept as they are. Full-range NV12 is left to the
    /// graph, which turns it into limited-range yuv420p before `lutyuv` (as before this type).
    static func accepts(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        switch frame.pointee.format {
        case AV_PIX_FMT_YUV420P.rawValue, AV_PIX_FMT_YUVJ420P.rawValue: true
        case AV_PIX_FMT_NV12.rawValue: frame.pointee.color_range != AVCOL_RANGE_JPEG
        default: false
        }
    }

    /// The adjusted picture: `frame` itself changed in place when the chain owns it alone, otherwise
    /// a new frame with `frame`'s properties and chroma; nil when out of memory or when `accepts` says no.
    func apply(to frame: consuming OwnedFrame) -> OwnedFrame? {
        let source = frame.pointer
        let picture = source.pointee
        guard Self.accepts(source), let sourceLuma = picture.data.0 else { return nil }
        if av_frame_is_writable(source) != 0 {
            map(picture.width, picture.height, from: sourceLuma, stride: picture.linesize.0, into: sourceLuma, stride: picture.linesize.0)
            return frame
        }
        guard let output = OwnedFrame() else { return nil }
        let target = output.pointer
        let stride = (Int(picture.width) + Self.alignment - 1) / Self.alignment * Self.alignment
        target.pointee.format = picture.format
        target.pointee.width = picture.width
        target.pointee.height = picture.height
        guard av_frame_copy_props(target, source) >= 0,
              let luma = lumaPlane(size: stride * Int(picture.height) + Self.alignment), let targetLuma = luma.pointee.data
        else { return nil }
        target.pointee.buf.0 = luma
        target.pointee.data.0 = targetLuma
        target.pointee.linesize.0 = Int32(stride)
        guard shareChroma(of: source, with: target) else { return nil }
        map(picture.width, picture.height, from: sourceLuma, stride: picture.linesize.0, into: targetLuma, stride: Int32(stride))
        return output
    }

    private func map(_ width: Int32, _ height: Int32, from source: UnsafeMutablePointer<UInt8>, stride sourceStride: Int32,
                     into target: UnsafeMutablePointer<UInt8>, stride targetStride: Int32) {
        table.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return }
            lp_plane_table_apply(table, width, height, source, sourceStride, target, targetStride)
        }
    }

    /// A luma plane of `size` bytes from the pool (made again when the size changes).
    private func lumaPlane(size: Int) -> UnsafeMutablePointer<AVBufferRef>? {
        if pool == nil || size != poolPlaneSize {
            av_buffer_pool_uninit(&pool)
            pool = av_buffer_pool_init(size, nil)
            poolPlaneSize = size
        }
        guard let pool else { return nil }
        return av_buffer_pool_get(pool)
    }
    /// `target` shows `source`'s chroma planes and holds a reference to each buffer they lie in.
    private func shareChroma(of source: UnsafeMutablePointer<AVFrame>, with target: UnsafeMutablePointer<AVFrame>) -> Bool {
        let planes = source.pointee.format == AV_PIX_FMT_NV12.rawValue ? 1...1 : 1...2
        var shared: [UnsafeMutablePointer<AVBufferRef>] = []
        for plane in planes {
            guard let buffer = av_frame_get_plane_buffer(source, Int32(plane)) else { return false }
            if !shared.contains(buffer) { shared.append(buffer) }
        }
        for (slot, buffer) in shared.enumerated() {
            guard let reference = av_buffer_ref(buffer) else { return false }
            withUnsafeMutableBytes(of: &target.pointee.buf) { slots in
                slots.storeBytes(of: reference, toByteOffset: (slot + 1) * MemoryLayout<UnsafeMutablePointer<AVBufferRef>?>.stride,
                                 as: UnsafeMutablePointer<AVBufferRef>?.self)
            }
        }
        target.pointee.data.1 = source.pointee.data.1
        target.pointee.linesize.1 = source.pointee.linesize.1
        if planes.count > 1 {
            target.pointee.data.2 = source.pointee.data.2
            target.pointee.linesize.2 = source.pointee.linesize.2
        }
        return true
    }
}
