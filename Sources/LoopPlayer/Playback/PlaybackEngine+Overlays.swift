import Filters
import Foundation
import Overlay

/// What the output shows: the picture with the overlays above it (`OverlayControl`). Engine thread only.
extension PlaybackEngine {
    package func addVector(_ builder: any ShapeLayerBuilderProtocol, clear: Bool = false) {
        overlayControl.addVector(builder, at: clock.now, clear: clear)
        redraw()
    }

    package func removeAllVectors() {
        overlayControl.removeAllVectors()
        redraw()
    }

    /// Shows `inset` (`OverlayControl.addInset`; a refusal is an error event). It is stopped by
    /// `removeAllInsets()` or when this engine closes.
    package func addInset(_ inset: PlayerInset) { try? noting(overlayControl.addInset(inset, wake: waiter.wake)) }

    package func removeAllInsets() {
        overlayControl.removeAllInsets()
        redraw()
    }

    /// How a failed source's error text is drawn (the model's `EColor` and `EFontSize`).
    package func setErrorStyle(color: Color, fontSize: Float) {
        configuration.errorColor = color
        configuration.errorFontSize = fontSize
        var failure: PlayerError?
        if case let .failed(error) = state { failure = error }
        if overlayControl.restyle(errorStyle, failure: failure) { redraw() }
    }

    var errorStyle: OverlayStack.ErrorStyle {
        OverlayStack.ErrorStyle(color: configuration.errorColor, fontSize: configuration.errorFontSize)
    }

    /// What is playing, as the overlays draw it.
    private var playing: OverlayControl.Playing {
        OverlayControl.Playing(gravity: configuration.gravity, subtitles: item?.subtitles, streamGeometry: videoInfo?.geometry,
                               filters: filters, source: location?.description ?? "", errorStyle: errorStyle)
    }

    /// Shows `frame` with the overlays of this moment.
    func show(_ frame: VideoFrame?) {
        overlayControl.present(frame, playing).forEach(note)
    }

    /// Draws the scene again: the overlays or the layout changed (a resize, gravity, an error).
    func redraw() {
        show(item?.presenter?.current ?? scene.lastScene?.frame)
        reportBounds()
    }

    /// Animated overlays over a picture that is not moving (paused, held, failed, between slow
    /// frames) are redrawn on their own, and so is an inset's new scene.
    func redrawOverlaysIfDue() {
        if scene.overlaysNeedRedraw { show(scene.lastScene?.frame) }
    }

    /// Emits `boundsChanged` when the picture's rectangle in the player area changed.
    func reportBounds() {
        guard let item, let current = item.presenter?.current, let bounds = overlayControl.pictureBounds(for: current, playing),
              let event = item.announcements.bounds(bounds) else { return }
        emit(event)
    }
}
