import Filters
import Foundation
import Overlay

/// What the output shows: the picture with the overlays above it. Engine thread only.
extension PlaybackEngine {
    /// Adds a vector layer (after removing the others if `clear`). It is built for the player area
    /// as soon as that is known, and again whenever it changes.
    package func addVector(_ builder: any ShapeLayerBuilderProtocol, clear: Bool = false) {
        scene.overlays.add(builder, at: clock.now, clear: clear)
        redraw()
    }

    package func removeAllVectors() {
        scene.overlays.removeAllVectors()
        redraw()
    }

    /// Shows another player's scene inside this one's picture and starts that player (see
    /// `PlayerInset`). It is stopped by `removeAllInsets()` or when this engine closes. A frame that
    /// cannot be drawn (not finite, empty) is an `invalidSetting` error event instead.
    package func addInset(_ inset: PlayerInset) {
        do { try inset.validate() } catch {
            record(error)
            emit(.error(error))
            return
        }
        scene.addInset(inset, wake: waiter.wake)
    }

    /// Removes every inset and stops their players (their threads are joined at the next removal,
    /// when one of their players is added again, or when this engine closes: they stop meanwhile,
    /// without holding this thread).
    package func removeAllInsets() {
        scene.removeAllInsets()
        redraw()
    }

    /// How a failed source's error text is drawn (the model's `EColor` and `EFontSize`).
    package func setErrorStyle(color: Color, fontSize: Float) {
        configuration.errorColor = color
        configuration.errorFontSize = fontSize
        if case let .failed(error) = state {
            scene.overlays.showError(error.description, style: OverlayStack.ErrorStyle(color: color, fontSize: fontSize))
            redraw()
        } else if let cropRefusal, scene.overlays.errorMessage == cropRefusal.description {
            scene.overlays.showError(cropRefusal.description, style: OverlayStack.ErrorStyle(color: color, fontSize: fontSize))
            redraw()
        }
    }

    /// Shows `frame` with the overlays of this moment.
    func show(_ frame: VideoFrame?) {
        if let frame { noteCrop(of: frame) }
        let failures = scene.present(frame, gravity: configuration.gravity, subtitles: item?.subtitles,
                                     streamGeometry: videoInfo?.geometry)
        for failure in failures {
            let error = PlayerError.invalidOverlay(failure)
            record(error)
            emit(.error(error))
        }
    }

    /// A leading crop (`--crop`) the picture does not fit is refused: the filter chain made the
    /// picture black (`FilterChain.process`), and this says why — an error event and the text over
    /// the picture — once, until a picture it fits is shown (the text goes then). Checked at every
    /// frame shown, against that frame's own picture, as a wall's panel is laid out for it: a file
    /// replaced by a smaller picture, and back, is refused, then cropped again.
    private func noteCrop(of frame: VideoFrame) {
        // A frame filtered by another stack is followed by one of the current stack's.
        guard frame.filtering.revision == filters.revision else { return }
        let picture = PixelSize(width: Int(frame.unfiltered.pointee.width), height: Int(frame.unfiltered.pointee.height))
        let refusal = filters.leadingCrop.flatMap { crop in
            crop.fits(width: picture.width, height: picture.height) ? nil
                : PlayerError.cropOutsidePicture(source: location?.description ?? "", crop: crop.rect, picture: picture)
        }
        let changed = refusal != cropRefusal
        if changed, let shown = cropRefusal, scene.overlays.errorMessage == shown.description { scene.overlays.clearError() }
        cropRefusal = refusal
        guard let refusal else { return }
        if changed {
            record(refusal)
            emit(.error(refusal))
        }
        // Again after a replaced file's new content cleared the text, and it is refused too.
        if changed || scene.overlays.errorMessage == nil {
            scene.overlays.showError(refusal.description, style: OverlayStack.ErrorStyle(
                color: configuration.errorColor, fontSize: configuration.errorFontSize))
        }
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
        guard let item, let geometry = scene.layerGeometry(for: item.presenter?.current, gravity: configuration.gravity,
                                                           streamGeometry: videoInfo?.geometry) else { return }
        let rect = geometry.videoRect
        let bounds = Rect(x: rect.origin.x, y: rect.origin.y, width: rect.width, height: rect.height)
        guard bounds != item.reportedBounds, item.presenter?.current != nil else { return }
        item.reportedBounds = bounds
        emit(.boundsChanged(bounds))
    }
}
