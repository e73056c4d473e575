import CFFmpeg
import Filters
import Synchronization

/// Filters the paused picture again with a new stack, on its own short-lived thread (a heavy
/// filter must not freeze the window), and hands the result to the main thread.
final class PausedFrameRefilter: Sendable {
    private final class Mailbox: Sendable {
        let frame = Mutex<VideoFrame?>(nil)
    }

    private let result = Mailbox()
    private let worker = Mutex<WorkerThread?>(nil)

    /// Starts filtering `frame`'s unfiltered picture; `done` wakes the main loop.
    func start(_ frame: VideoFrame, stack: FilterStack, timeBase: AVRational, done: @escaping @Sendable () -> Void) {
        guard let source = frame.source ?? av_frame_clone(frame.pointer) else { return }
        let original = SendableFrame(pointer: source)
        worker.withLock { $0?.join() }
        let thread = WorkerThread(name: "lp-refilter") { [result] in
            defer { var consumed: UnsafeMutablePointer<AVFrame>? = original.pointer; av_frame_free(&consumed) }
            let chain = stack.isIdentity ? nil : FilterChain(stack: stack, timeBase: timeBase)
            let picture = chain.flatMap { try? $0.process(original.pointer, time: frame.time).last } ?? av_frame_clone(original.pointer)
            guard let picture else { return }
            result.frame.withLock { $0 = frame.replacingPicture(with: picture) }
            done()
        }
        worker.withLock { $0 = thread }
    }

    /// The re-filtered picture, once ready.
    func take() -> VideoFrame? { result.frame.withLock { frame in defer { frame = nil }; return frame } }

    deinit { worker.withLock { $0?.join() } }
}

/// An `AVFrame` handed to exactly one other thread.
struct SendableFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>
}
