import CFFmpeg
import CSDL

/// A resizable SDL window showing the video. Main thread only.
final class SDLWindowRenderer: VideoRenderer {
    let window: OpaquePointer
    private var output: WindowVideoOutput
    private var current: VideoFrame?
    private var geometry: VideoGeometry
    var gravity: VideoGravity { didSet { redisplay() } }

    /// The output in use, for statistics and logs.
    var outputName: String { output.name }

    init(options: WindowOptions, title: String, geometry: VideoGeometry, gravity: VideoGravity,
         colorSpace: AVColorSpace, colorRange: AVColorRange) throws(PlayerError) {
        self.geometry = geometry
        self.gravity = gravity
        let (width, height) = Self.initialSize(options: options, geometry: geometry)
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if options.fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        guard let window = SDL_CreateWindow(title, 0, 0, Int32(width), Int32(height), flags) else {
            throw .displayUnavailable(reason: "cannot create a window: \(String(cString: SDL_GetError()))")
        }
        self.window = window
        Self.setConversionMode(colorSpace: colorSpace, colorRange: colorRange, height: geometry.height)
        do {
            output = try Self.makeOutput(kind: options.output, window: window, geometry: geometry)
        } catch {
            SDL_DestroyWindow(window)
            throw error
        }
        logger.debug("window \(width)x\(height), video output: \(output.name)")
    }

    deinit {
        output.release()
        SDL_DestroyWindow(window)
    }

    func display(_ frame: VideoFrame) {
        current = frame
        geometry = frame.geometry  // filters may crop or turn the picture
        draw()
    }

    func redisplay() { draw() }

    var pictureBounds: Rect? {
        var width: Int32 = 0, height: Int32 = 0
        output.drawableSize(window: window, width: &width, height: &height)
        return VideoLayout(geometry: geometry, gravity: gravity, areaWidth: Double(width), areaHeight: Double(height)).destination
    }

    func toggleFullscreen() {
        let fullscreen = SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
        SDL_SetWindowFullscreen(window, fullscreen ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
        redisplay()
    }

    private func draw() {
        var width: Int32 = 0, height: Int32 = 0
        output.drawableSize(window: window, width: &width, height: &height)
        let layout = VideoLayout(geometry: geometry, gravity: gravity, areaWidth: Double(width), areaHeight: Double(height))
        output.draw(current, layout: layout, geometry: geometry, window: window)
    }

    private static func makeOutput(kind: VideoOutputKind, window: OpaquePointer,
                                   geometry: VideoGeometry) throws(PlayerError) -> WindowVideoOutput {
        switch kind {
        case .texture:
            return try TextureVideoOutput(window: window, allowSoftwareGL: true)
        case .surface:
            if geometry.rotation == 0, let surface = SurfaceVideoOutput(window: window) { return surface }
            return try TextureVideoOutput(window: window, allowSoftwareGL: false)
        case .automatic:
            // A real GPU converts YUV for free; without one, swscale into the window surface costs less
            // CPU than SDL's software YUV path (docs/benchmarks.md). Rotation needs the renderer.
            // Probing OpenGL costs start-up time (and turns the window into a GL window), so only
            // when a GPU device exists.
            if SDLVideo.hasGPUDevice, let gpu = try? TextureVideoOutput(window: window, allowSoftwareGL: false),
               gpu.isHardware { return gpu }
            if geometry.rotation == 0, let surface = SurfaceVideoOutput(window: window) { return surface }
            return try TextureVideoOutput(window: window, allowSoftwareGL: false)
        }
    }

    /// The video's display size, shrunk (aspect kept) if it does not fit the screen.
    private static func initialSize(options: WindowOptions, geometry: VideoGeometry) -> (Int, Int) {
        if let size = options.size { return (max(1, size.width), max(1, size.height)) }
        var width = geometry.displaySize.width, height = geometry.displaySize.height
        var bounds = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &bounds) == 0, bounds.w > 0, bounds.h > 0 {
            let scale = min(1, Double(bounds.w) / width, Double(bounds.h) / height)
            width *= scale
            height *= scale
        }
        return (max(1, Int(width.rounded())), max(1, Int(height.rounded())))
    }

    /// SDL converts YUV with BT.601 unless told; pick the matrix and range of the stream (SDL 2.26 has
    /// no BT.2020 mode: BT.709 is the nearest).
    private static func setConversionMode(colorSpace: AVColorSpace, colorRange: AVColorRange, height: Int) {
        let conversion = ColorConversion(colorSpace: colorSpace, colorRange: colorRange, height: height)
        let mode = conversion.fullRange ? SDL_YUV_CONVERSION_JPEG
            : conversion.matrix == .bt601 ? SDL_YUV_CONVERSION_BT601 : SDL_YUV_CONVERSION_BT709
        SDL_SetYUVConversionMode(mode)
    }
}

/// One way of getting pictures into the window.
protocol WindowVideoOutput: AnyObject {
    var name: String { get }
    func drawableSize(window: OpaquePointer, width: inout Int32, height: inout Int32)
    func draw(_ frame: VideoFrame?, layout: VideoLayout, geometry: VideoGeometry, window: OpaquePointer)
    func release()
}

extension Rect {
    var sdlRect: SDL_Rect {
        SDL_Rect(x: Int32(x.rounded()), y: Int32(y.rounded()), w: Int32(width.rounded()), h: Int32(height.rounded()))
    }
}
