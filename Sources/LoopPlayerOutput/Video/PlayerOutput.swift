import Overlay
import LoopPlayerCore
import LoopPlayerMedia

/// What an output shows at one moment: the picture (or black) and the overlay planes above it,
/// bottom to top.
package struct Scene: Sendable {
    package var frame: VideoFrame?
    package var gravity: VideoGravity
    package var planes: [OverlayPlane] = []
    /// The screen's extra clockwise turn of the picture (mpv's `video-rotate`: 0, 90, 180 or 270),
    /// on top of the stream's own. The overlays are already laid out upright on the turned screen.
    package var videoRotation: Int

    package init(frame: VideoFrame?, gravity: VideoGravity, planes: [OverlayPlane] = [], videoRotation: Int = 0) {
        self.frame = frame
        self.gravity = gravity
        self.planes = planes
        self.videoRotation = videoRotation
    }

    /// The picture's shape as this scene shows it: the frame's, turned by `videoRotation` too.
    package var geometry: VideoGeometry? { frame.map { $0.geometry.turned(clockwise: videoRotation) } }
}

extension VideoGeometry {
    /// The same picture turned `degrees` further clockwise (the stream's turn and the screen's add up).
    package func turned(clockwise degrees: Int) -> VideoGeometry {
        guard degrees % 360 != 0 else { return self }
        return VideoGeometry(width: width, height: height, sampleAspectRatio: sampleAspectRatio, rotation: rotation + degrees)
    }
}

/// Where a player's scenes go: its own window, a host's SDL renderer, memory (headless), or a frame
/// callback. One output lives as long as the player's run, across sources, failed loads and retries.
/// Main thread only (the thread that runs the player).
package protocol PlayerOutput: AnyObject {
    /// The player area in output pixels; nil while unknown (an embedded output before its first draw).
    var area: PixelSize? { get }
    /// Output pixels per point (96 dpi = 1), for text sizes.
    var scale: Double { get }
    /// How the run loop sleeps and which input reaches it.
    var waiter: MainLoopWaiter { get }
    /// Shows `scene` now.
    func present(_ scene: Scene)
    /// A source with this stream is about to play (a window takes its size, the path its rotation needs).
    func prepare(for info: VideoStreamInfo, title: String)
    /// The screen's turn of the picture changed (`Scene.videoRotation`): an output whose area
    /// follows the picture's size takes the turned shape, before the next scene is laid out.
    func screenTurned(to degrees: Int)
    /// The user's fullscreen key.
    func toggleFullscreen()
    /// The window system resized the window (only windows have one).
    func windowResized(to size: PixelSize)
    /// The pixels worth fetching a picture for (the HLS variant choice never goes far beyond them);
    /// nil: no limit. Not the area when the area follows the picture's own size.
    var variantLimit: PixelSize? { get }
    /// Releases what it holds; nothing is drawn afterwards. Idempotent.
    func close()
    /// Opens the picture-in-picture window: a second view of the scenes this output presents. Only
    /// a window can; the others throw `notSupportedPiP`.
    func openPictureInPicture(_ placement: MiniWindowPlacement) throws(PlayerError)
    /// Closes it; false if none was open.
    func closePictureInPicture() -> Bool
    var showsPictureInPicture: Bool { get }
}

extension PlayerOutput {
    package func windowResized(to size: PixelSize) {}
    package func screenTurned(to degrees: Int) {}
    package var variantLimit: PixelSize? { area }
    package func openPictureInPicture(_ placement: MiniWindowPlacement) throws(PlayerError) {
        throw .notSupportedPiP(reason: "the player has no window (headless, frames-only or embedded)")
    }
    package func closePictureInPicture() -> Bool { false }
    package var showsPictureInPicture: Bool { false }
}

