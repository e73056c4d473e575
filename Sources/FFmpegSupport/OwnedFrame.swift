import CFFmpeg
import Synchronization

/// The single owner of an `AVFrame`: freed when the owner goes away, moved (never copied) from one
/// stage to the next, so a leak or a double free does not compile.
///
/// ```swift
/// guard let frame = OwnedFrame() else { return }       // av_frame_alloc
/// decoder.receive(into: frame)
/// queue.push(consume frame)                            // the queue owns it now
/// ```
/// `pointer` is for reading and for handing to FFmpeg calls that borrow the frame; nobody else frees it.
package struct OwnedFrame: ~Copyable, @unchecked Sendable {  // unique owner: moving it moves the frame
    package let pointer: UnsafeMutablePointer<AVFrame>

    /// A new, empty frame; nil when out of memory.
    package init?() {
        guard let frame = av_frame_alloc() else { return nil }
        pointer = frame
    }

    /// Takes over a frame FFmpeg handed out (e.g. from `av_frame_clone`).
    package init(taking frame: UnsafeMutablePointer<AVFrame>) {
        pointer = frame
    }

    /// A new reference to the same picture or samples (no copy of the data); nil when out of memory.
    package func reference() -> OwnedFrame? {
        av_frame_clone(pointer).map(OwnedFrame.init(taking:))
    }

    /// Makes the data writable by this owner alone (copying it if another reference shares it).
    package func makeWritable() -> Bool { av_frame_make_writable(pointer) >= 0 }

    /// Gives up ownership: the caller must free the frame (or hand it to another owner).
    package consuming func release() -> UnsafeMutablePointer<AVFrame> {
        let frame = pointer
        discard self
        return frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}

/// Hands an owned frame to another thread (escaping closures cannot capture a noncopyable value):
/// the receiver takes it exactly once.
package final class FrameHandoff: Sendable {
    private let frame: Mutex<OwnedFrame?>

    package init(_ frame: consuming OwnedFrame) { self.frame = Mutex(frame) }

    /// The frame; nil after the first call.
    package func take() -> OwnedFrame? { frame.withLock { $0.take() } }
}
