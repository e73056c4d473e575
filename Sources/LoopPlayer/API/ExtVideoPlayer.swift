import Foundation
import Synchronization

/// A looping video player configured with the `VideoSettings` DSL: the Linux counterpart of
/// *swiftui-loop-videoplayer*'s `ExtVideoPlayer`.
///
/// ```swift
/// let player = ExtVideoPlayer {
///     VideoSettings {
///         SourceName("swipe")
///         Loop()
///         TimePublishing()
///         Events([.playing, .loopCompletedAny, .errorAny])
///     }
/// }
/// .onPlayerTimeChange { seconds in print(seconds) }
/// .onPlayerEventChange { events in print(events) }
/// player.run()          // a window, on the main thread
/// ```
/// `send(_:)`, `settings`, `state`, `statistics` and `retry()` may be used from any thread; `run…`
/// and embedding calls belong to one thread (the main thread for windows).
// @unchecked: everything threads share is in `shared` (a Mutex); only `session` is outside it, the
// engine's, not Sendable, set and read on the run thread alone.
public final class ExtVideoPlayer: @unchecked Sendable {
    /// Clock choice for a run.
    public enum Timing: Sendable, Equatable {
        /// Real time.
        case realTime
        /// Every frame as soon as it is decoded (virtual clock): tests and benchmarks.
        case untimed
    }

    struct Shared {
        var settings: VideoSettings {
            didSet { if !statusPublished { status = PlayerStatus(before: settings) } }
        }
        var settingsVersion = 0
        /// Each with its number (from 1, in the order `send` took them).
        var commands: [(number: Int, request: ControlRequest)] = []
        /// Every command `send` took.
        var commandsSent = 0
        /// Every command numbered up to this one has been carried out (`PlayerStatus.commandsApplied`).
        var commandsApplied = 0
        /// Passes of the run's loop so far: that it moves says the player is not stuck.
        var loopPasses = 0
        var state: PlayerState = .idle
        var currentTime = 0.0
        var statistics = PlaybackStatistics()
        var timeHandlers: [@Sendable (Double) -> Void] = []
        var stateHandlers: [@Sendable (PlayerState) -> Void] = []
        var stateContinuations: [UUID: AsyncStream<PlayerState>.Continuation] = [:]
        var eventHandlers: [@Sendable ([PlayerEvent]) -> Void] = []
        var eachEventHandlers: [@Sendable (PlayerEvent) -> Void] = []
        /// What the last run said; before any run, what the settings will do (`PlayerStatus(before:)`).
        var status: PlayerStatus
        /// A run has published `status` (until then it follows the settings).
        var statusPublished = false
        var statusHandlers: [@Sendable (PlayerStatus) -> Void] = []
        var timeContinuations: [UUID: AsyncStream<Double>.Continuation] = [:]
        var eventContinuations: [UUID: AsyncStream<[PlayerEvent]>.Continuation] = [:]
        var wake: (@Sendable () -> Void)?
        var retryRequested = false
        var stopRequested = false
        var audio = AudioOptions()
        var subtitles: SubtitleOptions?
        /// A run (window, headless, group member, inset, embedded) is going on: one at a time, as
        /// two would share the commands, the wake and the stop request.
        var isRunning = false

        init(settings: VideoSettings) {
            self.settings = settings
            status = PlayerStatus(before: settings)
        }
    }

    static let alreadyRunning = PlayerError.invalidSetting(name: "run", value: "",
                                                          reason: "the player is already running (one run at a time)")

    /// Claims the player for a run; false if one is going on.
    func claimRun() -> Bool {
        shared.withLock { shared in
            guard !shared.isRunning else { return false }
            shared.isRunning = true
            return true
        }
    }

    func endRun() { shared.withLock { $0.isRunning = false } }

    /// Wakes the running `run…` call, if any, to look at what changed (from any thread).
    func wakeRun() {
        let wake = shared.withLock { $0.wake }
        wake?()
    }

    let shared: Mutex<Shared>
    /// The engine of the current or last run; touched only on the run thread.
    var session: PlayerSession?

    /// `ExtVideoPlayer { VideoSettings { … } }`.
    public init(_ settings: () -> VideoSettings) {
        FFmpegLogBridge.install
        shared = Mutex(Shared(settings: settings()))
    }

