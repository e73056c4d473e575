import CFFmpeg
import FFmpegSupport
import Filters
import Synchronization

/// Filters a picture again with a newer stack, off the main thread (a heavy filter must not freeze
/// the window), and hands the result back: frames decoded before a stack change, and the paused picture.
///
/// The main thread asks with `current(_:…)` and never waits: it gets the frame itself when it is
/// current, the re-filtered copy once made, or nil while a worker makes it; the worker's end always
/// wakes the main loop. When no worker can be started, the frame is shown as it is.
final class FrameRefilter: Sendable {
    private struct Job: Equatable {
        var time: Double
        var generation: Int
        var stamp: FilterStamp

        init(_ frame: VideoFrame, _ stamp: FilterStamp) {
            time = frame.time
            generation = frame.generation
            self.stamp = stamp
        }
    }

    private struct State {
        var job: Job?
        var running = false
        var result: VideoFrame?
        var worker: WorkerThread?
    }

    private let state = Mutex(State())

    /// `frame` as `stack` makes it: itself if current, else the re-filtered copy once a worker has
    /// made it; nil meanwhile (the work starts on the first call; the worker's end wakes `done`).
    func current(_ frame: VideoFrame, stack: FilterStack, timeBase: AVRational,
                 done: @escaping @Sendable () -> Void) -> VideoFrame? {
        let stamp = FilterStamp(stack)
        if frame.filtering == stamp { return frame }
        let job = Job(frame, stamp)
        enum Next { case show(VideoFrame), wait, start }
        let next = state.withLock { state -> Next in
            if state.job == job, let result = state.result {
                state.result = nil
                return .show(result)
            }
            if state.running { return .wait }  // this job, or another whose end wakes us
            return .start
        }
        switch next {
        case let .show(result): return result
        case .wait: return nil
        case .start: return start(frame, job: job, stack: stack, timeBase: timeBase, done: done) ? nil : frame
        }
    }

    /// Waits for a running worker (end of a run, a new source) and forgets every result.
    func finish() {
        let worker = state.withLock { $0.worker }
        worker?.join()
        state.withLock { $0 = State() }
    }

    deinit { finish() }

    /// Starts a worker for `job`; false if none could run (then the caller shows the frame as it is).
    private func start(_ frame: VideoFrame, job: Job, stack: FilterStack, timeBase: AVRational,
                       done: @escaping @Sendable () -> Void) -> Bool {
        guard let source = frame.unfilteredReference() else { return false }
        let original = FrameHandoff(source)
        let previous = state.withLock { state -> WorkerThread? in
            defer {
                state.job = job
                state.result = nil
                state.running = true
            }
            return state.worker
        }
        previous?.join()  // it has finished: `running` was false
        let worker = WorkerThread(name: "lp-refilter") { [self] in
            var refiltered: VideoFrame?
            if let source = original.take() {
                refiltered = Self.refilter(frame, source: source, stack: stack, stamp: job.stamp, timeBase: timeBase)
            }
            state.withLock { state in
                if state.job == job { state.result = refiltered ?? frame }
                state.running = false
            }
            done()
        }
        guard worker.started else {
            state.withLock { $0.running = false }
            return false
        }
        state.withLock { $0.worker = worker }
        return true
    }

    /// Runs the chain on the unfiltered picture; nil if no picture could be made.
    private static func refilter(_ frame: VideoFrame, source: consuming OwnedFrame, stack: FilterStack,
                                 stamp: FilterStamp, timeBase: AVRational) -> VideoFrame? {
        guard !stack.isIdentity else {
            return frame.replacingPicture(with: source, unfiltered: nil, filtering: stamp)
        }
        let chain = FilterChain(stack: stack, timeBase: timeBase)
        var result: VideoFrame?
        try? chain.process(source, time: frame.time) { output in
            result = frame.replacingPicture(with: output, unfiltered: source.reference(), filtering: stamp)
        }
        if let result { return result }
        guard let unfiltered = source.reference() else { return nil }
        return frame.replacingPicture(with: unfiltered, unfiltered: nil, filtering: stamp)
    }
}

extension FrameRefilter {
    /// Whether `stack` may replace `current`: checked against the picture it applies to (`size`,
    /// decoded and unfiltered: a crop may be running now) when it changes the chain, else on its own.
    /// A leading crop the picture does not fit is no invalid stack: it is refused per picture.
    static func check(_ stack: FilterStack, replacing current: FilterStack, size: (width: Int, height: Int)?,
                      timeBase: AVRational?) -> Result<Void, PlayerError> {
        do throws(FilterError) {
            if let size, stack.revision != current.revision || current.stages.isEmpty != stack.stages.isEmpty {
                try FilterChain.validate(stack, input: FilterGraph.Input(width: Int32(size.width), height: Int32(size.height),
                                                                          timeBase: timeBase ?? AVRational(num: 1, den: 90_000)))
            } else {
                try stack.validate()
            }
        } catch {
            return .failure(.invalidFilter(error))
        }
        return .success(())
    }
}
