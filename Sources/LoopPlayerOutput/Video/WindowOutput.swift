import CFFmpeg
import CSDL
import LoopPlayerCore
import LoopPlayerMedia

/// The player's own resizable SDL window. It opens when the player starts running — before the
/// source is opened, so a source that fails has a window to say so in — and stays open across
/// sources, failures and retries. Main thread only.
package final class WindowOutput: PlayerOutput {
    package let window: OpaquePointer
    private let windowWaiter: SDLWindowWaiter
    package var waiter: MainLoopWaiter { windowWaiter }
    /// This player's inbox in `SDLEventRouter` (a loop for several players waits on all of theirs).
    package var inbox: UInt32 { windowWaiter.inbox }
    private let options: WindowOptions
    private var video: WindowVideoOutput
    /// The size the player last gave the window; a different size comes from the user (or the window
    /// manager), and is then kept for later sources.
    private var sizeSet: PixelSize?
    private var userSized: Bool
    /// The window's real size, read from the window system whenever SDL says it changed. SDL's own
    /// idea (and its size-changed event) jumps to the screen's size as soon as fullscreen is asked
    /// for, even where nothing honours the request (no window manager): the layout follows the window.
    private var realSize: PixelSize
    private var lastScene: Scene?
    /// The mini window showing the same scenes, while open.
    package private(set) var pictureInPicture: PictureInPictureWindow?
    /// A wall's panels (`WindowOptions.panels`): they show the scenes; the main window stays hidden.
    private var panels: [PanelWindow] = []

    /// The output in use, for statistics and logs.
    private var outputName: String { video.name }

    package init(options: WindowOptions) throws(PlayerError) {
        try SDLVideo.start()
        self.options = options
        let initial = options.size.map { PixelSize(width: $0.width, height: $0.height) } ?? PixelSize(width: 640, height: 360)
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if options.fullscreen && options.panels.isEmpty { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        if options.borderless { flags |= SDL_WINDOW_BORDERLESS.rawValue }
        // With panels the window only lays the scenes out: never shown.
        if !options.panels.isEmpty { flags |= SDL_WINDOW_HIDDEN.rawValue }
        let display = Self.displayBounds(options.fullscreen ? options.fullscreenScreen ?? options.screen : options.screen)
        let position = (Int(display.x) + (options.position?.x ?? 0), Int(display.y) + (options.position?.y ?? 0))
        guard let window = SDL_CreateWindow(options.title ?? "", Int32(clamping: position.0), Int32(clamping: position.1),
                                            Int32(clamping: max(1, initial.width)),
                                            Int32(max(1, initial.height)), flags) else {
            throw .displayUnavailable(reason: "cannot create a window: \(String(cString: SDL_GetError()))")
        }
        self.window = window
        if options.fullscreen { Self.warnIfNothingMakesFullscreen(window) }
        sizeSet = initial
        realSize = Self.realSize(of: window)
        userSized = options.size != nil || options.fullscreen
        windowWaiter = SDLWindowWaiter(window: SDL_GetWindowID(window), wakeType: SDLVideo.registerWakeEvent())
        do {
            video = try Self.makeVideoOutput(kind: options.output, window: window)
        } catch {
            SDL_DestroyWindow(window)
            throw error
        }
        logger.debug("window \(initial), video output: \(video.name)")
        if !options.panels.isEmpty { try openPanels(on: display) }
        present(Scene(frame: nil, gravity: .default))
    }

    deinit { close() }

    private var closed = false
    private var areaWhenClosed: PixelSize?

    package func close() {
        guard !closed else { return }
        areaWhenClosed = area  // a snapshot after the run is the window's last picture, at its size
        closed = true
        pictureInPicture = nil
        panels = []
        video = ClosedVideoOutput()  // the renderer goes before the window
        SDL_DestroyWindow(window)
        windowWaiter.close()
    }

    /// The drawable area: the window's real size in drawable pixels (more than the window's on a
    /// high-DPI display).
    package var area: PixelSize? {
        if closed { return areaWhenClosed }
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetWindowSize(window, &width, &height)
        let drawable = video.drawableSize(window: window)
        guard width > 0, height > 0 else { return drawable }
        return PixelSize(width: min(drawable.width, realSize.width * drawable.width / Int(width)),
                         height: min(drawable.height, realSize.height * drawable.height / Int(height)))
    }

    /// The bounds of display `screen` (nil: the first). One that is not there is said in the log,
    /// and the first is used: a wall's panel on the wrong display is better than none.
    private static func displayBounds(_ screen: Int?) -> SDL_Rect {
        var bounds = SDL_Rect()
        let count = Int(SDL_GetNumVideoDisplays())
        var index = screen ?? 0
        if screen != nil, index < 0 || index >= count {
            logger.warning("screen \(index) was asked for, but there \(count == 1 ? "is 1 display" : "are \(count) displays") (0…\(max(0, count - 1))): the window opens on screen 0")
            index = 0
        }
        if SDL_GetDisplayBounds(Int32(index), &bounds) != 0 { bounds = SDL_Rect() }
        return bounds
    }

    /// The window's area once the user (or fullscreen) sized it; a window that takes each source's
    /// size would otherwise hold the first variant's: its screen's size limits the variants then.
    package var variantLimit: PixelSize? {
        if userSized { return area }
        var bounds = SDL_Rect()
        let display = SDL_GetWindowDisplayIndex(window)
        guard display >= 0, SDL_GetDisplayBounds(display, &bounds) == 0, bounds.w > 0, bounds.h > 0 else { return area }
        return PixelSize(width: Int(bounds.w), height: Int(bounds.h))
    }

    package func windowResized(to size: PixelSize) {
        realSize = Self.realSize(of: window)
        if let sizeSet, realSize != sizeSet { userSized = true }
    }

    /// The X server's size of the window; SDL's where there is no X11 (Wayland).
    private static func realSize(of window: OpaquePointer) -> PixelSize {
        var width: Int32 = 0, height: Int32 = 0
        if shim_x11_window_size(window, &width, &height) == 0 { SDL_GetWindowSize(window, &width, &height) }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Output pixels per point: the display's DPI over 96 (1 where the display reports nothing usable).
    package var scale: Double {
        var diagonal: Float = 0, horizontal: Float = 0, vertical: Float = 0
        let display = SDL_GetWindowDisplayIndex(window)
        guard SDL_GetDisplayDPI(max(0, display), &diagonal, &horizontal, &vertical) == 0, horizontal > 0 else { return 1 }
        return (Double(horizontal) / 96).clamped(to: 1...4)
    }

    package func present(_ scene: Scene) {
        guard !closed else { return }
        lastScene = scene
        guard let size = area else { return }
        let geometry = scene.geometry ?? VideoGeometry(width: size.width, height: size.height)
        let layout = VideoLayout(geometry: geometry, gravity: scene.gravity, areaWidth: Double(size.width),
                                 areaHeight: Double(size.height))
        if !mainHidden { video.draw(scene, layout: layout, window: window) }  // nobody sees a hidden one
        pictureInPicture?.present(scene, layout: layout, area: size)
        for panel in panels { panel.present(scene, layout: layout, area: size) }
    }

    /// Opens a window for each panel on `display`; the main window hides (it still lays the scenes out).
    private func openPanels(on display: SDL_Rect) throws(PlayerError) {
        let title = options.title ?? "loopplay"
        // A panel that cannot open fails the whole output: `deinit` closes what was opened.
        for (index, panel) in options.panels.enumerated() {
            panels.append(try PanelWindow(panel: panel, display: display, title: "\(title) (panel \(index + 1))", inbox: inbox,
                                          kind: options.output))
        }
        windowWaiter.panels = Set(panels.map(\.id))
        mainHidden = true
    }

    package func openPictureInPicture(_ placement: MiniWindowPlacement) throws(PlayerError) {
        guard !closed, pictureInPicture == nil else { return }
        let size = area ?? PixelSize(width: 16, height: 9)
        pictureInPicture = try PictureInPictureWindow(placement: placement, mainWindow: window, area: size, inbox: inbox)
        if placement.hidesMainWindow {
            SDL_HideWindow(window)
            mainHidden = true
        }
        logger.debug("picture-in-picture window \(placement.width)x\(placement.height.map(String.init) ?? "auto")")
    }

    package func closePictureInPicture() -> Bool {
        guard pictureInPicture != nil else { return false }
        pictureInPicture = nil
        if mainHidden && panels.isEmpty {
            SDL_ShowWindow(window)
            mainHidden = false
        }
        return true
    }

    /// The main window is hidden while the mini window shows (`MiniWindowPlacement.hidesMainWindow`).
    private var mainHidden = false

    package var showsPictureInPicture: Bool { pictureInPicture != nil }

    package func prepare(for info: VideoStreamInfo, title: String) {
        guard !closed else { return }
        if options.title == nil { SDL_SetWindowTitle(window, options.titleForSource(title)) }
        preparedGeometry = info.geometry
        sizeForPicture()
    }

    /// The stream the window was last prepared for (its size follows it, turned by the screen's turn).
    private var preparedGeometry: VideoGeometry?
    /// The screen's turn (`Scene.videoRotation`) the window was sized for.
    private var sizedForRotation = 0

    /// A window the player sized takes the turned picture's shape (with panels: the hidden area).
    package func screenTurned(to degrees: Int) {
        guard !closed, degrees != sizedForRotation else { return }
        sizedForRotation = degrees
        sizeForPicture()
    }

    /// Sizes the window (or, with panels, its hidden area) for the prepared stream, turned. Either
    /// way of drawing turns the picture: the renderer as it copies it (`SDL_RenderCopyEx`), the
    /// window surface after swscale (`QuarterTurn`: cheaper without a GPU, docs/benchmarks.md).
    private func sizeForPicture() {
        guard let prepared = preparedGeometry else { return }
        let geometry = prepared.turned(clockwise: sizedForRotation)
        panels.forEach { $0.prepare(for: geometry.rotation) }
        // With panels the (hidden) window's area is the picture's own size: the panels' parts are
        // in its pixels, and the overlays are drawn at its resolution.
        let size = panels.isEmpty ? Self.fittedSize(for: geometry) : Self.exactSize(of: geometry)
        guard !userSized || !panels.isEmpty else { return }
        if size != sizeSet {
            sizeSet = size
            SDL_SetWindowSize(window, Int32(size.width), Int32(size.height))
            realSize = Self.realSize(of: window)
        }
    }

    /// On X11 a window manager makes a window fill the screen: without one the request does
    /// nothing, which is said (once per request) instead of staying silent.
    private static func warnIfNothingMakesFullscreen(_ window: OpaquePointer) {
        guard shim_x11_window_manager_keeps_above(window, nil, 0) == 0 else { return }
        logger.warning("fullscreen was asked for, but no window manager is running to make the window fill the screen")
    }

    package func toggleFullscreen() {
        guard panels.isEmpty else { return }  // the panels are where the wall's monitors are
        let fullscreen = SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
        if !fullscreen {
            Self.warnIfNothingMakesFullscreen(window)
            // Fullscreen fills the display the window is on: moved to `--fs-screen`'s first.
            if let screen = options.fullscreenScreen {
                let display = Self.displayBounds(screen)
                SDL_SetWindowPosition(window, display.x, display.y)
            }
        }
        SDL_SetWindowFullscreen(window, fullscreen ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
        userSized = true
        realSize = Self.realSize(of: window)
        // The layout follows the size SDL reports once the window really changed (a size-changed
        // event), not the request: without a window manager nothing may change at all.
    }


    private static func makeVideoOutput(kind: VideoOutputKind, window: OpaquePointer) throws(PlayerError) -> WindowVideoOutput {
        switch kind {
        case .texture:
            return try TextureVideoOutput(window: window, allowSoftwareGL: true)
        case .surface:
            if let surface = SurfaceVideoOutput(window: window) { return surface }
            return try TextureVideoOutput(window: window, allowSoftwareGL: false)
        case .automatic:
            // A real GPU converts YUV for free; without one, swscale into the window surface costs less
            // CPU than SDL's software YUV path (docs/benchmarks.md), turned pictures too.
            // Probing OpenGL costs start-up time (and turns the window into a GL window), so only
            // when a GPU device exists.
            if SDLVideo.hasGPUDevice, let gpu = try? TextureVideoOutput(window: window, allowSoftwareGL: false),
               gpu.isHardware { return gpu }
            if let surface = SurfaceVideoOutput(window: window) { return surface }
            return try TextureVideoOutput(window: window, allowSoftwareGL: false)
        }
    }

    /// The video's display size, shrunk (aspect kept) if it does not fit the screen.
    private static func exactSize(of geometry: VideoGeometry) -> PixelSize {
        PixelSize(width: max(1, Int(geometry.displaySize.width.rounded())), height: max(1, Int(geometry.displaySize.height.rounded())))
    }

    private static func fittedSize(for geometry: VideoGeometry) -> PixelSize {
        var width = geometry.displaySize.width, height = geometry.displaySize.height
        var bounds = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &bounds) == 0, bounds.w > 0, bounds.h > 0 {
            let scale = min(1, Double(bounds.w) / width, Double(bounds.h) / height)
            width *= scale
            height *= scale
        }
        return PixelSize(width: max(1, Int(width.rounded())), height: max(1, Int(height.rounded())))
    }
}

/// One way of getting pictures into the window.
package protocol WindowVideoOutput: AnyObject {
    var name: String { get }
    func drawableSize(window: OpaquePointer) -> PixelSize
    func draw(_ scene: Scene, layout: VideoLayout, window: OpaquePointer)
}

/// What a closed window draws with: nothing.
private final class ClosedVideoOutput: WindowVideoOutput {
    let name = "closed"
    func drawableSize(window: OpaquePointer) -> PixelSize { PixelSize(width: 0, height: 0) }
    func draw(_ scene: Scene, layout: VideoLayout, window: OpaquePointer) {}
}

extension Rect {
    package var sdlRect: SDL_Rect {
        SDL_Rect(x: Int32(x.rounded()), y: Int32(y.rounded()), w: Int32(width.rounded()), h: Int32(height.rounded()))
    }
}