    /// A player with these settings; nothing plays until a `run` method is called.
    public init(settings: VideoSettings) {
        FFmpegLogBridge.install
        shared = Mutex(Shared(settings: settings))
    }

    /// The model's plain-parameter form.
    public convenience init(fileName: String, ext: String = Ext.defaultValue, gravity: VideoGravity = Gravity.defaultValue,
                            timePublishing: Double? = nil, eColor: Color = EColor.defaultValue,
                            eFontSize: Float = EFontSize.defaultValue) {
        self.init(settings: VideoSettings(sourceName: fileName, ext: ext, gravity: gravity, timePublishing: timePublishing,
                                          errorColor: eColor, errorFontSize: eFontSize))
    }

    deinit {
        shared.withLock { state in
            state.timeContinuations.values.forEach { $0.finish() }
            state.eventContinuations.values.forEach { $0.finish() }
            state.stateContinuations.values.forEach { $0.finish() }
        }
    }

    /// The sound device and track for the next run (driver, device, channels, preferred track).
    /// Volume and mute come from the settings and commands.
    public var audioOutput: AudioOptions {
        get { shared.withLock { $0.audio } }
        set { shared.withLock { $0.audio = newValue } }
    }

    /// Subtitle files and the track choice for the next run, replacing what the `Subtitles` setting
    /// says (loopplay's `--sub-file`, `--slang`, `--sid`). Nil: the setting's.
    public var subtitleOptions: SubtitleOptions? {
        get { shared.withLock { $0.subtitles } }
        set { shared.withLock { $0.subtitles = newValue } }
    }

    // MARK: Observing

    /// Called with the position inside the current pass every `TimePublishing` interval.
    @discardableResult
    public func onPlayerTimeChange(_ handler: @escaping @Sendable (Double) -> Void) -> Self {
        shared.withLock { $0.timeHandlers.append(handler) }
        return self
    }

    /// Called with each one-second batch of events admitted by the `Events` setting.
    @discardableResult
    public func onPlayerEventChange(_ handler: @escaping @Sendable ([PlayerEvent]) -> Void) -> Self {
        shared.withLock { $0.eventHandlers.append(handler) }
        return self
    }

