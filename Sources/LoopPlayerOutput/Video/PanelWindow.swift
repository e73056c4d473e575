import CSDL
import LoopPlayerCore

/// One panel of a wall fed by one decoder: a borderless window showing its part of the scenes the
/// player lays out for its (hidden) window — the picture and the overlays alike, so text or a logo
/// across two panels lines up. Its own renderer draws from the same scene: nothing is decoded or
/// rasterised twice. Its events go to its player's inbox. Main thread only.
package final class PanelWindow {
    package let id: UInt32
    private let window: OpaquePointer
    private let panel: WindowPanel
    /// The renderer goes before the window.
    private var video: TextureVideoOutput?

    /// Opens the window where `panel` says on `display` (its bounds' top-left corner is 0,0).
    package init(panel: WindowPanel, display: SDL_Rect, title: String, inbox: UInt32) throws(PlayerError) {
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
        do {
            video = try TextureVideoOutput(window: window, allowSoftwareGL: false, tryAccelerated: SDLVideo.hasGPUDevice)
        } catch {
            throw error  // every stored property is set: `deinit` destroys the window
        }
        SDLEventRouter.shared.attach(window: id, to: inbox)
    }

    deinit {
        SDLEventRouter.shared.detach(window: id)
        video = nil
        SDL_DestroyWindow(window)
    }

    /// Draws this panel's part of `scene`, laid out by `layout` in an area of `area` pixels.
    package func present(_ scene: Scene, layout: VideoLayout, area: PixelSize) {
        guard let video else { return }
        let shown = scene.frame?.geometry.displaySize ?? (Double(area.width), Double(area.height))
        video.showPart(Self.areaPart(of: panel.part, pictureSize: shown, placedAt: layout.destination))
        video.draw(scene, layout: layout, window: window)
    }

    /// `part` of a picture of `pictureSize` (its pixels as shown) in the area where the layout put
    /// the whole picture (`destination`).
    package static func areaPart(of part: Rect, pictureSize: (width: Double, height: Double), placedAt destination: Rect) -> Rect {
        guard pictureSize.width > 0, pictureSize.height > 0 else { return part }
        let sx = destination.width / pictureSize.width, sy = destination.height / pictureSize.height
        return Rect(x: destination.x + part.x * sx, y: destination.y + part.y * sy, width: part.width * sx, height: part.height * sy)
    }
}
