import CSDL

/// Draws into a host application's own SDL renderer, at a rectangle the host chooses.
/// The host calls `draw(in:)` from its loop and presents the renderer itself. Main thread only.
final class EmbeddedSDLRenderer: VideoRenderer {
    private let renderer: OpaquePointer
    private var geometry: VideoGeometry
    private let texture: YUVTexture
    private var uploaded = false
    var gravity: VideoGravity = .default
    /// The rectangle of the last `draw(in:)`.
    private(set) var area: Rect?

    init(renderer: OpaquePointer, geometry: VideoGeometry) {
        self.renderer = renderer
        self.geometry = geometry
        texture = YUVTexture(renderer: renderer)
    }

    func display(_ frame: VideoFrame) {
        geometry = frame.geometry
        uploaded = texture.upload(frame)
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
        guard uploaded, let picture = texture.texture else { return }
        let layout = VideoLayout(geometry: geometry, gravity: gravity, areaWidth: area.width, areaHeight: area.height)
        var destination = layout.unrotatedDestination(for: geometry)
        destination.x += area.x
        destination.y += area.y
        var source = layout.source.sdlRect
        var target = destination.sdlRect
        var clip = area.sdlRect
        SDL_RenderSetClipRect(renderer, &clip)
        SDL_RenderCopyEx(renderer, picture, &source, &target, Double(geometry.rotation), nil, SDL_FLIP_NONE)
        SDL_RenderSetClipRect(renderer, nil)
    }
}
