import Filters
import Overlay

/// What is drawn over the picture, beside the scene that composes it (`SceneComposer`): vector
/// layers and insets added and removed, the error text, and a leading crop (`--crop`) the picture
/// does not fit, refused per picture. It decides and draws; the engine hands it what it plays
/// (`Playing`) and notes the errors it returns. Engine thread only.
final class OverlayControl {
    /// What the engine plays, as drawing it needs.
    struct Playing {
        var gravity: VideoGravity
        var subtitles: SubtitleOverlay?
        var streamGeometry: VideoGeometry?
        var filters: FilterStack
        /// The source's name in a refused crop's error.
        var source: String
        var errorStyle: OverlayStack.ErrorStyle
    }

    private let scene: SceneComposer
    /// The leading crop refused for the picture on screen (it does not fit it), said once and
    /// shown until a picture it fits is shown.
    private var cropRefusal: PlayerError?

    init(scene: SceneComposer) {
        self.scene = scene
    }

    /// Composes `frame` with the overlays of this moment and presents it. Returns the errors to
    /// note: a crop refused now, then the layers that could not be drawn.
    func present(_ frame: VideoFrame?, _ playing: Playing) -> [PlayerError] {
        var errors: [PlayerError] = []
        if let frame, let refusal = checkCrop(of: frame, playing) { errors.append(refusal) }
        let failures = scene.present(frame, gravity: playing.gravity, subtitles: playing.subtitles,
                                     streamGeometry: playing.streamGeometry)
        return errors + failures.map(PlayerError.invalidOverlay)
    }

    /// A leading crop the picture does not fit is refused: the filter chain made the picture black
    /// (`FilterChain.process`), and this says why — the error returned, the text over the picture
    /// — once, until a picture it fits is shown (the text goes then). Checked at every frame shown,
    /// against that frame's own picture, as a wall's panel is laid out for it: a file replaced by a
    /// smaller picture, and back, is refused, then cropped again. Returns a refusal new now.
    private func checkCrop(of frame: VideoFrame, _ playing: Playing) -> PlayerError? {
        // A frame filtered by another stack is followed by one of the current stack's.
        guard frame.filtering.revision == playing.filters.revision else { return nil }
        let picture = PixelSize(width: Int(frame.unfiltered.pointee.width), height: Int(frame.unfiltered.pointee.height))
        let refusal = playing.filters.leadingCrop.flatMap { crop in
            crop.fits(width: picture.width, height: picture.height) ? nil
                : PlayerError.cropOutsidePicture(source: playing.source, crop: crop.rect, picture: picture)
        }
        let changed = refusal != cropRefusal
        if changed, let shown = cropRefusal, scene.overlays.errorMessage == shown.description { scene.overlays.clearError() }
        cropRefusal = refusal
        guard let refusal else { return nil }
        // Again after a replaced file's new content cleared the text, and it is refused too.
        if changed || scene.overlays.errorMessage == nil { showError(refusal, style: playing.errorStyle) }
        return changed ? refusal : nil
    }

    func showError(_ error: PlayerError, style: OverlayStack.ErrorStyle) {
        scene.overlays.showError(error.description, style: style)
    }

    func clearError() { scene.overlays.clearError() }

    /// The error text shown (`failure`'s, or a refused crop's) drawn again in `style`. True when
    /// there was one (the scene needs drawing).
    func restyle(_ style: OverlayStack.ErrorStyle, failure: PlayerError?) -> Bool {
        if let failure {
            showError(failure, style: style)
        } else if let cropRefusal, scene.overlays.errorMessage == cropRefusal.description {
            showError(cropRefusal, style: style)
        } else {
            return false
        }
        return true
    }

    /// The picture's rectangle in the player area when `frame` is shown; nil before the area is known.
    func pictureBounds(for frame: VideoFrame?, _ playing: Playing) -> Rect? {
        guard let geometry = scene.layerGeometry(for: frame, gravity: playing.gravity,
                                                 streamGeometry: playing.streamGeometry) else { return nil }
        let rect = geometry.videoRect
        return Rect(x: rect.origin.x, y: rect.origin.y, width: rect.width, height: rect.height)
    }

    /// Adds a vector layer (after removing the others if `clear`). It is built for the player area
    /// as soon as that is known, and again whenever it changes.
    func addVector(_ builder: any ShapeLayerBuilderProtocol, at now: Double, clear: Bool) {
        scene.overlays.add(builder, at: now, clear: clear)
    }

    func removeAllVectors() { scene.overlays.removeAllVectors() }

    /// Shows another player's scene inside this one's picture and starts that player (see
    /// `PlayerInset`), waking the engine whenever it shows a scene. A frame that cannot be drawn
    /// (not finite, empty) is refused with `invalidSetting`.
    func addInset(_ inset: PlayerInset, wake: @escaping @Sendable () -> Void) -> Result<Void, PlayerError> {
        do throws(PlayerError) { try inset.validate() } catch { return .failure(error) }
        scene.addInset(inset, wake: wake)
        return .success(())
    }

    /// Removes every inset and stops their players (their threads are joined at the next removal,
    /// when one of their players is added again, or when the engine closes: they stop meanwhile,
    /// without holding the engine's thread).
    func removeAllInsets() { scene.removeAllInsets() }
}
