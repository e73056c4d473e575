import Foundation
import Overlay

/// The compositor's front: lays out the overlays for the player area, composes each scene (the
/// picture with the planes of this moment: vector layers, insets, subtitles, error text), presents
/// it to the output and keeps it for redraws and snapshots. It also knows when overlays need drawing
/// over a picture that is not moving (animations, an inset's new scene). Engine thread only.
final class SceneComposer {
    /// The layers above the picture.
    let overlays = OverlayStack()
    /// The scene on screen.
    private(set) var lastScene: Scene?
    /// The picture of the scene the output was last given.
    private(set) weak var presentedFrame: VideoFrame?
    /// A test's stall of the output (a frozen pipeline): while raised, scenes are composed and kept
    /// but not presented.
    var presentationHold: AbortFlag?
    /// When a scene was last presented (animations over a still picture are redrawn from then).
    private var drawnAt: Double?
    /// Inset players asked to stop (`removeAllInsets`) whose threads are not joined yet.
    private var stoppingInsets: [StoppingInset] = []
    private let output: PlayerOutput
    private let clock: PlaybackClock
    /// The screen's clockwise turn of the picture (mpv's `video-rotate`), added to the stream's: the
    /// overlays are laid out upright around the turned picture, and the output turns the picture.
    var videoRotation = 0

    /// Animated overlays over a still picture are redrawn this often.
    static let animationRate = 30.0

    init(output: PlayerOutput, clock: PlaybackClock) {
        self.output = output
        self.clock = clock
    }

    /// Composes `frame` with the overlays of this moment and presents it. `subtitles` are drawn at
    /// the frame's place in its pass; `streamGeometry` lays out the overlays while no frame is shown.
    /// Returns the layers that could not be drawn (each reported once).
    func present(_ frame: VideoFrame?, gravity: VideoGravity, subtitles: SubtitleOverlay?,
                 streamGeometry: VideoGeometry?) -> [OverlayError] {
        let scene = compose(frame, gravity: gravity, subtitles: subtitles, streamGeometry: streamGeometry)
        if presentationHold?.isRaised != true {
            output.present(scene)
            presentedFrame = frame
        }
        lastScene = scene
        drawnAt = clock.now
        return overlays.takeFailures()
    }

    /// The geometry layers are built for: the player area, where the picture is in it, the DPI.
    func layerGeometry(for frame: VideoFrame?, gravity: VideoGravity, streamGeometry: VideoGeometry?) -> LayerGeometry? {
        guard let area = output.area, area.width > 0, area.height > 0 else { return nil }
        let width = Double(area.width), height = Double(area.height)
        var videoRect = CGRect(x: 0, y: 0, width: width, height: height)
        if let geometry = (frame?.geometry ?? streamGeometry)?.turned(clockwise: videoRotation) {
            let layout = VideoLayout(geometry: geometry, gravity: gravity, areaWidth: width, areaHeight: height)
            videoRect = layout.pictureRect(for: geometry)
        }
        return LayerGeometry(width: width, height: height, videoRect: videoRect, scale: output.scale)
    }

    /// When overlays need drawing next, if they do: an animation's next image, a message's fade step or end.
    var animationDeadline: Double? {
        let message = overlays.messageDeadline(after: drawnAt ?? clock.now)
        guard overlays.isAnimating(at: clock.now) else { return message }
        let animation = (drawnAt ?? clock.now) + 1 / Self.animationRate
        return min(animation, message ?? animation)
    }

    /// Whether the overlays must be drawn again on their own: an inset's player showed a new scene,
    /// or an animation's next image is due.
    var overlaysNeedRedraw: Bool {
        if overlays.insetChanged { return true }
        guard let due = animationDeadline else { return false }
        return clock.now >= due
    }

    /// Shows `inset` and starts its player, waking the engine whenever that player shows a scene.
    func addInset(_ inset: PlayerInset, wake: @escaping @Sendable () -> Void) {
        // Its player removed a moment ago is still stopping: that run must end before the next starts.
        stoppingInsets.filter { $0.player === inset.player }.forEach { $0.thread.join() }
        stoppingInsets.removeAll { $0.player === inset.player }
        overlays.addInset(inset)
        inset.start(wakeHost: wake)
    }

    /// Removes every inset and asks its player to stop. The threads of the insets removed before
    /// are joined now; these are joined at the next removal or at `close` (they stop meanwhile,
    /// without holding this thread: an engine's close takes tens of milliseconds).
    func removeAllInsets() {
        let earlier = stoppingInsets
        stoppingInsets = requestInsetsStop()
        earlier.forEach { $0.thread.join() }
    }

    /// Stops every inset's player, all at once, and joins them.
    func close() {
        stoppingInsets += requestInsetsStop()
        stoppingInsets.forEach { $0.thread.join() }
        stoppingInsets.removeAll()
    }

    private func requestInsetsStop() -> [StoppingInset] {
        overlays.removeAllInsets().compactMap { inset in
            inset.requestStop().map { StoppingInset(player: inset.player, thread: $0) }
        }
    }

    /// The player is held weakly: a removed inset's player goes when its thread ends, not at the
    /// next removal or when this player closes.
    private struct StoppingInset {
        weak var player: ExtVideoPlayer?
        let thread: WorkerThread
    }

    private func compose(_ frame: VideoFrame?, gravity: VideoGravity, subtitles overlay: SubtitleOverlay?,
                         streamGeometry: VideoGeometry?) -> Scene {
        var scene = Scene(frame: frame, gravity: gravity, videoRotation: videoRotation)
        guard let geometry = layerGeometry(for: frame, gravity: gravity, streamGeometry: streamGeometry),
              let area = output.area else { return scene }
        var subtitles: OverlayPlane?
        if let frame, let overlay {
            // At the shown frame's place in its pass: cues repeat every pass and follow seeks and pauses.
            subtitles = overlay.plane(at: frame.positionInPass, area: area, videoRect: geometry.videoRect,
                                      videoSize: SubtitleCanvas(width: frame.width, height: frame.height))
        }
        overlays.setSubtitles(subtitles)
        scene.planes = overlays.planes(in: geometry, at: clock.now)
        return scene
    }
}
