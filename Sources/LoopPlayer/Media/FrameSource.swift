import CFFmpeg

/// What the video decode thread pulls pictures from: a decoder, or the black picture of
/// audio-only media. Used by one thread.
protocol FrameSource: AnyObject, Sendable {
    /// Feeds one packet (nil drains) and hands every picture it releases to `emit`, which owns it.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>?, emit: (UnsafeMutablePointer<AVFrame>) -> Void)
    /// Forgets buffered state (after a seek, or to accept packets again after a drain).
    func flush()
    /// Packets or pictures that failed (concealed, playback goes on).
    var errorCount: Int { get }
}

extension StreamDecoder: FrameSource {}
