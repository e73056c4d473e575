import CFFmpeg
import FFmpegSupport
import LoopPlayerCore

/// What the picture stage pulls pictures from: a decoder, or the black picture of audio-only
/// media. Used by one thread.
package protocol FrameSource: AnyObject, Sendable {
    /// Feeds one packet (nil drains) and hands every picture it releases to `emit`. `timeline` is
    /// the stage's view of the loop (the black picture needs the pass boundaries).
    func decode(_ packet: UnsafeMutablePointer<AVPacket>?, timeline: LoopTimeline, emit: (consuming OwnedFrame) -> Void)
    /// Forgets buffered state (after a seek, or to accept packets again after a drain).
    func flush()
    /// Packets or pictures that failed (concealed, playback goes on).
    var errorCount: Int { get }
}

extension StreamDecoder: FrameSource {
    package func decode(_ packet: UnsafeMutablePointer<AVPacket>?, timeline: LoopTimeline, emit: (consuming OwnedFrame) -> Void) {
        decode(packet, emit: emit)
    }
}
