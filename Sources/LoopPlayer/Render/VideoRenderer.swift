/// Shows frames. Called on the main thread only.
protocol VideoRenderer: AnyObject {
    /// Uploads and shows `frame` now.
    func display(_ frame: VideoFrame)
    /// Shows the current frame again (after a resize, an expose or a gravity change).
    func redisplay()
    /// The gravity used to lay the picture out.
    var gravity: VideoGravity { get set }
    /// Where the picture sits in the player area (nil without an area).
    var pictureBounds: Rect? { get }
}

extension VideoRenderer {
    var pictureBounds: Rect? { nil }
}

/// Draws nothing (headless). Snapshots need no renderer: the presenter keeps the frame it showed.
final class NullRenderer: VideoRenderer {
    var gravity: VideoGravity = .default
    func display(_ frame: VideoFrame) {}
    func redisplay() {}
}
