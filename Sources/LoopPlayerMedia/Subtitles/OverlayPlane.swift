import Overlay

/// One rasterised overlay of a scene. `revision` changes whenever the image does, so an output
/// uploads a plane's pixels only when its revision moved (and keeps the texture otherwise).
package struct OverlayPlane: Sendable {
    /// Which overlay this is; the same layer keeps its texture from scene to scene.
    package enum Layer: Hashable, Sendable {
        case vector(Int)
        /// Another player's scene (`PlayerInset`), by the inset's place in the stack.
        case inset(Int)
        case subtitles
        case error
        /// A short message (mpv's OSD): in the window, not in snapshots.
        case message
    }

    package let layer: Layer
    package let revision: Int
    package let image: OverlayImage

    package init(layer: Layer, revision: Int, image: OverlayImage) {
        self.layer = layer
        self.revision = revision
        self.image = image
    }
}
