import CFFmpeg

/// The largest picture the player decodes: at most `maxSide` pixels on either side and `maxPixels`
/// in all, and what FFmpeg's image code accepts (`av_image_check_size`). A larger size in a header
/// is far more often corruption than video, and would grind: a 16000x16000 picture from a corrupt
/// AVI header took 3 s a frame and 1.6 GB. Checked at open (the container's size) and on every
/// decoded picture (a size the container did not say). The `PictureSizeLimit` setting changes it.
public struct VideoSizeLimit: Sendable, Equatable, CustomStringConvertible {
    /// The most pixels allowed on either side (1…16384).
    public var maxSide: Int
    /// The most pixels allowed in all, width × height.
    public var maxPixels: Int

    /// 16384 a side and 36 Mpixel: 8K (7680x4320, 8192x4320) and a video wall's wide canvas
    /// (11520x2160) fit; a 16000x16000 header does not.
    public static let standard = VideoSizeLimit(maxSide: 16384, maxPixels: 36_000_000)
    /// The most any limit allows: 16384 a side, the largest texture most GPUs and SDL take.
    package static let largest = VideoSizeLimit(maxSide: 16384, maxPixels: 16384 * 16384)

    /// Each value is kept within 1…16384 a side and 1…16384² pixels.
    public init(maxSide: Int, maxPixels: Int) {
        self.maxSide = min(max(1, maxSide), 16384)
        self.maxPixels = min(max(1, maxPixels), 16384 * 16384)
    }

    /// True for a size the player decodes and shows.
    package func allows(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maxSide, height <= maxSide, width * height <= maxPixels else { return false }
        return av_image_check_size(UInt32(width), UInt32(height), 0, nil) >= 0
    }

    /// E.g. `16384 pixels a side, 36 Mpixel`, for messages.
    public var description: String {
        let megapixels = Double(maxPixels) / 1_000_000
        return "\(maxSide) pixels a side, \(megapixels == megapixels.rounded() ? "\(Int(megapixels))" : "\(megapixels)") Mpixel"
    }

    /// The stream's size if the container declares one over the limit. A 0x0 size is left to the
    /// decoder, which learns the size from the bitstream (each decoded picture is checked too).
    package func refusedSize(of stream: UnsafeMutablePointer<AVStream>) -> (width: Int, height: Int)? {
        let parameters = stream.pointee.codecpar.pointee
        let width = Int(parameters.width), height = Int(parameters.height)
        if width == 0 && height == 0 { return nil }
        return allows(width: width, height: height) ? nil : (width, height)
    }
}
