import CFFmpeg
import Filters
import Synchronization

/// Filters a picture again with a newer stack, off the main thread (a heavy filter must not freeze
/// the window), and hands the result back: frames decoded before a stack change, and the paused picture.
final class FrameRefilter: Sendable {
    private final class Mailbox: Sendable {
        let frame = Mutex<VideoFrame?>(nil)
    }

    private let result = Mailbox()
    private let worker = Mutex<WorkerThread?>(nil)
    /// The frame being worked on (main thread only).
    private let pending = Mutex<(time: Double, generation: Int, stamp: FilterStamp)?>(nil)

    /// Starts filtering `frame`'s unfiltered picture with `stack`; `done` wakes the main loop.
    func start(_ frame: VideoFrame, stack: FilterStack, timeBase: AVRational, done: @escaping @Sendable () -> Void) {
        guard let source = av_frame_clone(frame.unfiltered) else { return }
        let original = SendableFrame(pointer: source)
        let stamp = FilterStamp(stack)
        pending.withLock { $0 = (frame.time, frame.generation, stamp) }
        worker.withLock { $0?.join() }
        let thread = WorkerThread(name: "lp-refilter") { [result] in
            let chain = stack.isIdentity ? nil : FilterChain(stack: stack, timeBase: timeBase)
            let picture = chain.flatMap { try? $0.process(original.pointer, time: frame.time).last } ?? av_frame_clone(original.pointer)
            guard let picture else { return }
            let refiltered = frame.replacingPicture(with: picture, source: stack.isIdentity ? nil : original.pointer,
                                                    filtering: stamp)
            if stack.isIdentity { var unused: UnsafeMutablePointer<AVFrame>? = original.pointer; av_frame_free(&unused) }
            result.frame.withLock { $0 = refiltered }
            done()
        }
        worker.withLock { $0 = thread }
    }

    /// `frame` as `stack` makes it: itself if current, else the re-filtered copy once the worker has
    /// made it (nil meanwhile; the work is started on the first call).
    func current(_ frame: VideoFrame, stack: FilterStack, timeBase: AVRational,
                 done: @escaping @Sendable () -> Void) -> VideoFrame? {
        let stamp = FilterStamp(stack)
        if frame.filtering == stamp { return frame }
        let finished = result.frame.withLock { finished -> VideoFrame? in
            guard let candidate = finished, candidate.time == frame.time, candidate.generation == frame.generation,
                  candidate.filtering == stamp else { return nil }
            finished = nil
            return candidate
        }
        if let finished { return finished }
        let started = pending.withLock { $0.map { $0.time == frame.time && $0.generation == frame.generation && $0.stamp == stamp } ?? false }
        if !started { start(frame, stack: stack, timeBase: timeBase, done: done) }
        return nil
    }
}

/// An `AVFrame` handed to exactly one other thread.
struct SendableFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>
}
