import CFFmpeg
import Filters
import Foundation

/// Plays one source at a time: opens it off the main thread, decodes on dedicated threads, and
/// presents frames on the thread that calls `run()` (the main thread when a window is used).
///
/// ```swift
/// let engine = try PlaybackEngine(configuration: EngineConfiguration(looping: true))
/// try engine.load("swipe")
/// engine.run()
/// ```
/// The engine is not thread-safe: create and drive it from one thread.
public final class PlaybackEngine {
    public enum State: Sendable, Equatable {
        case idle
        case loading
        /// Opened and showing the first frame, waiting for `play` (`NotAutoPlay`).
        case ready
        case playing
        case paused
        /// Playing, but no frame is ready in time (a slow network or decoder).
        case buffering
        /// Non-looping media reached its end; the last frame is held.
        case ended
        case failed(PlayerError)
    }

    /// Why `run()` returned.
    public enum RunOutcome: Sendable, Equatable {
        /// A stop condition was met, or the media ended with `exitAtEnd`.
        case finished
        /// The user closed the window or pressed q/Esc.
        case quit
        case failed(PlayerError)
    }

    public internal(set) var state: State = .idle { didSet { if state != oldValue { onStateChange?(state) } } }
    public internal(set) var configuration: EngineConfiguration
    /// The opened video stream, once loaded.
    public private(set) var videoInfo: VideoStreamInfo?
    public private(set) var location: MediaLocation?

    /// Called on the engine's thread after every frame shown.
    public var onFramePresented: ((VideoFrame) -> Void)?
    /// Called at every wrap with the number of completed passes.
    public var onLoopCompleted: ((Int) -> Void)?
    public var onStateChange: ((State) -> Void)?
    /// Every event as it happens (unbatched, unfiltered), on the engine's thread.
    public var onEvent: ((PlayerEvent) -> Void)?

    /// Called at the top of every loop iteration (commands, settings, event batches).
    var onTick: (() -> Void)?
    /// Called once the stream is known and the presenter exists, before any frame is shown.
    var onReady: (() -> Void)?
    /// Another time the loop must wake at (event batches, time publishing), on `clock`.
    var auxiliaryDeadline: (() -> Double?)?
    /// Makes the renderer instead of `configuration.output` (embedding and frames-only modes).
    var makeRenderer: ((VideoStreamInfo) throws(PlayerError) -> VideoRenderer)?

    let clock: PlaybackClock
    private let realClock = MonotonicClock()
    let waiter: MainLoopWaiter
    var pipeline: MediaPipeline?
    var presenter: Presenter?
    var renderer: VideoRenderer?
    private var loadStartedAt = 0.0
    var firstFrameMs: Double?
    var pendingSeekGeneration: Int?
    var wantsPause = false
    var errorCounts: [String: Int] = [:]
    var quitRequested = false
    var holdingFirstFrame = false
    /// Snapshots being written (`s` key); joined when the engine closes.
    var snapshotWriters: [WorkerThread] = []
    /// After `close()`: nothing runs until the next `load`.
    private var isClosed = false
    var pendingSpeed = 1.0
    /// What the sound was last told (silent until the first frame is shown).
    var audioPaused = true
    var reportedUnderruns = 0
    /// Unmuted, but the sound is not yet moved to the picture (`realignSoundIfPending`).
    var realignPending = false
    private var reportedDuration: Double?
    private var lastBounds: Rect?
    /// The filters and brightness/contrast applied to every frame (kept across sources).
    public internal(set) var filters = FilterStack()
    let refilter = FrameRefilter()

    /// Creates an engine. With a window output this initialises SDL video and throws
    /// `displayUnavailable` when there is no display.
    public init(configuration: EngineConfiguration) throws(PlayerError) {
        self.configuration = configuration
        clock = configuration.untimed ? VirtualClock() : MonotonicClock()
        if case .window = configuration.output {
            try SDLVideo.start()
            waiter = SDLEventWaiter()
        } else {
            waiter = ConditionWaiter()
        }
    }

    /// For hosts that run the loop themselves: `wake` is how pipeline threads nudge them.
    init(configuration: EngineConfiguration, waiter: MainLoopWaiter) {
        self.configuration = configuration
        clock = configuration.untimed ? VirtualClock() : MonotonicClock()
        self.waiter = waiter
    }

    deinit { close() }

    // MARK: Loading

    /// Resolves `source` (path, `file://` or network URL, or bare name + `ext`) and starts loading it.
    /// Resolution errors are thrown; open and decode errors arrive as `.failed` from `run()`.
    public func load(_ source: String, ext: String = "mp4") throws(PlayerError) {
        do {
            load(try SourceResolver.standard().resolve(source, ext: ext))
        } catch {
            unload()
            fail(error)
            throw error
        }
    }

