import CFFmpeg
import CPixelKernels
import FFmpegSupport

/// Brightness and contrast (`ColorAdjustment`) on an 8-bit picture's luma plane: a table of 256
/// values maps it into a new plane, and the chroma planes are shared with the source picture (one
/// more reference, no copy). libavfilter's `lutyuv` copies every plane of a picture it does not own
/// (a decoder's), chroma included. Pictures of other formats go through `lutyuv` instead
/// (`FilterChain`). One thread at a time.
final class LumaAdjuster: @unchecked Sendable {  // owns its buffer pool; used by one filter thread at a time
    private var table = [UInt8](repeating: 0, count: 256)
    private var pool: OpaquePointer?  // AVBufferPool
    private var poolPlaneSize = 0
    /// Rows of the new luma plane are this many bytes apart at least (SIMD loads downstream).
    private static let alignment = 64

    init(_ adjustment: ColorAdjustment) { set(adjustment) }

    deinit { av_buffer_pool_uninit(&pool) }  // planes still in frames stay valid until those are freed

    /// Uses `adjustment` from the next picture on.
    func set(_ adjustment: ColorAdjustment) {
        for value in 0..<256 { table[value] = adjustment.adjust(luma: UInt8(value)) }
    }

    /// Formats whose first plane is 8-bit luma and whose other planes can be shared as they are.
    static func accepts(_ format: Int32) -> Bool {
        format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue || format == AV_PIX_FMT_NV12.rawValue
    }

    /// The adjusted picture: a new frame with `frame`'s properties and chroma; nil when out of memory
    /// or when the format is not one of `accepts`.
    func apply(to frame: borrowing OwnedFrame) -> OwnedFrame? {
        let source = frame.pointer
        let picture = source.pointee
        guard Self.accepts(picture.format), let sourceLuma = picture.data.0, let output = OwnedFrame() else { return nil }
        let target = output.pointer
        let stride = (Int(picture.width) + Self.alignment - 1) / Self.alignment * Self.alignment
        guard av_frame_copy_props(target, source) >= 0,
              let luma = lumaPlane(size: stride * Int(picture.height) + Self.alignment) else { return nil }
        target.pointee.format = picture.format
        target.pointee.width = picture.width
        target.pointee.height = picture.height
        target.pointee.buf.0 = luma
        target.pointee.data.0 = luma.pointee.data
        target.pointee.linesize.0 = Int32(stride)
        guard shareChroma(of: source, with: target), let targetLuma = luma.pointee.data else { return nil }
        table.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return }
            lp_plane_table_apply(table, picture.width, picture.height, sourceLuma, picture.linesize.0, targetLuma, Int32(stride))
        }
        return output
    }

    /// A luma plane of `size` bytes from the pool (made again when the size changes).
    private func lumaPlane(size: Int) -> UnsafeMutablePointer<AVBufferRef>? {
        if pool == nil || size != poolPlaneSize {
            av_buffer_pool_uninit(&pool)
            pool = av_buffer_pool_init(size, nil)
            poolPlaneSize = size
        }
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
