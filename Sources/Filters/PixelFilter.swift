/// A filter written in Swift: it receives the picture's planes and changes them in place.
///
/// ```swift
/// struct ScanLines: PixelFilter {
///     func apply(to picture: PixelPlanes, time: Double) {
///         for y in stride(from: 0, to: picture.height, by: 2) {
///             for x in 0..<picture.width { picture.luma[y * picture.lumaStride + x] /= 2 }
///         }
///     }
/// }
/// ```
/// It runs on the decode thread, between the libavfilter graphs around it in the stack. When the
/// stack changes, pictures already decoded (and a paused picture) are filtered again on a worker
/// thread, so `apply` may be called from two threads at once and not in presentation order: keep
/// it free of mutable state, or guard that state yourself. `time` says which picture it is.
public protocol PixelFilter: Sendable {
    /// Changes `picture` in place; `time` is its presentation time in seconds. Must not keep the pointers.
    func apply(to picture: PixelPlanes, time: Double)
}

/// The writable planes of an 8-bit 4:2:0 picture (Y full size; Cb and Cr half size each way).
public struct PixelPlanes {
    /// Picture width in pixels (the luma plane's).
    public let width: Int
    /// Picture height in pixels (the luma plane's).
    public let height: Int
    /// The Y plane: `height` rows of `width` bytes, each row `lumaStride` bytes after the previous.
    public let luma: UnsafeMutablePointer<UInt8>
    /// Bytes from one luma row to the next (at least `width`).
    public let lumaStride: Int
    /// The Cb (U) plane: `chromaHeight` rows of `chromaWidth` bytes, rows `chromaStride` apart.
    public let cb: UnsafeMutablePointer<UInt8>
    /// The Cr (V) plane, laid out like `cb`.
    public let cr: UnsafeMutablePointer<UInt8>
    /// Bytes from one chroma row to the next, in `cb` and `cr` alike.
    public let chromaStride: Int

    /// Describes planes that the caller owns and keeps alive while they are used.
    public init(width: Int, height: Int, luma: UnsafeMutablePointer<UInt8>, lumaStride: Int,
                cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStride: Int) {
        self.width = width
        self.height = height
        self.luma = luma
        self.lumaStride = lumaStride
        self.cb = cb
        self.cr = cr
        self.chromaStride = chromaStride
    }

    /// Width of the Cb and Cr planes: half the picture's, rounded up.
    public var chromaWidth: Int { (width + 1) / 2 }
    /// Height of the Cb and Cr planes: half the picture's, rounded up.
    public var chromaHeight: Int { (height + 1) / 2 }
}