    /// Starts loading `location`, replacing whatever was playing. Returns at once.
    public func load(_ location: MediaLocation) {
        unload()
        isClosed = false
        self.location = location
        onEvent?(.currentItemChanged)
        loadStartedAt = realClock.now
        let sound = AudioSlot.Controls(volume: configuration.audio.volume, muted: configuration.audio.muted,
                                                paused: true, speed: pendingSpeed)
        pipeline = MediaPipeline(location: location, looping: configuration.looping, audio: configuration.audio,
                                 audioDriver: audioDriver(), audioControls: sound, frameReady: waiter.wake)
        pipeline?.setFilters(filters)
        audioPaused = true
        reportedUnderruns = 0
        realignPending = false
        state = .loading
    }

    /// Stops the current source and releases its threads, queues and FFmpeg objects.
    public func unload() {
        if pipeline != nil { onEvent?(.currentItemRemoved) }
        pipeline?.stop()
        refilter.finish()
        pipeline = nil
        presenter = nil
        renderer = nil
        videoInfo = nil
        firstFrameMs = nil
        pendingSeekGeneration = nil
        reportedDuration = nil
        lastBounds = nil
        state = .idle
    }

    /// Blocks until the source has opened (or failed); for callers that want errors before `run()`.
    @discardableResult
    public func waitUntilReady(timeout: Double = 30) -> State {
        guard let pipeline else { return state }
        switch pipeline.status.waitUntilOpened(deadline: MonotonicCondition.now + timeout) {
        case .opening: break
        case let .failed(error): fail(error)
        case let .ready(info):
            if presenter == nil, let error = prepare(info) { fail(error) }
        }
        return state
    }

    // MARK: Running

    /// Presents frames until a stop condition, a quit request or a failure. Call on the main thread
    /// when the output is a window.
    @discardableResult
    public func run() -> RunOutcome {
        quitRequested = false
        while true {
            switch advance() {
            case let .finished(outcome): return outcome
            case .again: continue
            case let .wait(deadline): handle(waiter.wait(until: deadline, clock: deadline == nil ? realClock : clock))
            }
        }
    }

    /// One non-blocking iteration for hosts that run their own loop (embedding): presents at most
    /// one due frame and returns when to call again (clock seconds from now; nil = on the next
    /// wakeup), or the outcome once playback is over.
    public func pump() -> (nextIn: Double?, outcome: RunOutcome?) {
        switch advance() {
        case let .finished(outcome): return (nil, outcome)
        case .again: return (0, nil)  // one frame per call: the host draws it before the next
        case let .wait(deadline): return (deadline.map { max(0, $0 - clock.now) }, nil)
        }
    }

    private enum Advance {
        case again
        case wait(Double?)
        case finished(RunOutcome)
    }

    /// Input, hooks, opening and one presenter step.
    private func advance() -> Advance {
        if isClosed { return .finished(.finished) }
        handle(waiter.poll())
        onTick?()
        if quitRequested { return .finished(.quit) }
        let exitOnFailure = configuration.stop.exitOnFailure
        if case let .failed(error) = state { return exitOnFailure ? .finished(.failed(error)) : .wait(nil) }
        guard let pipeline else { return exitOnFailure ? .finished(.finished) : .wait(nil) }
        if presenter == nil {
            switch pipeline.status.phase {
            case .opening:
                return .wait(nil)
            case let .failed(error):
                fail(error)
                return exitOnFailure ? .finished(.failed(error)) : .wait(nil)
            case let .ready(info):
                if let error = prepare(info) {
                    fail(error)
                    return exitOnFailure ? .finished(.failed(error)) : .wait(nil)
                }
                onReady?()
            }
        }
        guard let presenter else { return .finished(.finished) }
        handleReports(pipeline)
        if case let .failed(error) = state { return exitOnFailure ? .finished(.failed(error)) : .wait(nil) }
        if presenter.isPaused || presenter.speed == 0, let current = presenter.current,
           let refreshed = refiltered(current), refreshed !== current {
            presenter.replaceCurrent(with: refreshed)  // the paused picture with the new stack
        }
        let step = presenter.step(frames: pipeline.frames, stop: configuration.stop)
        reportDurationIfMeasured()
        updateAudioPause()
        realignSoundIfPending()
        switch step {
        case .presented:
            if state == .buffering { state = .playing }
            return .again
        case let .waitUntil(time):
            return .wait(earliest(time, auxiliaryDeadline?()))
        case .waitForFrames:
            noteStarvation()
            guard !clock.isVirtual else { return .wait(nil) }
            // Wake when an empty queue would count as buffering, to say so while it lasts.
            return .wait(earliest(earliest(presenter.deadline(for: configuration.stop), auxiliaryDeadline?()),
                                  starvationDeadline))
        case .idle:
            guard !clock.isVirtual else { return .wait(nil) }
            return .wait(earliest(presenter.deadline(for: configuration.stop), auxiliaryDeadline?()))
        case .finished:
            return .finished(.finished)
        }
    }

