import CFFmpeg
import Filters

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
    /// Shape as shown: this frame's own size (filters may crop or turn it), the stream's rotation.
    public let geometry: VideoGeometry
    /// The decoded picture before filtering (a reference, no copy), kept so a paused picture can be
    /// filtered again; nil when no filter ran.
    let source: UnsafeMutablePointer<AVFrame>?
    /// Which filter stack (`FilterStack.revision`) and brightness/contrast produced this picture.
    let filtering: FilterStamp

    init(taking frame: UnsafeMutablePointer<AVFrame>, source: UnsafeMutablePointer<AVFrame>? = nil,
         filtering: FilterStamp = FilterStamp(), time: Double,
         duration: Double, pass: Int, positionInPass: Double, generation: Int, rotation: Int, streamAspect: Double) {
        pointer = frame
        self.source = source
        self.filtering = filtering
        self.time = time
        self.duration = duration
        self.pass = pass
        self.positionInPass = positionInPass
        self.generation = generation
        let sar = frame.pointee.sample_aspect_ratio
        geometry = VideoGeometry(width: Int(frame.pointee.width), height: Int(frame.pointee.height),
                                 sampleAspectRatio: sar.num > 0 && sar.den > 0 ? sar.seconds : streamAspect,
                                 rotation: rotation)
    }

    /// The same moment with a differently filtered picture. `source` is the unfiltered picture.
    func replacingPicture(with picture: UnsafeMutablePointer<AVFrame>, source: UnsafeMutablePointer<AVFrame>?,
                          filtering: FilterStamp) -> VideoFrame {
        VideoFrame(taking: picture, source: source, filtering: filtering, time: time, duration: duration, pass: pass,
                   positionInPass: positionInPass, generation: generation, rotation: geometry.rotation,
                   streamAspect: geometry.sampleAspectRatio)
    }

    /// The unfiltered picture: the kept source, or the picture itself when no filter ran.
    var unfiltered: UnsafeMutablePointer<AVFrame> { source ?? pointer }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
    var byteCount: Int { width * height * 3 / 2 }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
        var original = source
        av_frame_free(&original)
    }
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

/// The filter stack revision and brightness/contrast a picture was made with.
struct FilterStamp: Equatable, Sendable {
    var revision = 0
    var adjustment = ColorAdjustment()

    init(revision: Int = 0, adjustment: ColorAdjustment = ColorAdjustment()) {
        self.revision = revision
        self.adjustment = adjustment
    }

    init(_ stack: FilterStack) {
        self.init(revision: stack.revision, adjustment: stack.adjustment)
    }
}
