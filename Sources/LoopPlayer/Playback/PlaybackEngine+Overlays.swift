import Foundation
import Overlay

/// What the output shows: the picture with the overlays above it. Engine thread only.
extension PlaybackEngine {
    /// Adds a vector layer (after removing the others if `clear`). It is built for the player area
    /// as soon as that is known, and again whenever it changes.
    public func addVector(_ builder: any ShapeLayerBuilderProtocol, clear: Bool = false) {
        overlays.add(builder, at: clock.now, clear: clear)
        redraw()
    }

    public func removeAllVectors() {
        overlays.removeAllVectors()
        redraw()
    }

    /// Shows another player's scene inside this one's picture and starts that player (see
    /// `PlayerInset`). It is stopped by `removeAllInsets()` or when this engine closes. A frame that
    /// cannot be drawn (not finite, empty) is an `invalidSetting` error event instead.
    public func addInset(_ inset: PlayerInset) {
        do { try inset.validate() } catch {
            record(error)
            onEvent?(.error(error))
            return
        }
        // Its player removed a moment ago is still stopping: that run must end before the next starts.
        stoppingInsets.filter { $0.player === inset.player }.forEach { $0.thread.join() }
        stoppingInsets.removeAll { $0.player === inset.player }
        overlays.addInset(inset)
        inset.start(wakeHost: waiter.wake)
    }

    /// Removes every inset and stops their players (their threads are joined at the next removal,
    /// when one of their players is added again, or when this engine closes: they stop meanwhile,
    /// without holding this thread).
    public func removeAllInsets() {
        let earlier = stoppingInsets
        stoppingInsets = requestInsetsStop()
        earlier.forEach { $0.thread.join() }
        redraw()
    }

    /// Removes every inset and asks its player to stop; returns what to join.
    func requestInsetsStop() -> [(player: ExtVideoPlayer, thread: WorkerThread)] {
        overlays.removeAllInsets().compactMap { inset in inset.requestStop().map { (inset.player, $0) } }
    }

    /// How a failed source's error text is drawn (the model's `EColor` and `EFontSize`).
    public func setErrorStyle(color: Color, fontSize: Float) {
        configuration.errorColor = color
        configuration.errorFontSize = fontSize
        if case let .failed(error) = state {
            overlays.showError(error.description, style: OverlayStack.ErrorStyle(color: color, fontSize: fontSize))
            redraw()
        }
    }

    /// Shows `frame` with the overlays of this moment.
    func show(_ frame: VideoFrame?) {
        let scene = composeScene(frame)
        output.present(scene)
        lastScene = scene
        overlaysDrawnAt = clock.now
        reportOverlayFailures()
    }

    /// Draws the scene again: the overlays or the layout changed (a resize, gravity, an error).
    func redraw() {
        show(item?.presenter?.current ?? lastScene?.frame)
        reportBounds()
    }

    /// Animated overlays over a picture that is not moving (paused, held, failed, between slow
    /// frames) are redrawn on their own, 30 times a second.
    func redrawOverlaysIfDue() {
        if overlays.insetChanged {
            show(lastScene?.frame)  // an inset's player showed a new scene
            return
        }
        guard let due = overlayDeadline, clock.now >= due else { return }
        show(lastScene?.frame)
    }

    /// When animated overlays need drawing next, if they do.
    var overlayDeadline: Double? {
        guard overlays.isAnimating(at: clock.now) else { return nil }
        return (overlaysDrawnAt ?? clock.now) + 1.0 / 30
    }

    /// The geometry layers are built for: the player area, where the picture is in it, the DPI.
    func layerGeometry(for frame: VideoFrame?) -> LayerGeometry? {
        guard let area = output.area, area.width > 0, area.height > 0 else { return nil }
        let width = Double(area.width), height = Double(area.height)
        var videoRect = CGRect(x: 0, y: 0, width: width, height: height)
        if let geometry = frame?.geometry ?? videoInfo?.geometry {
            let layout = VideoLayout(geometry: geometry, gravity: configuration.gravity, areaWidth: width, areaHeight: height)
            videoRect = layout.pictureRect(for: geometry)
        }
        return LayerGeometry(width: width, height: height, videoRect: videoRect, scale: output.scale)
    }

    private func composeScene(_ frame: VideoFrame?) -> Scene {
        var scene = Scene(frame: frame, gravity: configuration.gravity)
        guard let geometry = layerGeometry(for: frame), let area = output.area else { return scene }
        var subtitles: OverlayPlane?
        if let frame, let overlay = item?.subtitles {
            // At the shown frame's place in its pass: cues repeat every pass and follow seeks and pauses.
            subtitles = overlay.plane(at: frame.positionInPass, area: area, videoRect: geometry.videoRect,
                                      videoSize: SubtitleCanvas(width: frame.width, height: frame.height))
        }
        overlays.setSubtitles(subtitles)
        scene.planes = overlays.planes(in: geometry, at: clock.now)
        return scene
    }

    private func reportOverlayFailures() {
        for failure in overlays.takeFailures() {
            let error = PlayerError.invalidOverlay(failure)
            record(error)
            onEvent?(.error(error))
        }
    }

    /// Emits `boundsChanged` when the picture's rectangle in the player area changed.
    func reportBounds() {
        guard let item, let geometry = layerGeometry(for: item.presenter?.current) else { return }
        let rect = geometry.videoRect
        let bounds = Rect(x: rect.origin.x, y: rect.origin.y, width: rect.width, height: rect.height)
        guard bounds != item.reportedBounds, item.presenter?.current != nil else { return }
        item.reportedBounds = bounds
        onEvent?(.boundsChanged(bounds))
    }
}
