import CFFmpeg
import CSDL
import LoopPlayerCore
import LoopPlayerMedia

/// An SDL renderer with an IYUV/NV12 streaming texture (a GPU converts and scales; SDL's software
/// renderer does it on the CPU when there is none), then the overlay planes as blended textures.
package final class TextureVideoOutput: WindowVideoOutput {
    private let renderer: OpaquePointer
    private let texture: YUVTexture
    private let planes: PlaneTextures
    /// The frame in the texture (an overlay-only redraw does not upload it again).
    private weak var uploaded: VideoFrame?
    /// The part of it uploaded (a panel's, or the whole picture).
    private var uploadedRegion: PictureRegion?
    package let name: String
    package let isHardware: Bool

    /// `allowSoftwareGL: false` refuses an OpenGL renderer running on Mesa's software rasteriser,
    /// which costs far more CPU than SDL's own software renderer. `tryAccelerated: false` goes
    /// straight to SDL's software renderer (probing OpenGL without a GPU loads Mesa: time and memory).
    package init(window: OpaquePointer, allowSoftwareGL: Bool, tryAccelerated: Bool = true) throws(PlayerError) {
        var chosen = tryAccelerated ? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue) : nil
        var hardware = chosen != nil
        if let accelerated = chosen, !allowSoftwareGL, Self.isSoftwareGL(accelerated) {
            SDL_DestroyRenderer(accelerated)
            chosen = nil
            hardware = false
        }
        if chosen == nil {
            chosen = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
            hardware = false
        }
        guard let chosen else {
            throw .renderFailed(reason: "no SDL renderer: \(String(cString: SDL_GetError()))")
        }
        renderer = chosen
        texture = YUVTexture(renderer: chosen)
        planes = PlaneTextures(renderer: chosen)
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(chosen, &info)
        name = "texture/\(info.name.map { String(cString: $0) } ?? "?")"
        isHardware = hardware && info.flags & SDL_RENDERER_ACCELERATED.rawValue != 0
    }

    deinit {
        // Textures belong to the renderer: they go first (stored properties are released only after
        // this body, too late).
        texture.destroy()
        planes.destroyAll()
        SDL_DestroyRenderer(renderer)
    }

    /// Draws everything as if the output were `size` pixels, scaled to fit the real one (letterboxed):
    /// a second, smaller view of a scene laid out for another window (picture-in-picture).
    package func setLogicalSize(_ size: PixelSize) {
        guard size != logicalSize, size.width > 0, size.height > 0 else { return }
        logicalSize = size
        SDL_RenderSetLogicalSize(renderer, Int32(size.width), Int32(size.height))
    }

    private var logicalSize: PixelSize?

    /// Draws only `part` of the area, scaled to fill the output (a wall's panel); nil: all of it.
    /// Only the visible pieces of the picture and the overlays are scaled (SDL's software renderer
    /// would scale each whole into a temporary surface first).
    package func showPart(_ part: Rect?) {
        guard let part, part.width > 0, part.height > 0 else { return partView = nil }
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        partView = PartView(part: part, window: PixelSize(width: Int(width), height: Int(height)))
    }

    private var partView: PartView?

    /// Draws what follows as `view` shows the area (nil: as it is).
    private func moveAndScale(to view: PartView?) {
        guard let view else {
            SDL_RenderSetViewport(renderer, nil)
            SDL_RenderSetScale(renderer, 1, 1)
            return
        }
        SDL_RenderSetScale(renderer, Float(view.scaleX), Float(view.scaleY))
        var viewport = SDL_Rect(x: Int32(-view.part.x.rounded()), y: Int32(-view.part.y.rounded()),
                                w: Int32(32_767), h: Int32(32_767))
        SDL_RenderSetViewport(renderer, &viewport)
    }

    package func drawableSize(window: OpaquePointer) -> PixelSize {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        return PixelSize(width: Int(width), height: Int(height))
    }

    package func draw(_ scene: Scene, layout: VideoLayout, window: OpaquePointer) {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        if let frame = scene.frame, let geometry = scene.geometry {
            ColorConversion(frame: frame).useForSDLTextures()
            if let view = partView, geometry.rotation == 0 {
                drawPiece(of: frame, in: view, layout: layout)
            } else {
                drawWhole(frame, turned: geometry, layout: layout)
            }
        }
        planes.draw(scene.planes, view: partView)
        SDL_RenderPresent(renderer)
    }

    /// A panel's piece: only the pixels it shows are uploaded (and converted, by SDL's software
    /// renderer), so a wall of four panels costs about one picture's conversion, not four.
    private func drawPiece(of frame: VideoFrame, in view: PartView, layout: VideoLayout) {
        guard let piece = view.map(destination: layout.destination, source: layout.source),
              let region = PictureRegion.covering(piece.source, pictureWidth: frame.geometry.width,
                                                  pictureHeight: frame.geometry.height) else { return }
        guard upload(frame, region), let picture = texture.texture else { return }
        var shifted = piece
        shifted.source.x -= Double(region.x)
        shifted.source.y -= Double(region.y)
        renderPiece(of: picture, shifted, on: renderer)
    }

    /// The whole picture, turned by the renderer (`geometry`: the stream's turn and the screen's):
    /// no CPU pass over the pixels for the turn.
    private func drawWhole(_ frame: VideoFrame, turned geometry: VideoGeometry, layout: VideoLayout) {
        let whole = PictureRegion(x: 0, y: 0, width: frame.geometry.width, height: frame.geometry.height)
        guard upload(frame, whole), let picture = texture.texture else { return }
        var source = layout.source.sdlRect
        var destination = layout.unrotatedDestination(for: geometry).sdlRect
        // A turned picture in a panel: SDL scales and moves the whole copy (rare; not clipped).
        if let view = partView { moveAndScale(to: view) }
        SDL_RenderCopyEx(renderer, picture, &source, &destination, Double(geometry.rotation), nil, SDL_FLIP_NONE)
        if partView != nil { moveAndScale(to: nil) }
    }

    /// Uploads `region` of `frame` unless it is in the texture already; whether it is there.
    private func upload(_ frame: VideoFrame, _ region: PictureRegion) -> Bool {
        if uploaded !== frame || uploadedRegion != region {
            let done = texture.upload(frame, region: region)
            (uploaded, uploadedRegion) = done ? (frame, region) : (nil, nil)
        }
        return uploaded != nil
    }

    /// OpenGL on llvmpipe/softpipe reports itself "accelerated"; ask GL who renders.
    private static func isSoftwareGL(_ renderer: OpaquePointer) -> Bool {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        guard let name = info.name.map({ String(cString: $0) }), name.hasPrefix("opengl") else { return false }
        typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
        guard let address = SDL_GL_GetProcAddress("glGetString") else { return true }
        let getString = unsafeBitCast(address, to: GetString.self)
        guard let text = getString(0x1F01) else { return true }  // GL_RENDERER
        let renderer = String(cString: text).lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software"].contains { renderer.contains($0) }
    }
}
