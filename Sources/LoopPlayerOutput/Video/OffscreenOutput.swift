import Overlay
import LoopPlayerCore
import LoopPlayerMedia

/// No window (tests, benchmarks, servers, frames-only): the player area is the picture's display
/// size, and the last scene is kept so `snapshot()` shows exactly what a window would. When asked,
/// every scene also goes to a callback (frames-only mode).
package final class OffscreenOutput: PlayerOutput {
    package let waiter: MainLoopWaiter = ConditionWaiter()
    package private(set) var area: PixelSize?
    package let scale = 1.0
    package private(set) var lastScene: Scene?
    private let fixedArea: PixelSize?
    private let onScene: ((Scene, PixelSize) -> Void)?

    /// `area`: a fixed player area (nil: each source's display size). `onScene` gets every scene
    /// shown (with the area it is laid out in), on the player's thread.
    package init(area: PixelSize? = nil, onScene: ((Scene, PixelSize) -> Void)? = nil) {
        fixedArea = area
        self.area = area ?? PixelSize(width: 640, height: 360)
        self.onScene = onScene
    }

    package func present(_ scene: Scene) {
        lastScene = scene
        if let area { onScene?(scene, area) }
    }

    package func prepare(for info: VideoStreamInfo, title: String) {
        prepared = info.geometry
        followPicture()
    }

    /// The stream the area follows (nil: none yet) and the screen's turn of it.
    private var prepared: VideoGeometry?
    private var screenRotation = 0

    package func screenTurned(to degrees: Int) {
        screenRotation = degrees
        followPicture()
    }

    /// Without a fixed area, the area is the picture's display size, turned as the screen turns it.
    private func followPicture() {
        guard fixedArea == nil, let prepared else { return }
        let size = prepared.turned(clockwise: screenRotation).displaySize
        area = PixelSize(width: max(1, Int(size.width.rounded())), height: max(1, Int(size.height.rounded())))
    }

    /// A fixed area limits the variants; an area that follows the picture does not.
    package var variantLimit: PixelSize? { fixedArea }

    package func toggleFullscreen() {}
    package func close() {}
}

/// A scene as a frames-only host gets it: the picture, the overlays above it, and the area they are
/// laid out in.
public struct ComposedFrame: Sendable {
    package let scene: Scene
    /// The player area the scene is laid out in.
    public let area: PixelSize

    /// The video frame (nil while nothing has been decoded, e.g. a failed source's error text).
    public var video: VideoFrame? { scene.frame }
    /// The overlays, bottom to top, placed in the area.
    public var overlays: [OverlayImage] { scene.planes.map(\.image) }

    /// The scene as a window shows it, at `area`'s size: scaled bilinearly, as a window's renderer
    /// does (fast enough for a host showing every frame; `snapshot()` scales with accurate bicubic).
    public func image() throws(PlayerError) -> RGBImage {
        try ScalerPool.shared.lend { scaler throws(PlayerError) in try Snapshot.image(of: scene, area: area, scaler: scaler) }
    }

    package init(scene: Scene, area: PixelSize) {
        self.scene = scene
        self.area = area
    }
}
