import CFFmpeg

/// The picture sizes the player takes: what FFmpeg's image code accepts (`av_image_check_size`),
/// and at most `maxSide` on either side. A larger size in a header is far more often corruption
/// than video, and would fail later, less clearly (a texture, a scaler or a decoder refusing it).
public enum VideoSizeLimit {
    /// 16384: 16K video fits, and it is the largest texture most GPUs and SDL's renderers take.
    public static let maxSide = 16384

    /// True for a size the player can show.
    public static func isSupported(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maxSide, height <= maxSide else { return false }
        return av_image_check_size(UInt32(width), UInt32(height), 0, nil) >= 0
    }

    /// The stream's size if the container declares one the player cannot show. A 0x0 size is left
    /// to the decoder, which learns the size from the bitstream.
    static func unsupportedSize(of stream: UnsafeMutablePointer<AVStream>) -> (width: Int, height: Int)? {
        let parameters = stream.pointee.codecpar.pointee
        let width = Int(parameters.width), height = Int(parameters.height)
        if width == 0 && height == 0 { return nil }
        return isSupported(width: width, height: height) ? nil : (width, height)
    }
}
