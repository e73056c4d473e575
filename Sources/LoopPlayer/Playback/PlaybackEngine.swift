import Filters
import Foundation
import Overlay

/// Plays one source at a time into an output that outlives it (a window, a host's renderer,
/// memory). Sources open and decode on their own threads; frames are presented on the thread that
/// drives the engine (the main thread with a window), through `run()` or, from a host's own loop,
/// `runOnce()`.
///
/// ```swift
/// let engine = try PlaybackEngine(configuration: EngineConfiguration(looping: true))
/// try engine.load("swipe")
/// engine.run()
/// ```
/// The engine is not thread-safe: create and drive it from one thread.
package final class PlaybackEngine {
    // MARK: Stored state, and who owns it
    // All of the engine's stored state is here. Its own: the items' roles, the lifecycle, the
    // settings new sources are made with, the run's flags. The rest belongs to owners with their
    // own state and rules, which the engine drives and which speak through the outbox.

    /// The settings the engine started with, and new sources are made with (looping, network, the
    /// frame cache) as changed since. Sound, subtitles, what is drawn and the shared timeline are
    /// their owners' from the start (`soundControl`, `screen`, `timelineSync`).
    package private(set) var configuration: EngineConfiguration
    /// The source being played; owners that act on it are told (`Screen.item`).
    private(set) var item: PlaybackItem? {
        didSet {
            guard item !== oldValue else { return }
            replacedFile.forget()
            screen.item = item
            soundControl.item = item
            timelineSync.item = item
            filterControl.item = item
        }
    }
    /// A source that is gone but whose counters still feed `statistics` (after `close()`).
    private(set) var lastItem: PlaybackItem?
    private(set) var machine = PlayerStateMachine()
    /// The state last reported with `stateChanged`.
    private var lastPublishedState: PlayerState = .idle
    /// Sources loaded from now on end their sound with their picture (a playlist's items).
    var endsSoundWithPicture = false
    /// The next source waits on its first frame (`NotAutoPlay`).
    private(set) var holdsFirstFrame = false
    /// The speed set before a presenter exists (it takes it when the source opens).
    private(set) var pendingSpeed = 1.0
    private(set) var quitRequested = false
    private(set) var isClosed = false
    /// Clock time the current `run()` (or first `pump()`) began.
    private(set) var runStartedAt: Double?
    /// A tap for tests and measurements: called on the engine's thread after every frame shown.
    package var onFramePresented: ((VideoFrame) -> Void)?

    /// The frames' clock (virtual when untimed), time passing, and the wall clock a shared timeline is read on.
    let clock: PlaybackClock
    let realClock: PlaybackClock
    let systemClock: any SystemClock

    // Owners.
    /// What the engine and its owners said since the controller last took it; the errors counted.
    package let outbox = EngineOutbox()
    /// What the output shows: the picture, overlays, subtitles, messages, the mini window, snapshots.
    package let screen: Screen
    /// The sound device, kept across sources, and its volume, mute and track.
    package let soundControl: SoundControl
    /// The queued next playlist item and the switch to it.
    let itemSwitch: ItemSwitch
    /// The current item's file, replaced while it plays, and its new content.
    let replacedFile: FileReplacementWatch
    /// The shared timeline followed, and a playlist's schedule on it.
    package let timelineSync: TimelineSync
    /// The filters and brightness/contrast applied to every frame, kept across sources.
    package let filterControl: FilterControl
    /// What network sources learn from the engine, and the throughput measured, kept across sources.
    let network = NetworkControls()
    /// The run's counters across sources (`statistics`).
    let counters = RunCounters()

    package var state: PlayerState { machine.state }
    /// The opened video stream, once loaded.
    package var videoInfo: VideoStreamInfo? { item?.info }
    package var location: MediaLocation? { item?.location }
    /// The current source's picture size as decoded, once it has opened.
    package var videoSize: PixelSize? { item?.info.map { PixelSize(width: $0.width, height: $0.height) } }
    var output: PlayerOutput { screen.output }
    var waiter: MainLoopWaiter { output.waiter }
    package var sound: SoundOutput { soundControl.device }
    /// The sound plays while the state does (`SoundControl.update`).
    func updateSound() { soundControl.update(playing: state == .playing || state == .buffering) }
    package var filters: FilterStack { filterControl.stack }

    /// Creates an engine and its output. A window output opens its window now (before any source)
    /// and throws `displayUnavailable` when there is no display.
    package convenience init(configuration: EngineConfiguration) throws(PlayerError) {
        let output: PlayerOutput
        switch configuration.output {
        case let .window(options): output = try WindowOutput(options: options)
        case .offscreen: output = OffscreenOutput()
        }
        self.init(configuration: configuration, output: output)
    }

    /// An engine presenting into `output` (embedding, frames-only).
    init(configuration: EngineConfiguration, output: PlayerOutput) {
        self.configuration = configuration
        let monotonic = configuration.clocks.monotonic ?? MonotonicClock()
        clock = configuration.untimed ? VirtualClock() : monotonic
        realClock = monotonic
        systemClock = configuration.clocks.system ?? RealtimeClock()
        let sound = SoundOutput(options: configuration.audio, volume: configuration.audio.volume,
                                muted: configuration.audio.muted, speed: 1)
        itemSwitch = ItemSwitch(clock: clock, sound: sound, outbox: outbox)
        timelineSync = TimelineSync(timeline: configuration.syncTimeline, sound: sound, clock: clock,
                                    systemClock: systemClock, outbox: outbox, wake: output.waiter.wake)
        soundControl = SoundControl(device: sound, options: configuration.audio, timeline: timelineSync,
                                    switcher: itemSwitch, clock: clock, outbox: outbox, wake: output.waiter.wake)
        replacedFile = FileReplacementWatch(virtualClock: clock.isVirtual)
        filterControl = FilterControl(outbox: outbox, wake: output.waiter.wake)
        screen = Screen(output: output, configuration: configuration, clock: clock, filters: filterControl, outbox: outbox)
        FFmpegLogBridge.install
    }

    deinit { close() }

    // MARK: Loading

    /// Resolves `source` (path, `file://` or network URL, or bare name + `ext`) and starts loading it.
    /// Resolution errors are thrown (and shown); open and decode errors arrive as `.failed` from `run()`.
    package func load(_ source: String, ext: String = "mp4") throws(PlayerError) {
        do {
            load(try SourceResolver.standard().resolve(source, ext: ext))
        } catch {
            unload()
            apply(.load(autoplay: !holdsFirstFrame))  // it started, then failed: as mpv says it
            fail(error)
            throw error
        }
        if case let .failed(refused) = state, case .sourceNotAllowed = refused { throw refused }
    }

    /// Starts loading `location`, replacing whatever was playing (and dropping a queued next item).
    /// Returns at once. A source the policy refuses (`EngineConfiguration.network.allowedSources`)
    /// fails with `sourceNotAllowed`.
    package func load(_ location: MediaLocation) {
        load(location, ignoringPicture: false)
    }

    private func load(_ location: MediaLocation, ignoringPicture: Bool) {
        counters.sourceLoaded(sinceStart: statistics.sinceStart, underruns: sound.underruns)
        timelineSync.forgetJoin()
        itemSwitch.forget()
        stopItem()
        var plan: SourcePlan
        do {
            plan = try items.admit(location).get()
        } catch {
            startLoading()
            return fail(error)
        }
        plan.ignoresPicture = ignoringPicture
        network.beginSource(preference: configuration.network.variant, outputSize: output.variantLimit)
        item = items.make(location, plan: plan, queued: false)
        startLoading()
    }

    /// A source is loading: the run is open again, and the state says so.
    func startLoading() {
        isClosed = false
        apply(.load(autoplay: !holdsFirstFrame))
    }

    /// Sources as the engine makes them now.
    var items: ItemFactory {
        ItemFactory(configuration: configuration, audio: soundControl.options, subtitleOptions: screen.subtitleOptions,
                    network: network, sound: sound, filters: filters, endsSoundWithPicture: endsSoundWithPicture,
                    framesCannotWait: framesCannotWait, virtualClock: clock.isVirtual, realClock: realClock, outbox: outbox,
                    wake: waiter.wake)
    }

    /// Whether the next source waits on its first frame (`NotAutoPlay`): state `.ready` until `play`.
    /// Call before `load`.
    package func setHoldsFirstFrame(_ hold: Bool) { holdsFirstFrame = hold }

    /// Stops the current source (and a queued next one) and releases their threads, queues and
    /// FFmpeg objects.
    package func unload() {
        itemSwitch.forget()
        stopItem()
        sound.close()  // nothing plays: another player may want SDL's audio driver
        apply(.unload)
    }

    private func stopItem() {
        item?.pipeline.stop()
        filterControl.finish()
        if let item { lastItem = item }
        item = nil
    }

    /// A switch: `next` is the current item; the one it replaces is the last, and the run counts
    /// what it decoded.
    func makeCurrent(_ next: PlaybackItem) {
        if let item {
            lastItem = item
            counters.itemReplaced(item.pipeline.status)
        }
        item = next
    }

    /// Blocks until the source has opened (or failed); for callers that want errors before `run()`.
    @discardableResult
    package func waitUntilReady(timeout: Double = 30) -> PlayerState {
        guard let item else { return state }
        _ = item.pipeline.status.waitUntilOpened(deadline: MonotonicCondition.now + timeout)
        openIfReady()
        return state
    }

    // MARK: Running

    /// Presents frames until a stop condition, a quit request or a failure, with `controller`
    /// between the iterations (none: what happens is dropped). Call on the main thread when the
    /// output is a window.
    @discardableResult
    package func run(controller: (any EngineController)? = nil) -> RunOutcome {
        quitRequested = false
        runStartedAt = nil
        while true {
            switch iterate(controller) {
            case let .finished(outcome): return outcome
            case .again: continue
            case let .wait(deadline): if screen.handle(waiter.wait(until: deadline)) { quitRequested = true }
            }
        }
    }

    /// One non-blocking iteration for hosts that run their own loop (embedding): presents at most
    /// one due frame and returns when to call again (seconds from now; nil: on the next wakeup), or
    /// the outcome once playback is over.
    package func pump(controller: (any EngineController)? = nil) -> (nextIn: Double?, outcome: RunOutcome?) {
        switch iterate(controller) {
        case let .finished(outcome):
            runStartedAt = nil  // a host that pumps again starts another run
            return (nil, outcome)
        case .again: return (0, nil)  // one frame per call: the host draws it before the next
        case let .wait(deadline): return (deadline.map { max(0, $0 - realClock.now) }, nil)
        }
    }

    /// One iteration between the controller's two halves. What its calls led to (a source that
    /// failed to load, a playlist's skip) reaches it first; what it answers with comes with the
    /// iteration's own events, except where the iteration must not decide before the controller
    /// has seen it (a failure, `awaitsController`): there it ends at once, and the next one decides.
    package func iterate(_ controller: (any EngineController)?) -> EngineIteration {
        guard let controller else { return runOnce().0 }
        controller.prepareIteration()
        if !outbox.isEmpty { controller.handle(outbox.take()) }
        let (iteration, events) = runOnce(controller.runContext)
        guard !events.isEmpty else { return iteration }
        controller.handle(events)
        if case .finished = iteration { return iteration }
        if !outbox.isEmpty { return .again }
        // What it handled may want the loop back sooner (the first event of a batch).
        guard !clock.isVirtual, case let .wait(until) = iteration, let deadline = controller.runContext.deadline else {
            return iteration
        }
        return .wait(min(until ?? deadline, deadline))
    }

    /// One iteration of the loop, in named steps, ending in one wait; with what happened in it
    /// (and in the calls made since the last one).
    package func runOnce(_ context: RunContext = RunContext()) -> (EngineIteration, [EngineEvent]) {
        let iteration = iterationSteps(context)
        return (iteration, outbox.take())
    }

    private func iterationSteps(_ context: RunContext) -> EngineIteration {
        if isClosed { return .finished(.finished) }
        if runStartedAt == nil {
            runStartedAt = clock.now
            item?.presenter?.setRunStart(clock.now)
        }
        if screen.handle(waiter.poll()) { quitRequested = true }
        if quitRequested { return .finished(.quit) }
        // A failure ends the run once the controller has seen it (a playlist may skip the item): said
        // by what its own calls did (a skip to a missing item), it goes to the controller first.
        if case let .failed(error) = state, configuration.stop.exitOnFailure {
            if !outbox.isEmpty { return .again }
            if context.failureEndsRun { return .finished(.failed(error)) }
        }
        let failedBefore = isFailed
        // Opened now: the controller applies what was queued for it before its first frame.
        if openIfReady() { return .again }
        takeReports()
        tendReplacement()
        tendQueued()
        // The controller sees a failure first, and queues a playlist's next item (`awaitsController`)
        // before anything is decided on the queue: the iteration ends here, and the next one decides.
        if isFailed && !failedBefore && configuration.stop.exitOnFailure || outbox.awaitsController { return .again }
        // The run's time is up even with nothing shown (a source failing, loading, replaced).
        if let deadline = runDeadline, clock.now >= deadline { return .finished(.finished) }
        let step = presentDueFrame(hostDeadline: context.deadline, holdingClock: context.holdsVirtualClock)
        itemSwitch.settleIfDue()
        screen.redrawOverlaysIfDue()
        let wake = nextWake(after: step, hostDeadline: context.deadline, holdingClock: context.holdsVirtualClock)
        if case .finished = wake { return wake }  // the run's end stands (a stop at a wrap)
        return outbox.awaitsController ? .again : wake
    }

    /// The source opened (its presenter is made) or failed. True when it opened now.
    @discardableResult
    func openIfReady() -> Bool {
        guard let item, item.presenter == nil else { return false }
        switch item.pipeline.status.phase {
        case .opening:
            return false
        case let .failed(error):
            // Said once: the loop comes back here at every wake while the failed item stays.
            if case .failed = state { return false }
            fail(error)
            return false
        case let .ready(info):
            item.opened(info, presenter: makePresenter(info, item: item, paused: machine.wantsPause || state == .ready),
                        in: output, subtitlesNow: framesCannotWait)
            apply(.opened)
            outbox.report(.opened)
            reportDurationIfMeasured()
            return true
        }
    }

    /// Frames on a virtual clock wait for nothing, and a run that counts its frames (a snapshot) must
    /// show in them what a window shows a moment later: what they show must be ready before they are.
    var framesCannotWait: Bool { clock.isVirtual || configuration.stop.frames != nil }

    func makePresenter(_ info: VideoStreamInfo, item: PlaybackItem, paused: Bool) -> Presenter {
        Presenter(clock: clock, info: info, paused: paused, speed: pendingSpeed, looping: configuration.looping,
                  runStart: runStartedAt, generation: item.pendingSeekGeneration)
    }

    /// When `StopCondition.duration` ends the run, counted from its start. On a real clock only: a
    /// virtual clock's time is the frames', and passes only as they are shown.
    var runDeadline: Double? {
        guard !clock.isVirtual, let duration = configuration.stop.duration, let runStartedAt else { return nil }
        return runStartedAt + duration
    }

    /// The stop condition for this item: with a next item queued, its end is not the run's end.
    var itemStop: StopCondition {
        var stop = configuration.stop
        if itemSwitch.queued != nil { stop.exitAtEnd = false }
        return stop
    }

    /// When to come back, from what the presenter waits for and what else is due (`WakePlan`).
    private func nextWake(after step: Presenter.Step?, hostDeadline: Double?, holdingClock: Bool) -> EngineIteration {
        let presenter = item?.presenter
        // A replaced file is looked at four times a second until its new content is queued.
        let deadlines = [hostDeadline, screen.composer.animationDeadline, itemSwitch.settlesAt, runDeadline,
                         replacedFile.nextCheck(now: clock.now), timelineSync.nextClockCheck]
        let plan = WakePlan(step: WakePlan.Step(step), deadlines: deadlines,
                            stopDeadline: presenter?.deadline(for: configuration.stop),
                            starvationDeadline: presenter.flatMap(starvationDeadline), exitAtEnd: itemStop.exitAtEnd,
                            virtualClock: clock.isVirtual, loading: state == .loading)
        switch plan.decision {
        case .again: return .again
        case .finished: return .finished(.finished)
        case let .wait(deadline): return .wait(deadline)
        case let .advanceClock(to: deadline):
            // The controller sees what happened first (the end of a schedule's entry): what it does
            // about it happens at this time, not at the deadline. (Events come of progress: the next
            // iteration, with none left, moves the clock.)
            if !outbox.isEmpty { return .again }
            if holdingClock { return .wait(nil) }  // woken by what the controller waits for
            clock.advance(to: deadline)
            return .again
        }
    }

    /// Ends playback after a run: joins the pipeline's threads and closes the output, keeping the
    /// last frame for `snapshot()`. A later `load` starts again.
    package func close() {
        guard !isClosed else { return }
        itemSwitch.forget()
        item?.pipeline.stop()  // kept, stopped: its counters still feed `statistics`
        sound.close()
        isClosed = true
        filterControl.finish()
        screen.close()
        apply(.close)
    }

    /// Asks `run()` to return `.quit` (from the engine's thread).
    package func requestQuit() {
        quitRequested = true
        waiter.wake()
    }

    // MARK: Controls: pause, speed, loop, network, seeking

    package var isPaused: Bool { item?.presenter?.isPaused ?? machine.wantsPause }

    /// True once the stream is open and frames can be presented (commands apply from here on).
    package var isReady: Bool { item?.presenter != nil }

    package func setPaused(_ paused: Bool) {
        apply(paused ? .pause : .play)
        waiter.wake()
    }

    /// Playback rate: 1 is normal, 0 holds the picture (and silences the sound). Clamped to
    /// `PropertyLimits.speed`; the sound keeps its pitch (`atempo`).
    package var speed: Double { item?.presenter?.speed ?? pendingSpeed }

    package func setSpeed(_ speed: Double) {
        let clamped = speed.isNaN ? 1 : speed.clamped(to: PropertyLimits.speed)
        pendingSpeed = clamped
        item?.presenter?.setSpeed(clamped)
        sound.playbackSpeed = clamped
        updateSound()
        waiter.wake()
    }

    package var isLooping: Bool { configuration.looping }

    package func setLooping(_ looping: Bool) {
        let changed = looping != configuration.looping
        configuration.looping = looping
        item?.pipeline.isLooping = looping
        itemSwitch.queued?.pipeline.isLooping = looping
        item?.presenter?.setLooping(looping)
        if looping { apply(.resumed) }
        if changed { outbox.report(.loopingChanged(looping)) }
        waiter.wake()
    }

    /// Network options for the sources loaded from now on; the HLS variant preference also applies
    /// to the source playing, from its next segment.
    package func setNetworkOptions(_ options: NetworkOptions) {
        configuration.network = options
        network.setPreference(options.variant)
    }

    /// The frame cache's budget (`FrameCache`) for the sources loaded from now on.
    package func setFrameCache(bytes: Int) { configuration.frameCacheBytes = max(0, bytes) }

    /// Position inside the current pass, in seconds: from 0 up to (not including) the pass's length.
    package var position: Double { pictureSpot?.position ?? 0 }

    /// The pass the picture is in and its position in it (`PlaybackPosition.spot`).
    var pictureSpot: (pass: Int, position: Double)? { item?.position.spot }

    /// Length of one pass: measured once the first pass was read, announced by the container before.
    package var duration: Double? { item?.duration }

    /// Seeks inside the current pass; negative goes to the start, past the end to the last frame.
    /// Returns where it goes (nil when it cannot seek) and emits `seek(success, currentTime:)`.
    /// `announce: false` for the player's own seeks (joining a shared timeline): no `seek` event.
    @discardableResult
    package func seek(to position: Double, inPass pass: Int? = nil, announce: Bool = true) -> Double? {
        guard let item, let target = PlaybackPosition.seekTarget(position, duration: duration,
                                                                 lastFrame: videoInfo?.nominalFrameInterval ?? 0) else {
            if announce { outbox.emit(.seek(false, currentTime: self.position)) }
            return nil
        }
        itemSwitch.takeBackSound()
        item.seek(to: target, inPass: pass)
        apply(.resumed)
        if announce { outbox.emit(.seek(true, currentTime: target)) }
        waiter.wake()
        return target
    }

    package func seek(by delta: Double) { seek(to: position + delta) }

    /// The time in the pass of the picture on screen (`PlaybackPosition.shown`).
    package var shownPosition: Double { item?.position.shown ?? 0 }

    /// A seek is under way: its first picture is not on screen yet.
    package var isSeeking: Bool { !isFailed && item?.position.isSeeking == true }

    // MARK: State

    /// The error playback failed with, while it is failed.
    package var failure: PlayerError? {
        if case let .failed(error) = state { return error }
        return nil
    }

    var isFailed: Bool { failure != nil }

    /// Gives the state machine `input` and performs what it asks for.
    func apply(_ input: PlayerStateMachine.Input) {
        let before = lastPublishedState
        for action in machine.handle(input) {
            switch action {
            case let .emit(event): outbox.emit(event)
            case let .setPaused(paused):
                item?.presenter?.setPaused(paused)
                waiter.wake()
            case let .showError(error): screen.showError(error)
            case .clearError: screen.clearError()
            }
        }
        if state != before {
            lastPublishedState = state
            outbox.report(.stateChanged(state))
        }
        updateSound()
    }

    func fail(_ error: PlayerError) {
        outbox.record(error)
        item?.pipeline.stop()
        apply(.failed(error))
    }

    /// The run's statistics (`RunCounters`): the current source's, or the last one's once it is gone.
    package var statistics: PlaybackStatistics {
        counters.statistics(source: item ?? lastItem, current: item, sound: sound, soundDrift: timelineSync.soundDrift,
                            errors: outbox.errorCounts)
    }

    /// What the pipeline's threads reported (`PipelineReports`); the engine ends the item, or opens
    /// it again without its picture (the last frame held until then).
    private func takeReports() {
        guard let item else { return }
        let reports = PipelineReports(outbox: outbox, replacedFile: replacedFile, filterControl: filterControl)
        switch reports.take(from: item, now: realClock.now, soundUnderruns: sound.underruns) {
        case let .fail(error)?:
            fail(error)
        case .reopenWithoutPicture?:
            logger.notice("\(item.location): opening it again without its picture")
            load(item.location, ignoringPicture: true)
            return outbox.report(.queueDropped)  // a playlist queues its next item again
        case nil:
            break
        }
        reportDurationIfMeasured()
    }

    /// `duration`: the container's announced length when the source opens, then the measured length
    /// of a pass once the first pass was read, if it differs.
    func reportDurationIfMeasured() {
        if let item, let event = item.announcements.duration(item.duration) { outbox.emit(event) }
    }
}
