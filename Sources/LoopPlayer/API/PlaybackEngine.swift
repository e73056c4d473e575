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
        case playing
        case paused
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

    public private(set) var state: State = .idle { didSet { if state != oldValue { onStateChange?(state) } } }
    public private(set) var configuration: EngineConfiguration
    /// The opened video stream, once loaded.
    public private(set) var videoInfo: VideoStreamInfo?
    public private(set) var location: MediaLocation?

    /// Called on the engine's thread after every frame shown.
    public var onFramePresented: ((VideoFrame) -> Void)?
    /// Called at every wrap with the number of completed passes.
    public var onLoopCompleted: ((Int) -> Void)?
    public var onStateChange: ((State) -> Void)?

    private let clock: PlaybackClock
    private let realClock = MonotonicClock()
    private let waiter: MainLoopWaiter
    private var pipeline: MediaPipeline?
    private var presenter: Presenter?
    private var renderer: VideoRenderer?
    private var loadStartedAt = 0.0
    private var firstFrameMs: Double?
    private var pendingSeekGeneration: Int?
    private var wantsPause = false
    private var errorCounts: [String: Int] = [:]
    private var quitRequested = false

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

    deinit { pipeline?.stop() }

    // MARK: Loading

    /// Resolves `source` (path, `file://` or network URL, or bare name + `ext`) and starts loading it.
    /// Resolution errors are thrown; open and decode errors arrive as `.failed` from `run()`.
    public func load(_ source: String, ext: String = "mp4") throws(PlayerError) {
        do {
            load(try SourceResolver.standard().resolve(source, ext: ext))
        } catch {
            record(error)
            state = .failed(error)
            throw error
        }
    }

    /// Starts loading `location`, replacing whatever was playing. Returns at once.
    public func load(_ location: MediaLocation) {
        unload()
        self.location = location
        loadStartedAt = realClock.now
        pipeline = MediaPipeline(location: location, looping: configuration.looping, frameReady: waiter.wake)
        state = .loading
    }

    /// Stops the current source and releases its threads, queues and FFmpeg objects.
    public func unload() {
        pipeline?.stop()
        pipeline = nil
        presenter = nil
        renderer = nil
        videoInfo = nil
        firstFrameMs = nil
        pendingSeekGeneration = nil
        state = .idle
    }

    /// Blocks until the source has opened (or failed); for callers that want errors before `run()`.
    @discardableResult
    public func waitUntilReady(timeout: Double = 30) -> State {
        let deadline = realClock.now + timeout
        while realClock.now < deadline, let pipeline {
            switch pipeline.phase {
            case .opening: usleep(2_000)
            case let .failed(error): fail(error); return state
            case let .ready(info):
                if presenter == nil, let error = prepare(info) { fail(error) }
                return state
            }
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
            handle(waiter.poll())
            if quitRequested { return .quit }
            guard let pipeline else { return .finished }
            if presenter == nil {
                switch pipeline.phase {
                case .opening:
                    handle(waiter.wait(until: nil, clock: realClock))
                    continue
                case let .failed(error):
                    fail(error)
                    return .failed(error)
                case let .ready(info):
                    if let error = prepare(info) {
                        fail(error)
                        return .failed(error)
                    }
                }
            }
            guard let presenter else { return .finished }
            switch presenter.step(frames: pipeline.frames, stop: configuration.stop) {
            case .presented:
                continue
            case let .waitUntil(time):
                handle(waiter.wait(until: time, clock: clock))
            case .waitForFrames, .idle:
                let stopAt = clock.isVirtual ? nil : presenter.deadline(for: configuration.stop)
                handle(waiter.wait(until: stopAt, clock: clock))
            case .finished:
                return .finished
            }
        }
    }

    /// Asks `run()` to return `.quit` (from the engine's thread).
    public func requestQuit() {
        quitRequested = true
        waiter.wake()
    }

    // MARK: Controls

    public var isPaused: Bool { presenter?.isPaused ?? wantsPause }

    public func setPaused(_ paused: Bool) {
        wantsPause = paused
        presenter?.setPaused(paused)
        if state == .playing || state == .paused { state = paused ? .paused : .playing }
        waiter.wake()
    }

    public var isLooping: Bool { configuration.looping }

    public func setLooping(_ looping: Bool) {
        configuration.looping = looping
        pipeline?.isLooping = looping
    }

    public func setGravity(_ gravity: VideoGravity) {
        configuration.gravity = gravity
        renderer?.gravity = gravity
    }

    /// Position inside the current pass, in seconds.
    public var position: Double { presenter?.positionInPass ?? 0 }

    /// Length of one pass: measured once the first pass was read, announced by the container before.
    public var duration: Double? {
        pipeline?.timeline?.loopDurationSeconds ?? videoInfo?.announcedDuration
    }

    /// Seeks inside the current pass; negative goes to the start, past the end to the last frame.
    public func seek(to position: Double) {
        guard let pipeline else { return }
        var target = max(0, position)
        if let duration {
            target = min(target, max(0, duration - (videoInfo?.nominalFrameInterval ?? 0)))
        }
        let generation = pipeline.seek(to: target, inPass: presenter?.current?.pass ?? 0)
        if let presenter { presenter.restart(generation: generation) } else { pendingSeekGeneration = generation }
        if state == .ended { state = .playing }
        waiter.wake()
    }

    public func seek(by delta: Double) { seek(to: position + delta) }

    // MARK: Results

    public var statistics: PlaybackStatistics {
        var statistics = presenter?.statistics ?? PlaybackStatistics()
        if let info = videoInfo { statistics.nominalFrameIntervalMs = info.nominalFrameInterval * 1000 }
        statistics.framesDecoded = pipeline?.framesDecoded ?? 0
        statistics.decodeErrors = pipeline?.decodeErrors ?? 0
        statistics.loopDurationMs = pipeline?.timeline?.loopDurationSeconds.map { $0 * 1000 }
        statistics.firstFrameMs = firstFrameMs
        statistics.peakRSSBytes = ProcessUsage.peakRSSBytes
        statistics.cpuSeconds = ProcessUsage.cpuSeconds
        statistics.errors = errorCounts
        return statistics
    }

    /// The frame on screen.
    public var currentFrame: VideoFrame? { presenter?.current }

    /// The frame on screen as a viewer sees it at the video's own size.
    public func snapshot() throws(PlayerError) -> RGBImage {
        guard let frame = presenter?.current, let info = videoInfo else {
            throw .renderFailed(reason: "no frame has been shown yet")
        }
        return try Snapshot.image(of: frame, geometry: info.geometry)
    }

    /// Writes `snapshot()` as a PNG file.
    public func writeSnapshot(to path: String) throws(PlayerError) {
        try Snapshot.writePNG(try snapshot(), to: path)
    }

    // MARK: Internals

    /// Builds the presenter and renderer once the stream is known. Returns an error instead of throwing
    /// so callers can route it into `state`.
    private func prepare(_ info: VideoStreamInfo) -> PlayerError? {
        videoInfo = info
        let renderer: VideoRenderer
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
            renderer = OffscreenRenderer()
        case .null:
            renderer = NullRenderer()
        }
        renderer.gravity = configuration.gravity
        let presenter = Presenter(clock: clock, renderer: renderer, nominalFrameInterval: info.nominalFrameInterval)
        presenter.onPresented = { [unowned self] frame in
            if firstFrameMs == nil {
                firstFrameMs = (realClock.now - loadStartedAt) * 1000
                state = wantsPause ? .paused : .playing
            }
            onFramePresented?(frame)
        }
        presenter.onLoopCompleted = { [unowned self] count in onLoopCompleted?(count) }
        presenter.onEnded = { [unowned self] in state = .ended }
        if let generation = pendingSeekGeneration { presenter.restart(generation: generation) }
        presenter.setPaused(wantsPause)
        self.renderer = renderer
        self.presenter = presenter
        return nil
    }

    private var windowTitle: String {
        guard let location else { return "loopplay" }
        let name = location.ffmpegURL.split(separator: "/").last.map(String.init) ?? location.ffmpegURL
        return "\(name) — loopplay"
    }

    private func fail(_ error: PlayerError) {
        record(error)
        pipeline?.stop()
        state = .failed(error)
    }

    private func record(_ error: PlayerError) {
        errorCounts[error.kind, default: 0] += 1
        logger.debug("\(error.description)")
    }

    private func handle(_ actions: [InputAction]) {
        for action in actions {
            switch action {
            case .quit: quitRequested = true
            case .togglePause: setPaused(!isPaused)
            case let .seekRelative(delta): seek(by: delta)
            case .toggleLoop: setLooping(!isLooping)
            case .toggleFullscreen: (renderer as? SDLWindowRenderer)?.toggleFullscreen()
            case .redraw: renderer?.redisplay()
            case .snapshot:
                let path = "loopplay-\(Int(Date().timeIntervalSince1970 * 1000)).png"
                do { try writeSnapshot(to: path); logger.notice("snapshot written to \(path)") } catch { record(error) }
            }
        }
    }
}
