import CFFmpeg
import CSDL

/// SDL renderer + streaming YUV texture: the GPU converts and scales (SDL's software renderer
/// does it on the CPU when there is no GPU).
final class TextureVideoOutput: WindowVideoOutput {
    private var renderer: OpaquePointer?
    private var texture: YUVTexture?
    let name: String
    let isHardware: Bool

    /// `allowSoftwareGL: false` refuses an OpenGL renderer running on Mesa's software rasteriser,
    /// which costs far more CPU than SDL's own software renderer.
    init(window: OpaquePointer, allowSoftwareGL: Bool) throws(PlayerError) {
        var chosen = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
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
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(chosen, &info)
        name = "texture/\(info.name.map { String(cString: $0) } ?? "?")"
        isHardware = hardware && info.flags & SDL_RENDERER_ACCELERATED.rawValue != 0
    }

    func release() {
        texture = nil  // before its renderer
        if let renderer { SDL_DestroyRenderer(renderer) }
        texture = nil
        renderer = nil
    }

    func drawableSize(window: OpaquePointer, width: inout Int32, height: inout Int32) {
        SDL_GetRendererOutputSize(renderer, &width, &height)
    }

    func draw(_ frame: VideoFrame?, layout: VideoLayout, geometry: VideoGeometry, window: OpaquePointer) {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        if let frame, let texture, texture.upload(frame) {
            var source = layout.source.sdlRect
            var destination = layout.unrotatedDestination(for: geometry).sdlRect
            SDL_RenderCopyEx(renderer, texture.texture, &source, &destination, Double(geometry.rotation), nil, SDL_FLIP_NONE)
        }
        SDL_RenderPresent(renderer)
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
