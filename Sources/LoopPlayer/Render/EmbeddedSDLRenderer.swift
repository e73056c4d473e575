import CFFmpeg
import CSDL

/// Draws into a host application's own SDL renderer, at a rectangle the host chooses.
/// The host calls `draw(in:)` from its loop and presents the renderer itself. Main thread only.
final class EmbeddedSDLRenderer: VideoRenderer {
    private let renderer: OpaquePointer
    private let geometry: VideoGeometry
    private var texture: OpaquePointer?
    private var textureKey: (format: UInt32, width: Int32, height: Int32) = (0, 0, 0)
    private(set) var current: VideoFrame?
    var gravity: VideoGravity = .default
    /// The rectangle of the last `draw(in:)`.
    private(set) var area: Rect?

    init(renderer: OpaquePointer, geometry: VideoGeometry) {
        self.renderer = renderer
        self.geometry = geometry
    }

    deinit { if let texture { SDL_DestroyTexture(texture) } }

    func display(_ frame: VideoFrame) {
        current = frame
        upload(frame)
    }

    func redisplay() {}

    var pictureBounds: Rect? {
        guard let area else { return nil }
        let layout = VideoLayout(geometry: geometry, gravity: gravity, areaWidth: area.width, areaHeight: area.height)
        return Rect(x: area.x + layout.destination.x, y: area.y + layout.destination.y,
                    width: layout.destination.width, height: layout.destination.height)
    }

    /// Copies the current picture into `area` of the host's renderer (letterboxing is the host's background).
    func draw(in area: Rect) {
        self.area = area
        guard let texture, current != nil else { return }
        let layout = VideoLayout(geometry: geometry, gravity: gravity, areaWidth: area.width, areaHeight: area.height)
        var destination = layout.unrotatedDestination(for: geometry)
        destination.x += area.x
        destination.y += area.y
        var source = layout.source.sdlRect
        var target = destination.sdlRect
        var clip = area.sdlRect
        SDL_RenderSetClipRect(renderer, &clip)
        SDL_RenderCopyEx(renderer, texture, &source, &target, Double(geometry.rotation), nil, SDL_FLIP_NONE)
        SDL_RenderSetClipRect(renderer, nil)
    }

    private func upload(_ frame: VideoFrame) {
        let picture = frame.pointer.pointee
        let nv12 = frame.pixelFormat == AV_PIX_FMT_NV12
        let format = nv12 ? SDL_PIXELFORMAT_NV12.rawValue : SDL_PIXELFORMAT_IYUV.rawValue
        if texture == nil || textureKey != (format, picture.width, picture.height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), picture.width, picture.height)
            textureKey = (format, picture.width, picture.height)
        }
        guard let texture else { return }
        if nv12 {
            SDL_UpdateNVTexture(texture, nil, picture.data.0, picture.linesize.0, picture.data.1, picture.linesize.1)
        } else {
            SDL_UpdateYUVTexture(texture, nil, picture.data.0, picture.linesize.0, picture.data.1, picture.linesize.1,
                                 picture.data.2, picture.linesize.2)
        }
    }
}
