import CFFmpeg
import CSDL
import LoopPlayerCore
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
        return upload(frame, region: PictureRegion(x: 0, y: 0, width: Int(picture.width), height: Int(picture.height)))
    }

    /// Copies `region` of the frame's planes (its corner on even pixels: 4:2:0 chroma) into a
    /// texture of the region's size: a wall's panel converts its part alone, not the whole picture
    /// (SDL's software renderer converts to RGB at upload, every pixel uploaded).
    package func upload(_ frame: VideoFrame, region: PictureRegion) -> Bool {
        let picture = frame.pointer.pointee
        let nv12 = frame.pixelFormat == AV_PIX_FMT_NV12
        let format = nv12 ? SDL_PIXELFORMAT_NV12.rawValue : SDL_PIXELFORMAT_IYUV.rawValue
        let width = Int32(region.width), height = Int32(region.height)
        guard width > 0, height > 0, region.x % 2 == 0, region.y % 2 == 0, region.x + region.width <= Int(picture.width),
              region.y + region.height <= Int(picture.height),
              let lumaStart = picture.data.0, let chromaStart = picture.data.1 else { return false }
        if texture == nil || key != (format, width, height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), width, height)
            key = (format, width, height)
        }
        guard let texture else { return false }
        let luma = lumaStart + region.y * Int(picture.linesize.0) + region.x
        let chromaRow = region.y / 2, chromaColumn = region.x / 2
        if nv12 {
            let chroma = chromaStart + chromaRow * Int(picture.linesize.1) + chromaColumn * 2
            return SDL_UpdateNVTexture(texture, nil, luma, picture.linesize.0, chroma, picture.linesize.1) == 0
        }
        guard let crStart = picture.data.2 else { return false }
        let cb = chromaStart + chromaRow * Int(picture.linesize.1) + chromaColumn
        let cr = crStart + chromaRow * Int(picture.linesize.2) + chromaColumn
        return SDL_UpdateYUVTexture(texture, nil, luma, picture.linesize.0, cb, picture.linesize.1, cr, picture.linesize.2) == 0
    }
}

/// A rectangle of a picture's pixels, whole numbers (what is uploaded of it).
package struct PictureRegion: Equatable, Sendable {
    package var x, y, width, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The even-cornered region of a `pictureWidth`×`pictureHeight` picture that holds `part` (in
    /// its pixels) with `margin` pixels around it (a scaling filter reads its neighbours).
    package static func covering(_ part: Rect, pictureWidth: Int, pictureHeight: Int, margin: Int = 2) -> PictureRegion? {
        guard part.width > 0, part.height > 0, pictureWidth > 0, pictureHeight > 0,
              part.x.isFinite, part.y.isFinite, part.width.isFinite, part.height.isFinite else { return nil }
        let left = max(0, Int((part.x).rounded(.down)) - margin) & ~1
        let top = max(0, Int((part.y).rounded(.down)) - margin) & ~1
        let right = min(pictureWidth, Int((part.x + part.width).rounded(.up)) + margin)
        let bottom = min(pictureHeight, Int((part.y + part.height).rounded(.up)) + margin)
        guard right > left, bottom > top else { return nil }
        return PictureRegion(x: left, y: top, width: right - left, height: bottom - top)
    }
}
