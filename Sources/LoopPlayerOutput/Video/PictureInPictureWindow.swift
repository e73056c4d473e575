import CSDL
import LoopPlayerCore

/// The mini player: a small borderless window that stays above the others and shows the scenes of
/// its player's window scaled down — the video and the overlays, drawn by its own renderer from the
/// same scene, so nothing is decoded or rasterised twice. It can be dragged by any point. Its events
/// go to its player's inbox. Main thread only.
package final class PictureInPictureWindow {
    package let window: OpaquePointer
    package let id: UInt32
    /// The renderer goes before the window (nil once closed).
    private var video: TextureVideoOutput?

    /// Opens the window at `placement` (its height follows `area`'s shape unless given) on the
    /// display of `mainWindow`, titled after it.
    package init(placement: MiniWindowPlacement, mainWindow: OpaquePointer, area: PixelSize, inbox: UInt32) throws(PlayerError) {
        if let reason = Self.cannotKeepAbove(mainWindow) { throw .notSupportedPiP(reason: reason) }
        let width = placement.width
        let height = placement.height ?? max(MiniWindowPlacement.validSide.lowerBound,
                                             area.width > 0 ? width * area.height / area.width : width * 9 / 16)
        var usable = SDL_Rect()
        if SDL_GetDisplayUsableBounds(max(0, SDL_GetWindowDisplayIndex(mainWindow)), &usable) != 0 {
            usable = SDL_Rect(x: 0, y: 0, w: Int32(width + 32), h: Int32(height + 32))
        }
        let x = placement.x ?? Int(usable.x + usable.w) - width - 16
        let y = placement.y ?? Int(usable.y + usable.h) - height - 16
        let title = String(cString: SDL_GetWindowTitle(mainWindow)) + " (picture in picture)"
        let flags = SDL_WINDOW_ALWAYS_ON_TOP.rawValue | SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue
            | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard let window = SDL_CreateWindow(title, Int32(clamping: x), Int32(clamping: y), Int32(width), Int32(height), flags) else {
            throw .notSupportedPiP(reason: "the window system refused the mini window: \(String(cString: SDL_GetError()))")
        }
        self.window = window
        id = SDL_GetWindowID(window)
        do {
            // As for the main window: OpenGL only where a GPU exists (Mesa's software GL costs more
            // than SDL's software renderer, and loading it stalls the player's thread).
            video = try TextureVideoOutput(window: window, allowSoftwareGL: false, tryAccelerated: SDLVideo.hasGPUDevice)
        } catch {
            // Every stored property is set: `deinit` runs and destroys the window.
            throw .notSupportedPiP(reason: "\(error)")
        }
        // The whole window is a handle: a window manager moves it where the user drags it.
        if SDL_SetWindowHitTest(window, { _, _, _ in SDL_HITTEST_DRAGGABLE }, nil) != 0 {
            logger.debug("the picture-in-picture window cannot be dragged: \(String(cString: SDL_GetError()))")
        }
        SDLEventRouter.shared.attach(window: id, to: inbox)
    }

    /// Why the window system cannot keep a mini window above the others (nil: it can). On X11 only a
    /// window manager does that (EWMH `_NET_WM_STATE_ABOVE`); Wayland's SDL 2 and the console
    /// drivers cannot at all.
    private static func cannotKeepAbove(_ window: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 128)
        let support = shim_x11_window_manager_keeps_above(window, &name, Int32(name.count))
        let manager = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch support {
        case 2: return nil
        case 1: return "the window manager\(manager.isEmpty ? "" : " " + manager) cannot keep a window above the others"
        case 0: return "no window manager is running to keep the mini window above the others"
        default:
            let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
            return "SDL's \(driver) video driver cannot keep a window above the others"
        }
    }

    deinit {
        SDLEventRouter.shared.detach(window: id)
        video = nil
        SDL_DestroyWindow(window)
    }

    /// Draws `scene` as the main window lays it out in `area`, scaled to fit this window.
    package func present(_ scene: Scene, layout: VideoLayout, area: PixelSize) {
        guard let video else { return }
        video.setLogicalSize(area)
        video.draw(scene, layout: layout, window: window)
    }
}
