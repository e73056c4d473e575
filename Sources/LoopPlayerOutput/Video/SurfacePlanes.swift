import CSDL
import Overlay
import LoopPlayerMedia

/// Overlay planes blended onto a window surface on the CPU (no renderer). On the usual 32-bit
/// B, G, R, X surface the premultiplied plane is blended straight from its image
/// (`OverlayImage.composite`: several times faster than SDL's blitter, `docs/benchmarks.md`); on
/// other surfaces each plane becomes an SDL surface once per revision, blended by SDL. Over a still
/// picture the pixels under each plane are saved before it is blended, so the next redraw of the overlays alone (an animation
/// over a paused picture, new error text) restores those few pixels instead of converting and
/// scaling the whole picture again. The save buffers are reused from redraw to redraw.
package final class SurfacePlanes {
    private struct Prepared {
        var surface: UnsafeMutablePointer<SDL_Surface>
        var revision: Int
    }

    /// The picture's pixels under a blended plane, as they were before blending.
    private struct SavedPixels {
        var rect: SDL_Rect
        var pixels: [UInt8]
    }

    private var prepared: [OverlayPlane.Layer: Prepared] = [:]
    private var saved: [SavedPixels] = []
    /// Buffers of earlier saves, kept for the next ones.
    private var spare: [[UInt8]] = []

    deinit { prepared.values.forEach { SDL_FreeSurface($0.surface) } }

    /// The rectangles the last saving blend changed (to update just those on the screen).
    package var changedRects: [SDL_Rect] { saved.map(\.rect) }

    /// Whether the last blend saved the picture under its planes.
    package private(set) var hasSaved = false

    /// Puts back the picture under the planes of the last saving blend.
    package func restore(into target: UnsafeMutablePointer<SDL_Surface>) {
        for save in saved.reversed() { copy(save.pixels, into: target, at: save.rect) }
        forgetSaved()
    }

    /// The picture was drawn anew: nothing saved applies to it.
    package func forgetSaved() {
        spare = Array((spare + saved.map(\.pixels)).suffix(8))
        saved.removeAll()
        hasSaved = false
    }

    /// Blends `planes` in order onto `target`; with `saving`, keeps what lies under each first.
    package func blend(_ planes: [OverlayPlane], onto target: UnsafeMutablePointer<SDL_Surface>, saving: Bool) {
        let present = Set(planes.map(\.layer))
        for (layer, gone) in prepared where !present.contains(layer) {
            SDL_FreeSurface(gone.surface)
            prepared[layer] = nil
        }
        let bounds = SDL_Rect(x: 0, y: 0, w: target.pointee.w, h: target.pointee.h)
        let direct = Self.blendsDirectly(onto: target) ? target.pointee.pixels?.assumingMemoryBound(to: UInt8.self) : nil
        for plane in planes where !plane.image.isEmpty {
            var place = SDL_Rect(x: Int32(plane.image.x), y: Int32(plane.image.y),
                                 w: Int32(plane.image.width), h: Int32(plane.image.height))
            let visible = place.intersection(bounds)
            guard visible.w > 0, visible.h > 0 else { continue }
            if let direct {
                if saving { saved.append(SavedPixels(rect: visible, pixels: read(target, at: visible))) }
                plane.image.composite(ontoBGRA: direct, width: Int(bounds.w), height: Int(bounds.h), stride: Int(target.pointee.pitch))
                continue
            }
            guard let source = surface(for: plane) else { continue }
            if saving { saved.append(SavedPixels(rect: visible, pixels: read(target, at: visible))) }
            SDL_UpperBlit(source, nil, target, &place)
        }
        hasSaved = saving
    }

    /// A surface whose bytes are B, G, R, X (SDL's RGB888 and ARGB8888 on little-endian machines)
    /// and that needs no lock: the premultiplied planes blend onto it as they are.
    private static func blendsDirectly(onto target: UnsafeMutablePointer<SDL_Surface>) -> Bool {
        let format = target.pointee.format.pointee.format
        return (format == SDL_PIXELFORMAT_RGB888.rawValue || format == SDL_PIXELFORMAT_ARGB8888.rawValue)
            && target.pointee.flags & UInt32(SDL_RLEACCEL) == 0 && target.pointee.pixels != nil
    }

    private func surface(for plane: OverlayPlane) -> UnsafeMutablePointer<SDL_Surface>? {
        if let current = prepared[plane.layer], current.revision == plane.revision { return current.surface }
        if let stale = prepared[plane.layer] { SDL_FreeSurface(stale.surface) }
        prepared[plane.layer] = nil
        let image = plane.image.straightAlpha()
        guard let made = SDL_CreateRGBSurfaceWithFormat(0, Int32(image.width), Int32(image.height), 32,
                                                        SDL_PIXELFORMAT_ARGB8888.rawValue),
              let pixels = made.pointee.pixels?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let pitch = Int(made.pointee.pitch)
        image.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<image.height {
                (pixels + row * pitch).update(from: base + row * image.stride, count: image.width * 4)
            }
        }
        SDL_SetSurfaceBlendMode(made, SDL_BLENDMODE_BLEND)
        prepared[plane.layer] = Prepared(surface: made, revision: plane.revision)
        return made
    }

    private func read(_ surface: UnsafeMutablePointer<SDL_Surface>, at rect: SDL_Rect) -> [UInt8] {
        guard let pixels = surface.pointee.pixels?.assumingMemoryBound(to: UInt8.self) else { return [] }
        let pitch = Int(surface.pointee.pitch), rowBytes = Int(rect.w) * 4
        var copy = spare.popLast() ?? []
        if copy.count != rowBytes * Int(rect.h) { copy = [UInt8](repeating: 0, count: rowBytes * Int(rect.h)) }
        copy.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            for row in 0..<Int(rect.h) {
                (base + row * rowBytes).update(from: pixels + (Int(rect.y) + row) * pitch + Int(rect.x) * 4, count: rowBytes)
            }
        }
        return copy
    }

    private func copy(_ saved: [UInt8], into surface: UnsafeMutablePointer<SDL_Surface>, at rect: SDL_Rect) {
        guard let pixels = surface.pointee.pixels?.assumingMemoryBound(to: UInt8.self),
              rect.x + rect.w <= surface.pointee.w, rect.y + rect.h <= surface.pointee.h else { return }
        let pitch = Int(surface.pointee.pitch), rowBytes = Int(rect.w) * 4
        saved.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress, source.count >= rowBytes * Int(rect.h) else { return }
            for row in 0..<Int(rect.h) {
                (pixels + (Int(rect.y) + row) * pitch + Int(rect.x) * 4).update(from: base + row * rowBytes, count: rowBytes)
            }
        }
    }
}

extension SDL_Rect {
    package func intersection(_ other: SDL_Rect) -> SDL_Rect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + w, other.x + other.w), y1 = min(y + h, other.y + other.h)
        return SDL_Rect(x: x0, y: y0, w: max(0, x1 - x0), h: max(0, y1 - y0))
    }
}
