import Filters
import Foundation
import Overlay

/// What the output shows and what is asked of it: the picture of the item playing laid out with
/// the overlays above it (`SceneComposer`, `OverlayControl`), the gravity, the screen's turn, the
/// subtitles chosen and shown, the error text and its style, short messages, the picture-in-picture
/// window, and snapshots of what is on screen. The engine says which item plays (`item`); the screen draws it again whenever
/// something it shows changes, and says what it has to say in the engine's outbox. Engine thread only.
package final class Screen {
    package let output: PlayerOutput
    let composer: SceneComposer
    /// The item whose picture is shown (the engine's current item).
    weak var item: PlaybackItem?
    package private(set) var gravity: VideoGravity
    private(set) var errorStyle: OverlayStack.ErrorStyle
    /// Where the mini window opens (nil: picture-in-picture is off).
    package private(set) var pictureInPicture: PictureInPicture?
    /// The subtitles chosen and whether they are shown, kept for later sources.
    private(set) var subtitleOptions: SubtitleOptions
    private let overlays: OverlayControl
    private let filters: FilterControl
    private let outbox: EngineOutbox
    private let messages: OnScreenMessages
    /// The window's key bindings (none for outputs without keys), and where its snapshot key writes.
    private let window: WindowOptions?
    private let clock: PlaybackClock
    /// Snapshots being written; joined when the screen closes.
    private let snapshots = SnapshotWriters()
    /// Whether the pictures shown are black or frozen for too long (`PictureAlerts`).
    private(set) var pictureWatch = PictureWatch()
    /// The last picture presented that the watch sampled (a redraw of it is not sampled again).
    private weak var sampledFrame: VideoFrame?

    init(output: PlayerOutput, configuration: EngineConfiguration, clock: PlaybackClock, filters: FilterControl,
         outbox: EngineOutbox) {
        self.output = output
        self.clock = clock
        self.filters = filters
        self.outbox = outbox
        composer = SceneComposer(output: output, clock: clock)
        overlays = OverlayControl(scene: composer)
        gravity = configuration.gravity
        errorStyle = OverlayStack.ErrorStyle(color: configuration.errorColor, fontSize: configuration.errorFontSize)
        pictureInPicture = configuration.pictureInPicture
        subtitleOptions = configuration.subtitles
        messages = OnScreenMessages(configuration.output)
        if case let .window(options) = configuration.output { window = options } else { window = nil }
    }

    // MARK: The window

    /// What the window asks for: resizes, exposure, the mini window closed, and keys, which the
    /// screen does not carry out: it reports the action a key is bound to (`InputMap`) and the
    /// engine's controller does it, as it does a command. True when the window asks to close.
    func handle(_ inputs: [WindowInput]) -> Bool {
        var closes = false
        for input in inputs {
            switch input {
            case .close: closes = true
            case .closePictureInPicture: stopPictureInPicture()
            case let .resized(size):
                output.windowResized(to: size)
                redraw()
            case .exposed: redraw()
            case let .key(press):
                if let action = window?.inputMap.action(for: press) { outbox.report(.keyPressed(action)) }
            }
        }
        return closes
    }

    /// Where the snapshot key writes (nil: the output has no window and no snapshot key).
    package var keySnapshotPath: String? { window?.snapshotPath() }

    // MARK: Drawing

    /// What is playing, as the overlays draw it.
    private var playing: OverlayControl.Playing {
        OverlayControl.Playing(gravity: gravity, subtitles: item?.subtitles, streamGeometry: item?.info?.geometry,
                               filters: filters.stack, source: item?.location.description ?? "", errorStyle: errorStyle)
    }

    /// The frame on screen.
    package var currentFrame: VideoFrame? { item?.presenter?.current ?? composer.lastScene?.frame }

    /// Shows `frame` with the overlays of this moment.
    func show(_ frame: VideoFrame?) {
        overlays.present(frame, playing).forEach(outbox.note)
        samplePresentedFrame()
    }

    /// Tells the picture watch of the picture presented, unless it sampled that one already.
    private func samplePresentedFrame() {
        guard pictureWatch.isWatching, let presented = composer.presentedFrame, presented !== sampledFrame else { return }
        sampledFrame = presented
        pictureWatch.presented(presented.sample, at: clock.now)
    }

    /// Watches the pictures for these alerts from now on; a watch turned on judges the picture on
    /// screen at once (a held or paused one is presented no more).
    func watchPictures(_ thresholds: PictureWatch.Thresholds) {
        guard thresholds != pictureWatch.thresholds else { return }
        pictureWatch.thresholds = thresholds
        sampledFrame = nil
        samplePresentedFrame()
    }

    /// The alerts that began or ended by now (`PictureWatch.check`).
    func checkPictures(moving: Bool, starved: Bool) -> [PictureWatch.Change] {
        pictureWatch.check(at: clock.now, moving: moving, starved: starved)
    }

    /// Shows the frame due now (the engine's next picture), told to the picture watch first.
    func showDue(_ frame: VideoFrame) {
        if pictureWatch.isWatching { pictureWatch.due(frame.sample) }
        show(frame)
    }

    /// Draws the scene again: the overlays or the layout changed (a resize, gravity, an error).
    package func redraw() {
        show(currentFrame)
        reportBounds()
    }

    /// Animated overlays over a picture that is not moving (paused, held, failed, between slow
    /// frames) are redrawn on their own, and so is an inset's new scene.
    func redrawOverlaysIfDue() {
        if composer.overlaysNeedRedraw { show(composer.lastScene?.frame) }
    }

    /// Emits `boundsChanged` when the picture's rectangle in the player area changed.
    func reportBounds() {
        guard let item, let current = item.presenter?.current, let bounds = overlays.pictureBounds(for: current, playing),
              let event = item.announcements.bounds(bounds) else { return }
        outbox.emit(event)
    }

    // MARK: What is drawn

    package func setGravity(_ gravity: VideoGravity) {
        self.gravity = gravity
        redraw()
    }

    /// The screen's clockwise turn of the picture (mpv's `video-rotate`), on top of the stream's own.
    package var videoRotation: Int { composer.videoRotation }

    /// Turns the picture `degrees` clockwise from now on, shown at once: the output turns it as it
    /// draws it (the renderer's rotation, no CPU pass), the overlays are laid out upright around it.
    /// Anything but 0, 90, 180 or 270 throws `invalidSetting` (also an error event) and the turn stays.
    package func setVideoRotation(_ degrees: Int) throws(PlayerError) {
        do {
            try VideoRotation.validate(degrees)
        } catch {
            outbox.note(error)
            throw error
        }
        guard degrees != composer.videoRotation else { return }
        composer.videoRotation = degrees
        output.screenTurned(to: degrees)  // an area that follows the picture turns before the layout
        redraw()
    }

    package func addVector(_ builder: any ShapeLayerBuilderProtocol, clear: Bool = false) {
        overlays.addVector(builder, at: clock.now, clear: clear)
        redraw()
    }

    package func removeAllVectors() {
        overlays.removeAllVectors()
        redraw()
    }

    /// Shows `inset` (`OverlayControl.addInset`; a refusal is an error event). It is stopped by
    /// `removeAllInsets()` or when the screen closes.
    package func addInset(_ inset: PlayerInset) { try? outbox.noting(overlays.addInset(inset, wake: output.waiter.wake)) }

    package func removeAllInsets() {
        overlays.removeAllInsets()
        redraw()
    }

    func showError(_ error: PlayerError) {
        overlays.showError(error, style: errorStyle)
        redraw()
    }

    /// Removes the error text; `redrawing: false` when the next frame shown is on its way.
    func clearError(redrawing: Bool = true) {
        overlays.clearError()
        if redrawing { redraw() }
    }

    /// How a failed source's error text is drawn (the model's `EColor` and `EFontSize`); `failure`
    /// is the error shown for the player's state, if any.
    package func setErrorStyle(color: Color, fontSize: Float, failure: PlayerError?) {
        errorStyle = OverlayStack.ErrorStyle(color: color, fontSize: fontSize)
        if overlays.restyle(errorStyle, failure: failure) { redraw() }
    }

    /// Shows `text` for `duration` seconds (nil: the window's `osdDuration`) when `level` is within
    /// the window's `osdLevel` (`OnScreenMessages`), as mpv's OSD; it replaces the message shown. An
    /// empty text removes it.
    package func showMessage(_ text: String, duration: Double? = nil, level: Int = 1) {
        guard messages.shows(level: level) else { return }
        composer.overlays.showMessage(messages.message(text, duration: duration, at: clock.now))
        redraw()
    }

    // MARK: Subtitles

    /// The source's subtitle tracks and the loaded files' (empty until it opened).
    package var subtitleTracks: [SubtitleTrack] { item?.subtitles.tracks ?? [] }

    /// The track shown, if any.
    package var subtitleTrack: SubtitleTrack? { item?.subtitles.currentTrack }

    /// The shown track's place among `subtitleTracks` (nil: none), and how many there are.
    package var subtitleTrackPosition: (shown: Int?, count: Int) {
        let tracks = subtitleTracks
        return (subtitleTrack.flatMap { tracks.firstIndex(of: $0) }, tracks.count)
    }

    /// Subtitles are drawn (the `v` key, mpv's `sub-visibility`).
    package var subtitlesVisible: Bool { subtitleOptions.visible }

    /// Chooses the subtitles (kept for later sources). A language or number that matches no track
    /// throws `subtitleTrackNotFound` (also sent as an error event) and the current choice stays.
    package func setSubtitles(_ choice: SubtitleChoice) throws(PlayerError) {
        if let item, let error = item.subtitles.select(choice) {
            outbox.note(error)
            throw error
        }
        subtitleOptions.choice = choice
        redraw()
    }

    /// The next subtitle track; after the last one none, then the first again (mpv's `j`).
    package func cycleSubtitles() {
        guard let item else { return }
        item.subtitles.cycle()
        subtitleOptions.choice = item.subtitles.choice
        redraw()
    }

    /// Shows or hides the subtitles without changing the choice (mpv's `v`).
    package func setSubtitlesVisible(_ visible: Bool) {
        subtitleOptions.visible = visible
        item?.subtitles.visible = visible
        redraw()
    }

    // MARK: Picture-in-picture

    /// Opens the mini window where `pictureInPicture` says and emits `startedPiP` (nothing if it is
    /// open already). Without that setting, or without a window, it throws `notSupportedPiP` and
    /// emits it as an error event.
    package func startPictureInPicture() throws(PlayerError) {
        guard !output.showsPictureInPicture else { return }
        do throws(PlayerError) {
            guard let placement = pictureInPicture else {
                throw PlayerError.notSupportedPiP(reason: "the PictureInPicture() setting is not given")
            }
            try output.openPictureInPicture(placement.placement)
        } catch {
            outbox.note(error)
            throw error
        }
        outbox.emit(.startedPiP)
        redraw()  // the mini window shows the scene at once, even over a paused picture
    }

    /// Closes the mini window and emits `stoppedPiP` (nothing if none is open).
    package func stopPictureInPicture() {
        guard output.closePictureInPicture() else { return }
        outbox.emit(.stoppedPiP)
    }

    /// Enables picture-in-picture where `placement` says (used by the next `startPictureInPicture`),
    /// or disables it (nil), closing the mini window.
    package func setPictureInPicture(_ placement: PictureInPicture?) {
        pictureInPicture = placement
        if placement == nil { stopPictureInPicture() }
    }

    // MARK: Snapshots

    /// What the output shows now — the picture laid out in the player area with the overlays — at the
    /// player area's size (the picture's display size when there is no window); `content` as
    /// `SnapshotContent` says.
    package func snapshot(content: SnapshotContent = .scene) throws(PlayerError) -> RGBImage {
        let (scene, area) = try shownScene()
        return try Snapshot.image(of: scene, area: area, content: content)
    }

    /// The scene on screen and the player area, or why there is none to take.
    private func shownScene() throws(PlayerError) -> (Scene, PixelSize) {
        guard let scene = composer.lastScene, scene.frame != nil, let area = output.area else {
            throw .renderFailed(reason: "no frame has been shown yet")
        }
        return (scene, area)
    }

    /// Writes `snapshot()` at `path`, as PNG or JPEG as its extension says (`Snapshot.write`).
    package func writeSnapshot(to path: String) throws(PlayerError) {
        try Snapshot.write(try snapshot(), to: path)
    }

    /// The snapshot key and `screenshot-to-file`: written on its own thread (`SnapshotWriters`).
    /// `done` is called once, with nil when the file is written, from the writer's thread or (no
    /// scene, too many being written: also an error event) this one.
    package func writeSnapshotInBackground(to path: String, content: SnapshotContent = .scene,
                                   done: (@Sendable (PlayerError?) -> Void)? = nil) {
        let scene: Scene, area: PixelSize
        do throws(PlayerError) {
            (scene, area) = try shownScene()
        } catch {
            done?(error)
            return
        }
        guard let refusal = snapshots.write(scene, area: area, content: content, to: path, done: done) else { return }
        outbox.note(refusal)
        done?(refusal)
    }

    /// A server's picture of the screen (`SnapshotRequest`): the scene on screen now — the error
    /// text over black while a source has failed — made on a snapshot thread. Delivered at once when
    /// nothing has been shown yet or too many pictures are being made.
    package func capture(_ request: SnapshotRequest) {
        guard !request.abandoned.isRaised else { return }
        guard let scene = composer.lastScene, let area = output.area else {
            request.deliver(.failure(.unavailable(.renderFailed(reason: "nothing has been shown yet"))))
            return
        }
        if let refusal = snapshots.encode(scene, area: area, for: request) { request.deliver(.failure(.unavailable(refusal))) }
    }

    /// The end of playback: snapshots are written, the mini window goes (said first), the insets'
    /// players stop all at once and are joined, and the output closes.
    package func close() {
        snapshots.joinAll()
        stopPictureInPicture()
        composer.close()
        output.close()
    }
}