    private func earliest(_ a: Double?, _ b: Double?) -> Double? {
        switch (a, b) {
        case let (a?, b?): min(a, b)
        case let (a?, nil): a
        case let (nil, b): b
        }
    }

    /// Playing with an empty queue for longer than two frames (and 50 ms) is buffering.
    private func noteStarvation() {
        guard let deadline = starvationDeadline, clock.now >= deadline else { return }
        state = .buffering
        onEvent?(.waitingToPlayAtSpecifiedRate)
    }

    /// When an empty queue turns into buffering; nil unless playing in real time.
    private var starvationDeadline: Double? {
        guard state == .playing, !clock.isVirtual, let presenter, !presenter.isPaused, presenter.speed > 0,
              let shown = presenter.lastShownAt, let info = videoInfo else { return nil }
        return shown + 2 * info.nominalFrameInterval + 0.05
    }

    private func reportDurationIfMeasured() {
        guard let measured = pipeline?.status.loopDuration, reportedDuration != measured else { return }
        reportedDuration = measured
        onEvent?(.duration(measured))
    }

    /// Ends playback after a run: joins the pipeline's threads and closes the window, keeping the
    /// last frame for `snapshot()`. A later `load` starts again.
    public func close() {
        pipeline?.stop()  // kept, stopped: its counters still feed `statistics`
        isClosed = true
        presenter?.detachRenderer()
        renderer = nil
        refilter.finish()
        snapshotWriters.forEach { $0.join() }
        snapshotWriters.removeAll()
        if case .failed = state {} else { state = .idle }
    }

    /// Asks `run()` to return `.quit` (from the engine's thread).
    public func requestQuit() {
        quitRequested = true
        waiter.wake()
    }

    // MARK: Internals

    /// Builds the presenter and renderer once the stream is known. Returns an error instead of throwing
    /// so callers can route it into `state`.
    private func prepare(_ info: VideoStreamInfo) -> PlayerError? {
        videoInfo = info
        var renderer: VideoRenderer
        if let makeRenderer {
            do { renderer = try makeRenderer(info) } catch { return error }
        } else {
            switch configuration.output {
            case let .window(options):
            do {
                renderer = try SDLWindowRenderer(
                    options: options, title: options.title ?? windowTitle, geometry: info.geometry,
                    gravity: configuration.gravity, colorSpace: info.colorSpace, colorRange: info.colorRange)
            } catch {
                return error
            }
            case .offscreen:
                renderer = NullRenderer()
            }
        }
        renderer.gravity = configuration.gravity
        let presenter = Presenter(clock: clock, renderer: renderer, nominalFrameInterval: info.nominalFrameInterval)
        presenter.onPresented = { [unowned self] frame in
            if firstFrameMs == nil {
                firstFrameMs = (realClock.now - loadStartedAt) * 1000
                state = holdingFirstFrame ? .ready : wantsPause ? .paused : .playing
                if state == .playing { onEvent?(.playing) }
                reportBounds()
            }
            onFramePresented?(frame)
        }
        presenter.prepare = { [unowned self] frame in refiltered(frame) }
        // Only audible sound leads: muted, the monotonic clock does (see `setMuted`).
        presenter.masterTime = { [unowned self, weak pipeline = self.pipeline] now in
            isMuted || realignPending ? nil : pipeline?.audio.output?.audibleMediaTime(at: now)
        }
        presenter.onLoopCompleted = { [unowned self] count in
            onLoopCompleted?(count)
            onEvent?(.loopCompleted(count))
        }
        presenter.onEnded = { [unowned self] in
            state = .ended
            onEvent?(.ended)
        }
        if let generation = pendingSeekGeneration { presenter.restart(generation: generation) }
        presenter.setPaused(wantsPause)
        presenter.setSpeed(pendingSpeed)
        presenter.setLooping(configuration.looping)
        self.renderer = renderer
        self.presenter = presenter
        onEvent?(.itemStatusChanged(.readyToPlay))
        if let announced = info.announcedDuration {
            reportedDuration = announced
            onEvent?(.duration(announced))
        }
        return nil
    }

    /// Where the picture sits in the player area, reported when it changes.
    func reportBounds() {
        guard let bounds = renderer?.pictureBounds, bounds != lastBounds else { return }
        lastBounds = bounds
        onEvent?(.boundsChanged(bounds))
    }

    private var windowTitle: String {
        guard let location else { return "loopplay" }
        let name = location.ffmpegURL.split(separator: "/").last.map(String.init) ?? location.ffmpegURL
        return "\(name) — loopplay"
    }

    func fail(_ error: PlayerError) {
        record(error)
        pipeline?.stop()
        state = .failed(error)
        onEvent?(.itemStatusChanged(.failed))
        onEvent?(.error(error))
    }

    func record(_ error: PlayerError) {
        errorCounts[error.kind, default: 0] += 1
        logger.debug("\(error.description)")
    }

}
