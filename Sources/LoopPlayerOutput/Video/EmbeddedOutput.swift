import CSDL
import LoopPlayerCore
import LoopPlayerMedia

/// Draws into a host application's own SDL renderer, at a rectangle the host chooses in each
/// `draw(in:)`: the picture with its gravity, then the overlay planes. The host presents the
/// renderer itself. Main thread only (the host's rendering thread).
package final class EmbeddedOutput: PlayerOutput {
    private let renderer: OpaquePointer
    private let texture: YUVTexture
    private let planes: PlaneTextures
    package let waiter: MainLoopWaiter
    private var scene = Scene(frame: nil, gravity: .default)
    private weak var uploaded: VideoFrame?
    /// The rectangle of the last `draw(in:)`: the player area.
    package private(set) var rect: Rect?
    /// Called when the host's rectangle changes size (the overlays are laid out for it).
    package var onAreaChange: (() -> Void)?

    package init(renderer: OpaquePointer) {
        self.renderer = renderer
        texture = YUVTexture(renderer: renderer)
        planes = PlaneTextures(renderer: renderer)
        waiter = HostLoopWaiter(wakeType: SDLVideo.registerWakeEvent())
    }

    package var area: PixelSize? {
        rect.map { PixelSize(width: Int($0.width.rounded()), height: Int($0.height.rounded())) }
    }

    package let scale = 1.0

    package func present(_ scene: Scene) {
        self.scene = scene
        if let frame = scene.frame, uploaded !== frame {
            ColorConversion(frame: frame).useForSDLTextures()
            uploaded = texture.upload(frame) ? frame : nil
        }
    }

    package func prepare(for info: VideoStreamInfo, title: String) {}
    package func toggleFullscreen() {}
    package func close() {}

    /// Where the picture sits in the host's renderer (nil before the first draw).
    private var pictureBounds: Rect? {
        guard let rect, let geometry = scene.geometry else { return nil }
        let layout = VideoLayout(geometry: geometry, gravity: scene.gravity, areaWidth: rect.width, areaHeight: rect.height)
        return Rect(x: rect.x + layout.destination.x, y: rect.y + layout.destination.y,
                    width: layout.destination.width, height: layout.destination.height)
    }

    /// Copies the current picture and overlays into `area` of the host's renderer (the letterbox is
    /// the host's background).
    package func draw(in area: Rect) {
        let resized = rect.map { $0.width != area.width || $0.height != area.height } ?? true
        rect = area
        if resized { onAreaChange?() }
        var clip = area.sdlRect
        SDL_RenderSetClipRect(renderer, &clip)
        if let frame = scene.frame, let geometry = scene.geometry, uploaded === frame, let picture = texture.texture {
            ColorConversion(frame: frame).useForSDLTextures()
            let layout = VideoLayout(geometry: geometry, gravity: scene.gravity, areaWidth: area.width, areaHeight: area.height)
            var destination = layout.unrotatedDestination(for: geometry)
            destination.x += area.x
            destination.y += area.y
            var source = layout.source.sdlRect
            var target = destination.sdlRect
            SDL_RenderCopyEx(renderer, picture, &source, &target, Double(geometry.rotation), nil, SDL_FLIP_NONE)
        }
        planes.draw(scene.planes, origin: (Int(area.x.rounded()), Int(area.y.rounded())))
        SDL_RenderSetClipRect(renderer, nil)
    }
}
