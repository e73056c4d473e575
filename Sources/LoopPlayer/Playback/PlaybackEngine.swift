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
    package typealias State = PlayerState

    package typealias RunOutcome = LoopPlayer.RunOutcome

    /// What one iteration of the loop leaves to do.
    package enum Iteration {
        /// Go again at once (a frame was shown).
        case again
        /// Sleep until this monotonic time (nil: until woken).
        case wait(Double?)
        case finished(RunOutcome)
    }

    // MARK: Stored state, and who owns it
    // All of the engine's stored state is declared here. The engine's own: the items' roles (`item`,
    // `lastItem`), the lifecycle (`machine`), the configuration as changed since, the filters, the
    // outbox, and the run's flags. Owners with their own state and rules: the queued item and the
    // switch to it (`ItemSwitch`), the run's counters (`RunCounters`), snapshots being written
    // (`SnapshotWriters`), what is drawn over the picture (`OverlayControl`, beside the scene's
    // `SceneComposer`), the sound device (`SoundOutput`, through `SoundControl`), re-filtering
    // (`FrameRefilter`), what network sources learn (`NetworkControls`), the shared timeline (`sync`,
    // `syncSchedule`), the current item's replaced file (`FileReplacementWatch`). Per source
    // (`PlaybackItem`): what was said of it.

    package var state: PlayerState { machine.state }
    package internal(set) var configuration: EngineConfiguration
    /// The opened video stream, once loaded.
    package var videoInfo: VideoStreamInfo? { item?.info }
    package var location: MediaLocation? { item?.location }
    /// The current source's picture size as decoded, once it has opened.
    package var videoSize: PixelSize? { item?.info.map { PixelSize(width: $0.width, height: $0.height) } }

    /// A tap for tests and measurements: called on the engine's thread after every frame shown.
    package var onFramePresented: ((VideoFrame) -> Void)?

    /// What happened since the controller last took it (`runOnce` returns it).
    private var outbox: [EngineEvent] = []
    /// Something was reported that the controller answers with engine calls (a playlist queues
    /// the next item after a switch settled or the queued item failed): the iteration ends early,
    /// so that nothing is decided on a queue the controller is about to fill.
    private var awaitsController = false
    /// Sources loaded from now on end their sound with their picture (a playlist's items: the next
    /// item's sound then starts with its picture).
    var endsSoundWithPicture = false

    let clock: PlaybackClock
    /// Time passing (the configuration's monotonic clock), also when frames run on a virtual clock.
    let realClock: PlaybackClock
    /// The wall clock a shared timeline is read on (`EngineClocks.system`).
    let systemClock: any SystemClock
    let output: PlayerOutput
    var waiter: MainLoopWaiter { output.waiter }
    var machine = PlayerStateMachine()
    /// The state last reported with `stateChanged`.
    private var lastPublishedState: PlayerState = .idle
    /// The source being played.
    var item: PlaybackItem? {
        didSet { if item !== oldValue { replacedFile.forget() } }
    }
    /// The queued next playlist item and the switch to it (`PlaybackEngine+Queue`).
    let itemSwitch: ItemSwitch
    /// The current item's file, replaced while it plays, and its new content (`FileReplacementWatch`).
    let replacedFile: FileReplacementWatch
    /// The sound device, kept across sources (each item writes through a `SoundWriter` of it).
    package let sound: SoundOutput
    /// A source that is gone but whose counters still feed `statistics` (after `close()`).
    var lastItem: PlaybackItem?
    /// Composes and presents what the output shows, and keeps the scene on screen.
    let scene: SceneComposer
    var quitRequested = false
    /// The speed set before a presenter exists (it takes it when the source opens).
    var pendingSpeed = 1.0
    /// The next source waits on its first frame (`NotAutoPlay`).
    private(set) var holdsFirstFrame = false
    /// The run's counters across sources, and the errors by kind (`statistics`).
    var counters = RunCounters()
    /// Snapshots being written; joined when the engine closes.
    let snapshots = SnapshotWriters()
    var isClosed = false
    /// Clock time the current `run()` (or first `pump()`) began.
    private(set) var runStartedAt: Double?
    /// Following the shared timeline (`SyncTimeline`): the join, what was said, the lead.
    var sync = SyncFollowing()
    /// A playlist on the shared timeline: its schedule and the current item's place in it (the
    /// playlist says which item is current).
    var syncSchedule: (schedule: TimelineSchedule, item: Int)?
    /// The filters and brightness/contrast applied to every frame (kept across sources).
    package internal(set) var filters = FilterStack()
    /// What is drawn over the picture: layers, insets, the error text, a refused crop.
    lazy var overlayControl = OverlayControl(scene: scene)
    let refilter = FrameRefilter()
    /// What network sources learn from the engine (output size, the time on screen, the variant
    /// preference), and the throughput measured, kept across sources.
    let network = NetworkControls()

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
        self.output = output
        let monotonic = configuration.clocks.monotonic ?? MonotonicClock()
        clock = configuration.untimed ? VirtualClock() : monotonic
        realClock = monotonic
        systemClock = configuration.clocks.system ?? RealtimeClock()
        sound = SoundOutput(options: configuration.audio, volume: configuration.audio.volume,
                            muted: configuration.audio.muted, speed: 1)
        itemSwitch = ItemSwitch(clock: clock, sound: sound)
        replacedFile = FileReplacementWatch(virtualClock: clock.isVirtual)
        scene = SceneComposer(output: output, clock: clock)
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
            perform(machine.handle(.load(autoplay: !holdsFirstFrame)))  // it started, then failed: as mpv says it
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
        sync.join = nil
        dropQueued()
        forgetSwitch()
        stopItem()
        isClosed = false
        let plan: SourcePlan
        switch admit(location) {
        case var .success(admitted):
            admitted.ignoresPicture = ignoringPicture
            plan = admitted
        case let .failure(refusal):
            perform(machine.handle(.load(autoplay: !holdsFirstFrame)))
            fail(refusal)
            return
        }
        network.beginSource(preference: configuration.network.variant, outputSize: output.variantLimit)
        item = makeItem(location, plan: plan, queued: false)
        perform(machine.handle(.load(autoplay: !holdsFirstFrame)))
    }

    /// Sources as the engine makes them now (`ItemFactory`).
    private var itemFactory: ItemFactory {
        ItemFactory(configuration: configuration, network: network, sound: sound, filters: filters,
                    endsSoundWithPicture: endsSoundWithPicture, framesCannotWait: framesCannotWait,
                    virtualClock: clock.isVirtual, wake: waiter.wake)
    }

    func admit(_ location: MediaLocation) -> Result<SourcePlan, PlayerError> { itemFactory.admit(location) }

    /// Starts the pipeline of `location`; a missing subtitle file is an error event.
    func makeItem(_ location: MediaLocation, plan: SourcePlan, queued: Bool) -> PlaybackItem {
        let made = itemFactory.make(location, plan: plan, queued: queued, now: realClock.now)
        made.missing.forEach(note)
        return made.item
    }

    /// Whether the next source waits on its first frame (`NotAutoPlay`): state `.ready` until `play`.
    /// Call before `load`.
    package func setHoldsFirstFrame(_ hold: Bool) { holdsFirstFrame = hold }

    /// Stops the current source (and a queued next one) and releases their threads, queues and
    /// FFmpeg objects.
    package func unload() {
        dropQueued()
        forgetSwitch()
        stopItem()
        sound.close()  // nothing plays: another player may want SDL's audio driver
        perform(machine.handle(.unload))
    }

    private func stopItem() {
        item?.pipeline.stop()
        refilter.finish()
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
            case let .wait(deadline): handle(waiter.wait(until: deadline))
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

    /// One iteration between the controller's two halves. What the controller's calls lead to
    /// (a source that failed to load, a playlist's skip) is handled before the iteration decides
    /// anything on it.
    package func iterate(_ controller: (any EngineController)?) -> Iteration {
        guard let controller else { return runOnce().0 }
        controller.prepareIteration()
        // Each round handles what the last one's calls did; a few are all a chain of calls takes.
        for _ in 0..<8 where !outbox.isEmpty { controller.handle(takeEvents()) }
        let (iteration, events) = runOnce(controller.runContext)
        guard !events.isEmpty else { return iteration }
        controller.handle(events)
        // What it did may need an iteration at once (a skip while paused: its calls reported more).
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
    package func runOnce(_ context: RunContext = RunContext()) -> (Iteration, [EngineEvent]) {
        let iteration = iterationSteps(context)
        defer { outbox.removeAll(keepingCapacity: true) }
        return (iteration, outbox)
    }

    private func iterationSteps(_ context: RunContext) -> Iteration {
        if isClosed { return .finished(.finished) }
        if runStartedAt == nil {
            runStartedAt = clock.now
            item?.presenter?.setRunStart(clock.now)
        }
        handle(waiter.poll())
        if quitRequested { return .finished(.quit) }
        // A failure ends the run once the controller has seen it (a playlist may skip the item).
        if case let .failed(error) = state, configuration.stop.exitOnFailure, context.failureEndsRun {
            return .finished(.failed(error))
        }
        let failedBefore = isFailed
        // Opened now: the controller applies what was queued for it before its first frame.
        if openIfReady() { return .again }
        takeReports()
        tendReplacement()
        tendQueued()
        if isFailed && !failedBefore && configuration.stop.exitOnFailure { return .again }
        if takeAwaitsController() { return .again }
        // The run's time is up even with nothing shown (a source failing, loading, replaced).
        if let deadline = runDeadline, clock.now >= deadline { return .finished(.finished) }
        let step = presentDueFrame()
        settleSwitchIfDue()
        redrawOverlaysIfDue()
        let wake = nextWake(after: step, hostDeadline: context.deadline)
        if case .finished = wake { return wake }  // the run's end stands (a stop at a wrap)
        if takeAwaitsController() { return .again }
        return wake
    }

    private func takeAwaitsController() -> Bool {
        defer { awaitsController = false }
        return awaitsController
    }

    /// Tells the controller `event` with the next iteration.
    func emit(_ event: PlayerEvent) { outbox.append(.player(event)) }

    func report(_ event: EngineEvent) {
        outbox.append(event)
        switch event {
        case .switchSettled, .queuedItemFailed, .queueDropped: awaitsController = true
        default: break
        }
    }

    /// The controller may answer what was reported in this iteration with engine calls first.
    var controllerMayAnswer: Bool { awaitsController }

    /// What happened since the last iteration, for a controller that takes it between iterations
    /// (after the last one, when the engine closed).
    package func takeEvents() -> [EngineEvent] {
        defer { outbox.removeAll() }
        return outbox
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
            startPresenting(item, info: info,
                            presenter: makePresenter(info, item: item, paused: machine.wantsPause || state == .ready))
            perform(machine.handle(.opened))
            report(.opened)
            reportDurationIfMeasured()
            return true
        }
    }

    /// `item`'s stream is open: its presenter takes over, the output takes its size and title.
    func startPresenting(_ item: PlaybackItem, info: VideoStreamInfo, presenter: Presenter) {
        item.opened(info, presenter: presenter)
        output.prepare(for: info, title: item.displayName)
        // The subtitle files must be loaded before the first frame too (a track chosen later waits
        // for its renderer in `SubtitleOverlay` itself).
        if framesCannotWait { item.subtitles.prepareNow(timeout: 10) }
    }

    /// Frames on a virtual clock wait for nothing, and a run that counts its frames (a snapshot) must
    /// show in them what a window shows a moment later: what they show must be ready before they are.
    var framesCannotWait: Bool { clock.isVirtual || configuration.stop.frames != nil }

    func makePresenter(_ info: VideoStreamInfo, item: PlaybackItem, paused: Bool) -> Presenter {
        let presenter = Presenter(clock: clock, nominalFrameInterval: info.nominalFrameInterval)
        presenter.setPaused(paused)
        presenter.setSpeed(pendingSpeed)
        presenter.setLooping(configuration.looping)
        if let runStartedAt { presenter.setRunStart(runStartedAt) }
        if let generation = item.pendingSeekGeneration { presenter.restart(generation: generation) }
        return presenter
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
    private func nextWake(after step: Presenter.Step?, hostDeadline: Double?) -> Iteration {
        let presenter = item?.presenter
        // A replaced file is looked at four times a second until its new content is queued.
        let replacementCheck = replacedFile.nextCheck(now: clock.now)
        // On a shared timeline the system clock is looked at twice a second even during a long wait
        // (for the epoch): a step of it (a first NTP sync after boot) is seen at once.
        let clockCheck = configuration.syncTimeline != nil && !clock.isVirtual ? clock.now + 0.5 : nil
        let plan = WakePlan(step: WakePlan.Step(step), deadlines: [hostDeadline, scene.animationDeadline, itemSwitch.settlesAt,
                                                                   runDeadline, replacementCheck, clockCheck],
                            stopDeadline: presenter?.deadline(for: configuration.stop),
                            starvationDeadline: presenter.flatMap(starvationDeadline), exitAtEnd: itemStop.exitAtEnd,
                            virtualClock: clock.isVirtual, loading: state == .loading)
        switch plan.decision {
        case .again: return .again
        case .finished: return .finished(.finished)
        case let .wait(deadline): return .wait(deadline)
        case let .advanceClock(to: deadline):
            clock.advance(to: deadline)
            return .again
        }
    }

    /// Ends playback after a run: joins the pipeline's threads and closes the output, keeping the
    /// last frame for `snapshot()`. A later `load` starts again.
    package func close() {
        guard !isClosed else { return }
        dropQueued()
        forgetSwitch()
        item?.pipeline.stop()  // kept, stopped: its counters still feed `statistics`
        sound.close()
        isClosed = true
        refilter.finish()
        snapshots.joinAll()
        stopPictureInPicture()  // said before the output goes
        scene.close()  // the insets' players stop all at once, then are joined
        output.close()
        perform(machine.handle(.close))
    }

    /// Asks `run()` to return `.quit` (from the engine's thread).
    package func requestQuit() {
        quitRequested = true
        waiter.wake()
    }

    // MARK: State

    var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// Performs what the state machine asked for.
    func perform(_ actions: [PlayerStateMachine.Action]) {
        let before = lastPublishedState
        for action in actions {
            switch action {
            case let .emit(event): emit(event)
            case let .setPaused(paused):
                item?.presenter?.setPaused(paused)
                waiter.wake()
            case let .showError(error):
                overlayControl.showError(error, style: errorStyle)
                redraw()
            case .clearError:
                overlayControl.clearError()
                redraw()
            }
        }
        if state != before {
            lastPublishedState = state
            report(.stateChanged(state))
        }
        updateSound()
    }

    func fail(_ error: PlayerError) {
        record(error)
        item?.pipeline.stop()
        perform(machine.handle(.failed(error)))
    }

    func record(_ error: PlayerError) {
        counters.count(error)
        logger.debug("\(error.description)")
    }

    /// Counts `error` and tells the controller (an error event).
    func note(_ error: PlayerError) {
        record(error)
        emit(.error(error))
    }

    /// What an owner decided, or its refusal, noted and thrown.
    func noting<Value>(_ decision: Result<Value, PlayerError>) throws(PlayerError) -> Value {
        switch decision {
        case let .success(value): return value
        case let .failure(error):
            note(error)
            throw error
        }
    }

    func loopCompleted(_ count: Int) {
        emit(.loopCompleted(count))
    }

    /// Opens the current item's source again (its picture proved undecodable), holding the last
    /// frame meanwhile.
    private func reopen(_ item: PlaybackItem, ignoringPicture: Bool = false) {
        logger.notice("\(item.location): opening it again\(ignoringPicture ? " without its picture" : "")")
        load(item.location, ignoringPicture: ignoringPicture)
        report(.queueDropped)  // a playlist queues its next item again
    }

    /// The current item's file was replaced: its new content is queued once the file has settled
    /// (`tendReplacement`), and the current item holds its last frame until then (`pipelineFailed`:
    /// its pipeline failed on the old content, the new one takes over once queued).
    private func noteReplaced(_ item: PlaybackItem, pipelineFailed: Bool = false) {
        if let path = replacedFile.noteReplaced(item.location, pipelineFailed: pipelineFailed, now: realClock.now) {
            logger.notice("\(path): the file was replaced; its new content follows")
        }
    }

    /// What the pipeline's threads reported: failures end the item, warnings and underruns are events.
    private func takeReports() {
        guard let item else { return }
        let pipeline = item.pipeline
        for report in pipeline.status.takeReports() {
            switch report {
            case let .fatal(error):
                // A file copied over while it played fails on its old content: play the new one.
                guard !pipeline.sourceWasReplaced else {
                    noteReplaced(item, pipelineFailed: true)
                    continue
                }
                fail(error)
            case .sourceReplaced:
                noteReplaced(item)
            case let .pictureUndecodable(error):
                note(error)
                return reopen(item, ignoringPicture: true)
            case let .warning(error):
                note(error)
            case let .loopingStopped(error):
                item.loopingStopped = error
                item.presenter?.setLooping(false)  // its end is final: no next pass will come
            case let .filterFailed(error, instead):
                // The decode thread went back to the last stack that worked: that is what runs now.
                filters = instead
                pipeline.setFilters(instead)
                note(.invalidFilter(error))
            case .underrun:
                emit(.waitingToPlayAtSpecifiedRate)
            }
        }
        if item.presenter != nil, let unmatched = item.subtitles.takeUnmatchedStartChoice() { note(unmatched) }
        if let underrun = item.announcements.underruns(sound.underruns) { emit(underrun) }
        reportDurationIfMeasured()
    }

    /// `duration`: the container's announced length when the source opens, then the measured length
    /// of a pass once the first pass was read, if it differs.
    func reportDurationIfMeasured() {
        guard let item, let event = item.announcements.duration(item.pipeline.status.loopDuration ?? item.info?.announcedDuration)
        else { return }
        emit(event)
    }
}
