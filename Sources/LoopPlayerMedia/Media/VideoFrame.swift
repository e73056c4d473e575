import CFFmpeg
import FFmpegSupport
import Filters
import LoopPlayerCore

/// A decoded picture on the loop's monotonic presentation timeline. Owns its `AVFrame`.
///
/// Made on the decode thread, then read only (by the presenter on the main thread). Sendable as its
/// `OwnedFrame`s are: nothing writes a picture once it is in a `VideoFrame` (`pointer` is for reading).
public final class VideoFrame: Sendable {
    private let picture: OwnedFrame
    /// The decoded picture before filtering (a reference, no copy), kept so a paused picture can be
    /// filtered again; nil when no filter ran.
    private let unfilteredPicture: OwnedFrame?
    /// The unfiltered picture: the kept source, or the picture itself when no filter ran.
    package var unfiltered: UnsafeMutablePointer<AVFrame> {
        switch unfilteredPicture {
        case let kept?: kept.pointer
        case nil: picture.pointer
        }
    }
    /// Presentation time on the monotonic timeline, in seconds from the first frame of pass 0.
    public let time: Double
    /// How long this frame is meant to stay on screen, in seconds.
    public let duration: Double
    /// Which pass of the loop this frame belongs to (0 for the first).
    public let pass: Int
    /// Position inside the current pass, in seconds.
    public let positionInPass: Double
    /// The seek generation it was decoded for.
    package let generation: Int
    /// Shape as shown: this frame's own size (filters may crop or turn it), the stream's rotation.
    package let geometry: VideoGeometry
    /// Which filter stack (`FilterStack.revision`) and brightness/contrast produced this picture.
    package let filtering: FilterStamp
    /// The HLS variant it was decoded from (nil for other sources).
    package let variant: StreamVariant?

    package init(picture: consuming OwnedFrame, unfiltered: consuming OwnedFrame?, filtering: FilterStamp = FilterStamp(),
         time: Double, duration: Double, pass: Int, positionInPass: Double, generation: Int, rotation: Int,
         streamAspect: Double, variant: StreamVariant? = nil) {
        let sar = picture.pointer.pointee.sample_aspect_ratio
        geometry = VideoGeometry(width: Int(picture.pointer.pointee.width), height: Int(picture.pointer.pointee.height),
                                 sampleAspectRatio: sar.num > 0 && sar.den > 0 ? sar.seconds : streamAspect,
                                 rotation: rotation)
        self.picture = picture
        unfilteredPicture = unfiltered
        self.filtering = filtering
        self.time = time
        self.duration = duration
        self.pass = pass
        self.positionInPass = positionInPass
        self.generation = generation
        self.variant = variant
    }

    /// The same moment with a differently filtered picture.
    package func replacingPicture(with picture: consuming OwnedFrame, unfiltered: consuming OwnedFrame?,
                          filtering: FilterStamp) -> VideoFrame {
        VideoFrame(picture: picture, unfiltered: unfiltered, filtering: filtering, time: time, duration: duration,
                   pass: pass, positionInPass: positionInPass, generation: generation, rotation: geometry.rotation,
                   streamAspect: geometry.sampleAspectRatio, variant: variant)
    }

    /// The picture to show (read-only: renderers and snapshots only read it).
    package var pointer: UnsafeMutablePointer<AVFrame> { picture.pointer }

    /// A new reference to the unfiltered picture (for filtering it again elsewhere).
    package func unfilteredReference() -> OwnedFrame? {
        av_frame_clone(unfiltered).map(OwnedFrame.init(taking:))
    }

    /// Width of the decoded picture in pixels, before aspect ratio and rotation are applied.
    public var width: Int { geometry.width }
    /// Height of the decoded picture in pixels, before rotation is applied.
    public var height: Int { geometry.height }
    package var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: picture.pointer.pointee.format) }
    /// yuv420p/nv12: the luma plane plus two chroma planes of ⌈w/2⌉×⌈h/2⌉ (odd sizes round up).
    package var byteCount: Int { width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2) }
}

/// What flows from a decoder to the presenter.
package enum FrameItem: Sendable {
    case frame(VideoFrame)
    /// Every frame of a non-looping input has been delivered (`resumable`: see `StageMessage`).
    case endOfStream(generation: Int, resumable: Bool = false)

    package var generation: Int {
        switch self {
        case let .frame(frame): frame.generation
        case let .endOfStream(generation, _): generation
        }
    }
}

/// The filter stack revision and brightness/contrast a picture was made with.
package struct FilterStamp: Equatable, Sendable {
    package var revision = 0
    package var adjustment = ColorAdjustment()

    package init(revision: Int = 0, adjustment: ColorAdjustment = ColorAdjustment()) {
        self.revision = revision
        self.adjustment = adjustment
    }

    package init(_ stack: FilterStack) {
        self.init(revision: stack.revision, adjustment: stack.adjustment)
    }
}
