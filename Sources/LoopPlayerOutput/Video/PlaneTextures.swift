import CSDL
import LoopPlayerCore
import LoopPlayerMedia
import Overlay

/// Overlay planes as SDL textures on one renderer. A plane's pixels are uploaded only when its
/// revision changes; the texture is reused otherwise (and remade only when its size changes).
/// SDL2's blend mode expects straight alpha, so planes are un-premultiplied once, at upload.
package final class PlaneTextures {
    private struct Uploaded {
        var texture: OpaquePointer
        var revision: Int
        var width: Int
        var height: Int
    }

    private let renderer: OpaquePointer
    private var uploaded: [OverlayPlane.Layer: Uploaded] = [:]
    /// Uploads so far (tests and statistics: a static plane is uploaded once).
    private var uploadCount = 0

    package init(renderer: OpaquePointer) { self.renderer = renderer }

    deinit { destroyAll() }

    /// Destroys every texture now (before the renderer is destroyed: a renderer frees its textures).
    package func destroyAll() {
        uploaded.values.forEach { SDL_DestroyTexture($0.texture) }
        uploaded.removeAll()
    }

    /// Draws `planes` in order, each at its place in the player area, shifted by `origin`.
    /// `view`: only a part of the area shows, scaled to the output (a wall's panel): each plane's
    /// visible piece alone is drawn.
    package func draw(_ planes: [OverlayPlane], origin: (x: Int, y: Int) = (0, 0), view: PartView? = nil) {
        let present = Set(planes.map(\.layer))
        for (layer, gone) in uploaded where !present.contains(layer) {
            SDL_DestroyTexture(gone.texture)
            uploaded[layer] = nil
        }
        for plane in planes where !plane.image.isEmpty {
            guard let texture = texture(for: plane) else { continue }
            if let view {
                let whole = Rect(x: Double(plane.image.x + origin.x), y: Double(plane.image.y + origin.y),
                                 width: Double(plane.image.width), height: Double(plane.image.height))
                let pixels = Rect(x: 0, y: 0, width: Double(plane.image.width), height: Double(plane.image.height))
                if let piece = view.map(destination: whole, source: pixels) { renderPiece(of: texture, piece, on: renderer) }
                continue
            }
            var target = SDL_Rect(x: Int32(plane.image.x + origin.x), y: Int32(plane.image.y + origin.y),
                                  w: Int32(plane.image.width), h: Int32(plane.image.height))
            SDL_RenderCopy(renderer, texture, nil, &target)
        }
    }

    private func texture(for plane: OverlayPlane) -> OpaquePointer? {
        let image = plane.image
        if let current = uploaded[plane.layer], current.revision == plane.revision { return current.texture }
        var entry = uploaded[plane.layer]
        if let existing = entry, existing.width != image.width || existing.height != image.height {
            SDL_DestroyTexture(existing.texture)
            entry = nil
        }
        if entry == nil {
            guard let made = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                               Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                                               Int32(image.width), Int32(image.height)) else { return nil }
            SDL_SetTextureBlendMode(made, SDL_BLENDMODE_BLEND)
            entry = Uploaded(texture: made, revision: -1, width: image.width, height: image.height)
        }
        guard var entry else { return nil }
        let straight = image.straightAlpha()
        straight.pixels.withUnsafeBytes { bytes in
            _ = SDL_UpdateTexture(entry.texture, nil, bytes.baseAddress, Int32(straight.stride))
        }
        entry.revision = plane.revision
        uploaded[plane.layer] = entry
        uploadCount += 1
        return entry.texture
    }
}

/// Copies a piece of `texture` to where it goes in the output (a panel's view of the area): its
/// source rounded outward to whole pixels, the destination grown with it, so every pixel lands
/// where it belongs and neighbouring panels meet without a seam.
package func renderPiece(of texture: OpaquePointer, _ piece: (source: Rect, destination: Rect), on renderer: OpaquePointer) {
    let left = piece.source.x.rounded(.down), top = piece.source.y.rounded(.down)
    let right = (piece.source.x + piece.source.width).rounded(.up), bottom = (piece.source.y + piece.source.height).rounded(.up)
    var source = SDL_Rect(x: Int32(left), y: Int32(top), w: Int32(right - left), h: Int32(bottom - top))
    let sx = piece.destination.width / max(piece.source.width, 1e-9), sy = piece.destination.height / max(piece.source.height, 1e-9)
    var target = SDL_FRect(x: Float(piece.destination.x - (piece.source.x - left) * sx),
                           y: Float(piece.destination.y - (piece.source.y - top) * sy),
                           w: Float((right - left) * sx), h: Float((bottom - top) * sy))
    SDL_RenderCopyF(renderer, texture, &source, &target)
}
