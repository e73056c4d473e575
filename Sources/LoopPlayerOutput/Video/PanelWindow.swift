import CSDL
import LoopPlayerCore

/// One panel of a wall fed by one decoder: a borderless window showing its part of the scenes the
/// player lays out for its (hidden) window — the picture and the overlays alike, so text or a logo
/// across two panels lines up. It draws from the same scene: nothing is decoded or rasterised
/// twice, and only its part of the picture is converted. Its events go to its player's inbox.
/// Main thread only.
package final class PanelWindow {
    /// How the panel draws: swscale straight into its surface when it shows its part at the part's
    /// own size without a GPU (as a window does: the cheapest on the CPU), else SDL's renderer
    /// (a GPU, a panel scaled to another size, a turned picture).
    private enum Output {
        case surface(SurfaceVideoOutput)
        case texture(TextureVideoOutput)
    }

    package let id: UInt32
    private let window: OpaquePointer
    private let panel: WindowPanel
    /// The renderer goes before the window.
    private var video: Output?

    /// Opens the window where `panel` says on `display` (its bounds' top-left corner is 0,0).
    package init(panel: WindowPanel, display: SDL_Rect, title: String, inbox: UInt32,
                 kind: VideoOutputKind = .automatic) throws(PlayerError) {
        let place = panel.placement
        let flags = SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard let window = SDL_CreateWindow(title, Int32(clamping: Int(display.x) + Int(place.x)),
                                            Int32(clamping: Int(display.y) + Int(place.y)),
                                            Int32(clamping: max(1, Int(place.width))), Int32(clamping: max(1, Int(place.height))),
                                            flags) else {
            throw .displayUnavailable(reason: "cannot create a panel window: \(String(cString: SDL_GetError()))")
        }
        self.window = window
        self.panel = panel
        id = SDL_GetWindowID(window)
        let unscaled = abs(place.width - panel.part.width) < 0.5 && abs(place.height - panel.part.height) < 0.5
        let surfaceFits = unscaled && (kind == .surface || (kind == .automatic && !SDLVideo.hasGPUDevice))
        if surfaceFits, let surface = SurfaceVideoOutput(window: window) {
            video = .surface(surface)
        } else {
            do {
                video = .texture(try Self.renderer(for: window))
            } catch {
                throw error  // every stored property is set: `deinit` destroys the window
            }
        }
        SDLEventRouter.shared.attach(window: id, to: inbox)
    }

    deinit {
        SDLEventRouter.shared.detach(window: id)
        video = nil
        SDL_DestroyWindow(window)
    }

    private static func renderer(for window: OpaquePointer) throws(PlayerError) -> TextureVideoOutput {
        try TextureVideoOutput(window: window, allowSoftwareGL: false, tryAccelerated: SDLVideo.hasGPUDevice)
    }

    /// A turned picture needs the renderer: the surface path cannot turn it.
    package func prepare(for rotation: Int) {
        guard rotation != 0, case .surface = video, let turned = try? Self.renderer(for: window) else { return }
        video = .texture(turned)
    }

    /// Draws this panel's part of `scene`, laid out by `layout` in an area of `area` pixels.
    package func present(_ scene: Scene, layout: VideoLayout, area: PixelSize) {
        // The part is of the picture as shown: turned by the stream's and the screen's rotation.
        let geometry = scene.geometry
        if let geometry { prepare(for: geometry.rotation) }
        let shown = geometry?.displaySize ?? (Double(area.width), Double(area.height))
        let part = Self.areaPart(of: panel.part, pictureSize: shown, placedAt: layout.destination)
        switch video {
        case let .surface(output):
            output.showPart(part, window: window)
            output.draw(scene, layout: layout, window: window)
        case let .texture(output):
            output.showPart(part)
            output.draw(scene, layout: layout, window: window)
        case nil:
            break
        }
    }

    /// `part` of a picture of `pictureSize` (its pixels as shown) in the area where the layout put
    /// the whole picture (`destination`).
    package static func areaPart(of part: Rect, pictureSize: (width: Double, height: Double), placedAt destination: Rect) -> Rect {
        guard pictureSize.width > 0, pictureSize.height > 0 else { return part }
        let sx = destination.width / pictureSize.width, sy = destination.height / pictureSize.height
        return Rect(x: destination.x + part.x * sx, y: destination.y + part.y * sy, width: part.width * sx, height: part.height * sy)
    }
}
