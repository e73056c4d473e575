import CFFmpeg
import CSDL
import LoopPlayerMedia

/// A streaming IYUV/NV12 texture on an SDL renderer, remade when the frame's format or size
/// changes. The GPU (or SDL's software renderer) converts it to RGB when drawn.
package final class YUVTexture {
    private let renderer: OpaquePointer
    package private(set) var texture: OpaquePointer?
    private var key: (format: UInt32, width: Int32, height: Int32) = (0, 0, 0)

    package init(renderer: OpaquePointer) { self.renderer = renderer }

    deinit { destroy() }

    /// Destroys the texture now (before its renderer is destroyed: a renderer frees its textures).
    package func destroy() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
        key = (0, 0, 0)
    }

    /// Copies the frame's planes into the texture. False if SDL refused.
    package func upload(_ frame: VideoFrame) -> Bool {
        let picture = frame.pointer.pointee
        let nv12 = frame.pixelFormat == AV_PIX_FMT_NV12
        let format = nv12 ? SDL_PIXELFORMAT_NV12.rawValue : SDL_PIXELFORMAT_IYUV.rawValue
        if texture == nil || key != (format, picture.width, picture.height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), picture.width, picture.height)
            key = (format, picture.width, picture.height)
        }
        guard let texture else { return false }
        if nv12 {
            return SDL_UpdateNVTexture(texture, nil, picture.data.0, picture.linesize.0, picture.data.1, picture.linesize.1) == 0
        }
        return SDL_UpdateYUVTexture(texture, nil, picture.data.0, picture.linesize.0, picture.data.1, picture.linesize.1,
                                    picture.data.2, picture.linesize.2) == 0
    }
}
