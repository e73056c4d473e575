import CFFmpeg

/// A decoded picture on the loop's monotonic presentation timeline. Owns its `AVFrame`.
///
/// Made on the decode thread, then read only (by the presenter on the main thread).
public final class VideoFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>
    /// Presentation time on the monotonic timeline, in seconds from the first frame of pass 0.
    public let time: Double
    /// How long this frame is meant to stay on screen, in seconds.
    public let duration: Double
    /// Which pass of the loop this frame belongs to (0 for the first).
    public let pass: Int
    /// Position inside the current pass, in seconds.
    public let positionInPass: Double
    /// The seek generation it was decoded for.
    let generation: Int

    init(taking frame: UnsafeMutablePointer<AVFrame>, time: Double, duration: Double,
         pass: Int, positionInPass: Double, generation: Int) {
        pointer = frame
        self.time = time
        self.duration = duration
        self.pass = pass
        self.positionInPass = positionInPass
        self.generation = generation
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
    var byteCount: Int { width * height * 3 / 2 }

    deinit { var frame: UnsafeMutablePointer<AVFrame>? = pointer; av_frame_free(&frame) }
}

/// What flows from a decoder to the presenter.
enum FrameItem: Sendable {
    case frame(VideoFrame)
    /// Every frame of a non-looping input has been delivered.
    case endOfStream(generation: Int)

    var generation: Int {
        switch self {
        case let .frame(frame): frame.generation
        case let .endOfStream(generation): generation
        }
    }
}
