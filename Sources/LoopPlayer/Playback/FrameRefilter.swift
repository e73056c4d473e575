import CFFmpeg
import Filters
import Synchronization

/// Filters a picture again with a newer stack, off the main thread (a heavy filter must not freeze
/// the window), and hands the result back: frames decoded before a stack change, and the paused picture.
final class FrameRefilter: Sendable {
    private final class Mailbox: Sendable {
        let frame = Mutex<VideoFrame?>(nil)
    }

    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set(_ newValue: Bool) { value.store(newValue, ordering: .releasing) }
    }

    private let result = Mailbox()
    private let worker = Mutex<WorkerThread?>(nil)
    /// True while a worker runs: the main thread never waits for one (a heavy filter must not
    /// freeze the window); it asks again when the worker's wakeup arrives.
    private let busy = Flag()
    /// The frame being worked on (main thread only).
    private let pending = Mutex<(time: Double, generation: Int, stamp: FilterStamp)?>(nil)

    /// Starts filtering `frame`'s unfiltered picture with `stack`; `done` wakes the main loop.
    func start(_ frame: VideoFrame, stack: FilterStack, timeBase: AVRational, done: @escaping @Sendable () -> Void) {
        guard !busy.isSet, let source = av_frame_clone(frame.unfiltered) else { return }
        let original = SendableFrame(pointer: source)
        let stamp = FilterStamp(stack)
        pending.withLock { $0 = (frame.time, frame.generation, stamp) }
        busy.set(true)
        worker.withLock { $0?.join() }  // already finished: `busy` was false
        let thread = WorkerThread(name: "lp-refilter") { [result, busy] in
            defer {
                busy.set(false)
                done()
            }
            let chain = stack.isIdentity ? nil : FilterChain(stack: stack, timeBase: timeBase)
            var outputs = chain.flatMap { try? $0.process(original.pointer, time: frame.time) } ?? []
            let picture = outputs.popLast() ?? av_frame_clone(original.pointer)
            for extra in outputs { var unused: UnsafeMutablePointer<AVFrame>? = extra; av_frame_free(&unused) }
            guard let picture else {
                var unused: UnsafeMutablePointer<AVFrame>? = original.pointer
                av_frame_free(&unused)
                return
            }
            let refiltered = frame.replacingPicture(with: picture, source: stack.isIdentity ? nil : original.pointer,
                                                    filtering: stamp)
            if stack.isIdentity { var unused: UnsafeMutablePointer<AVFrame>? = original.pointer; av_frame_free(&unused) }
            result.frame.withLock { $0 = refiltered }
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
        if !started || !busy.isSet && result.frame.withLock({ $0 == nil }) {
            start(frame, stack: stack, timeBase: timeBase, done: done)
        }
        return nil
    }

    /// Waits for a running worker (end of a run) and drops any result.
    func finish() {
        worker.withLock { $0?.join() }
        result.frame.withLock { $0 = nil }
        pending.withLock { $0 = nil }
    }
}

/// An `AVFrame` handed to exactly one other thread.
struct SendableFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>
}