    /// Called with every event as it happens, whatever `Events` admits (on the run thread): what a
    /// remote control needs at once, where `onPlayerEventChange` batches once a second.
    @discardableResult
    public func onEachEvent(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> Self {
        shared.withLock { $0.eachEventHandlers.append(handler) }
        return self
    }

    /// Called with every new `status` (on the run thread; while playing, the position moves it at
    /// every loop iteration). Keep the handler short: it runs between frames.
    @discardableResult
    public func onStatusChange(_ handler: @escaping @Sendable (PlayerStatus) -> Void) -> Self {
        shared.withLock { $0.statusHandlers.append(handler) }
        return self
    }

    /// Called with every state change (on the run thread).
    @discardableResult
    public func onStateChange(_ handler: @escaping @Sendable (PlayerState) -> Void) -> Self {
        shared.withLock { $0.stateHandlers.append(handler) }
        return self
    }

    /// State changes, for async code. Each call makes a new subscriber.
    public func states() -> AsyncStream<PlayerState> {
        let (stream, continuation) = AsyncStream<PlayerState>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        shared.withLock { $0.stateContinuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.shared.withLock { $0.stateContinuations.removeValue(forKey: id) } }
        return stream
    }

    /// Published times, for async code. Each call makes a new subscriber.
    public func times() -> AsyncStream<Double> {
        let (stream, continuation) = AsyncStream<Double>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        shared.withLock { $0.timeContinuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.shared.withLock { $0.timeContinuations.removeValue(forKey: id) } }
        return stream
    }

    /// Event batches, for async code. Each call makes a new subscriber.
    public func eventBatches() -> AsyncStream<[PlayerEvent]> {
        let (stream, continuation) = AsyncStream<[PlayerEvent]>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        shared.withLock { $0.eventContinuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.shared.withLock { $0.eventContinuations.removeValue(forKey: id) } }
        return stream
    }

    // MARK: Controlling

    /// Queues `command`; applied in order once the media is ready. Callable from any thread.
    public func send(_ command: PlaybackCommand) { queue(.command(command)) }

    /// Queues a change of the property `name` (`PlayerProperty`), as a command is queued. A name
    /// the table lacks, or a change its property refuses, is an `invalidSetting` error event.
    package func change(_ name: String, _ change: PropertyChange) { queue(.property(name, change)) }

    /// Queues what a key press asks for (the IPC's `keypress`), as the window's keys do.
    package func press(_ action: PlayerAction) { queue(.action(action)) }

    /// Queues a picture of the screen for a server (`SnapshotRequest`); it is taken once the player
    /// runs its queue, a source ready or not. A player not running, or with `pendingCaptureLimit`
    /// waiting already (a run loop held up), answers at once: servers polling it pile up nothing.
    package func capture(_ request: SnapshotRequest) {
        // Checked and queued at once: a run ending in between would never answer it.
        let outcome = shared.withLock { state -> Result<(@Sendable () -> Void)?, PlayerError> in
            guard state.isRunning else { return .failure(.renderFailed(reason: "the player is not running")) }
            let waiting = state.commands.count { entry in
                if case let .capture(queued) = entry.request { !queued.abandoned.isRaised } else { false }
            }
            guard waiting < Self.pendingCaptureLimit else {
                return .failure(.renderFailed(reason: "\(waiting) pictures are waiting for the player"))
            }
            return .success(Self.enqueue(.capture(request), in: &state))
        }
        switch outcome {
        case let .success(wake): wake?()
        case let .failure(refusal): request.deliver(.failure(.unavailable(refusal)))
        }
    }

    /// Pictures for servers queued at most.
    package static let pendingCaptureLimit = 8

    private func queue(_ request: ControlRequest) {
        shared.withLock { Self.enqueue(request, in: &$0) }?()
    }

    /// Numbers and queues `request`; returns what wakes the run loop to take it.
    private static func enqueue(_ request: ControlRequest, in state: inout Shared) -> (@Sendable () -> Void)? {
        state.commandsSent += 1
        state.commands.append((state.commandsSent, request))
        return state.wake
    }

    /// Changes the settings in place, atomically: a change made meanwhile from another thread is
    /// not lost, as it can be between reading `settings` and assigning it.
    public func updateSettings(_ change: (inout VideoSettings) -> Void) {
        let wake = shared.withLock { state -> (@Sendable () -> Void)? in
            change(&state.settings)
            state.settingsVersion += 1
            return state.wake
        }
        wake?()
    }

    /// Commands sent and not yet taken by the player (they wait for a source that is ready).
    package var queuedCommandCount: Int { shared.withLock { $0.commands.count } }

    /// A liveness probe for a watchdog: the run loop's passes so far, and a wake so that it makes
    /// another soon even with nothing due (paused). A count that does not move between two probes
    /// means the loop is stuck.
    package func probeRunLoop() -> Int {
        let (passes, wake) = shared.withLock { ($0.loopPasses, $0.wake) }
        wake?()
        return passes
    }

    /// How many commands `send` has taken so far: the status's `commandsApplied` reaches it once
    /// the last of them has taken effect.
    package var commandsSent: Int { shared.withLock { $0.commandsSent } }

    /// The settings; assigning applies every changed setting live (a new source loads it).
    public var settings: VideoSettings {
        get { shared.withLock { $0.settings } }
        set {
            let wake = shared.withLock { state -> (@Sendable () -> Void)? in
                state.settings = newValue
                state.settingsVersion += 1
                return state.wake
            }
            wake?()
        }
    }

    /// The position inside the current pass, in seconds (as of the player's last loop iteration).
    public var currentTime: Double { shared.withLock { $0.currentTime } }

    /// idle → loading → ready → playing / paused / buffering → ended, or failed.
    public var state: PlayerState { shared.withLock { $0.state } }

    /// What the player is doing: source, position, pause, sound, tracks, playlist (as of the
    /// player's last loop iteration).
    public var status: PlayerStatus { shared.withLock { $0.status } }

    /// The counters behind `loopplay --stats-json`, refreshed every second and at the end of a run.
    public var statistics: PlaybackStatistics { shared.withLock { $0.statistics } }

    /// `status` and `statistics` read together: a failure the status shows is in the statistics' errors.
    package var statusAndStatistics: (status: PlayerStatus, statistics: PlaybackStatistics) {
        shared.withLock { ($0.status, $0.statistics) }
    }

    /// Loads the current source again after a failure; on a schedule, tries every entry that failed
    /// now (and loads a failed default again).
    public func retry() {
        let wake = shared.withLock { state -> (@Sendable () -> Void)? in
            state.retryRequested = true
            return state.wake
        }
        wake?()
    }

    /// Ends the running `run…` call, or the next one if none runs yet (from any thread, e.g. a
    /// signal handler's thread).
    public func stop() {
        let wake = shared.withLock { state -> (@Sendable () -> Void)? in
            state.stopRequested = true
            return state.wake
        }
        wake?()
    }

    // MARK: Running

    /// Plays in the player's own SDL window until a stop condition, `stop()`, or the user quits.
    /// The window opens at once, before the source, and stays open across sources and failures
    /// (an error is shown in it). Call on the main thread.
    @discardableResult
    public func run(window: WindowOptions = WindowOptions(), timing: Timing = .realTime,
                    until stop: StopCondition = .never) -> RunOutcome {
        run(output: .window(window), custom: nil, timing: timing, stop: stop)
    }

    /// Plays without a window; the last scene is kept for `snapshot()`.
    @discardableResult
    public func runHeadless(timing: Timing = .realTime, until stop: StopCondition = .never) -> RunOutcome {
        run(output: .offscreen, custom: nil, timing: timing, stop: stop)
    }

    /// Frames-only mode: every frame shown goes to `handler` (on this thread), for other toolkits.
    /// The frames are the bare video; `runScenes` gives what a window would show.
    @discardableResult
    public func runFrames(timing: Timing = .realTime, until stop: StopCondition = .never,
                          _ handler: @escaping (VideoFrame) -> Void) -> RunOutcome {
        var last: VideoFrame?
        let target = RunHandler(handler)
        let output = OffscreenOutput { scene, _ in
            guard let frame = scene.frame, frame !== last else { return }
            last = frame
            target.call?(frame)
        }
        defer {
            target.call = nil
            last = nil
        }
        return run(output: .offscreen, custom: output, timing: timing, stop: stop)
    }

    /// Frames-only mode with the overlays: every scene shown (a new frame, or overlays that changed
    /// over the same frame) goes to `handler`, laid out in an area of `area` pixels (nil: the video's
    /// display size). `ComposedFrame.image()` renders it exactly as a window shows it.
    @discardableResult
    public func runScenes(area: PixelSize? = nil, timing: Timing = .realTime, until stop: StopCondition = .never,
                          _ handler: @escaping (ComposedFrame) -> Void) -> RunOutcome {
        let target = RunHandler(handler)
        let output = OffscreenOutput(area: area) { scene, size in target.call?(ComposedFrame(scene: scene, area: size)) }
        defer { target.call = nil }
        return run(output: .offscreen, custom: output, timing: timing, stop: stop)
    }

    /// What the output shows now at its player area's size: the picture laid out with its gravity and
    /// the overlays (the video's display size without a window). After or during a run, on its thread.
    public func snapshot() throws(PlayerError) -> RGBImage {
        guard let engine = session?.engine else { throw .renderFailed(reason: "the player has not run") }
        return try engine.screen.snapshot()
    }

    /// Writes `snapshot()` at `path` — JPEG for a `.jpg`/`.jpeg` name, PNG otherwise — replacing a
    /// regular file there. A file that cannot be written (or is no regular file: a FIFO, a device)
    /// throws `writeFailed`; no picture to take throws `renderFailed`.
    public func writeSnapshot(to path: String) throws(PlayerError) {
        try Snapshot.write(try snapshot(), to: path)
    }

    func run(output: EngineConfiguration.Output, custom: PlayerOutput?, timing: Timing,
             stop: StopCondition) -> RunOutcome {
        let session: PlayerSession
        do {
            session = try PlayerSession(player: self, output: output, custom: custom, timing: timing, stop: stop)
        } catch {
            return .failed(error)
        }
        self.session = session
        return session.run()
    }
}

/// A run's frame handler, dropped when the run returns: the player keeps its session (for
/// `snapshot()`), and so the run's output, and a handler referring to the player (an inset's does)
/// must not keep it alive.
private final class RunHandler<Value> {
    var call: ((Value) -> Void)?
    init(_ call: @escaping (Value) -> Void) { self.call = call }
}
