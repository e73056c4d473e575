import CFFmpeg
import CSDL
import LoopPlayerCore
import LoopPlayerMedia

/// libswscale converts and scales each frame straight into the window surface (X11 shared memory
/// under Xvfb): one pass over the pixels, no intermediate texture; a turned picture takes one more
/// (`QuarterTurn`). CPU only. A wall's panel showing a turned picture draws with the renderer
/// (`PanelWindow`): a part of it is not turned here.
package final class SurfaceVideoOutput: WindowVideoOutput {
    private var scaler: OpaquePointer?
    /// The matrix set on `configuredScaler` (swscale keeps it until the context is remade).
    private var appliedConversion: ColorConversion?
    private var configuredScaler: OpaquePointer?
    private let planes = SurfacePlanes()
    /// The picture on the surface: redrawing the same frame at the same place (overlays alone changed)
    /// restores the pixels under the planes and blends the new ones.
    private var drawn: (frame: VideoFrame?, layout: VideoLayout, rotation: Int, surface: UnsafeMutablePointer<SDL_Surface>)?
    package let name = "surface/swscale"

    /// Nil if the window surface has a pixel format swscale cannot write.
    package init?(window: OpaquePointer) {
        guard let surface = SDL_GetWindowSurface(window), Self.pixelFormat(of: surface) != nil else { return nil }
    }

    deinit { sws_freeContext(scaler) }

    package func drawableSize(window: OpaquePointer) -> PixelSize {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetWindowSize(window, &width, &height)
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Draws only `part` of the area, filling the window (a wall's panel); nil: all of it. The
    /// picture's piece is scaled straight into the surface; the overlays are moved with it (and
    /// placed, not resized, should the part not be at the window's own size).
    package func showPart(_ part: Rect?, window: OpaquePointer) {
        guard let part, part.width > 0, part.height > 0 else { return partView = nil }
        partView = PartView(part: part, window: drawableSize(window: window))
    }

    private var partView: PartView?

    package func draw(_ scene: Scene, layout: VideoLayout, window: OpaquePointer) {
        guard let view = partView else { return drawWhole(scene, layout: layout, window: window) }
        var piece = scene
        piece.planes = scene.planes.map { plane in
            var image = plane.image
            image.x = Int(((Double(image.x) - view.part.x) * view.scaleX).rounded())
            image.y = Int(((Double(image.y) - view.part.y) * view.scaleY).rounded())
            return OverlayPlane(layer: plane.layer, revision: plane.revision, image: image)
        }
        guard let shown = view.map(destination: layout.destination, source: layout.source) else {
            piece.frame = nil  // the picture is not in this part: black under the overlays
            return drawWhole(piece, layout: layout, window: window)
        }
        drawWhole(piece, layout: VideoLayout(source: shown.source, destination: shown.destination), window: window)
    }

    private func drawWhole(_ scene: Scene, layout: VideoLayout, window: OpaquePointer) {
        // After a resize SDL hands out a new surface; the old pointer must not be used.
        guard let surface = SDL_GetWindowSurface(window), let target = Self.pixelFormat(of: surface) else { return }
        let rotation = scene.geometry?.rotation ?? 0
        let samePicture = drawn.map {
            $0.frame === scene.frame && $0.layout == layout && $0.rotation == rotation && $0.surface == surface
        } ?? false
        if samePicture, planes.hasSaved {
            // Only the overlays changed: put the picture back under the old ones, update just those rects.
            var dirty = planes.changedRects
            planes.restore(into: surface)
            planes.blend(scene.planes, onto: surface, saving: true)
            dirty += planes.changedRects
            if !dirty.isEmpty { SDL_UpdateWindowSurfaceRects(window, dirty, Int32(dirty.count)) }
            return
        }
        // A new picture, or the first overlays-only redraw over this one: draw it whole. Only in the
        // second case keep what lies under the planes (a still picture under animated overlays);
        // frames in motion never need it.
        let area = SDL_Rect(x: 0, y: 0, w: surface.pointee.w, h: surface.pointee.h)
        let destination = layout.destination.sdlRect
        let visible = destination.intersection(area)
        clearBorders(surface, around: scene.frame == nil ? SDL_Rect() : visible, area: area)
        if let frame = scene.frame, visible.w > 0, visible.h > 0 {
            scale(frame, source: layout.source, into: surface, at: visible, turned: rotation, format: target)
        }
        planes.forgetSaved()
        planes.blend(scene.planes, onto: surface, saving: samePicture)
        drawn = (scene.frame, layout, rotation, surface)
        SDL_UpdateWindowSurface(window)
    }

    /// Scales `source` of `frame` to `destination` on the surface, turned `rotation` degrees clockwise:
    /// straight into the surface upright; turned, upright into `turnScratch`, then turned onto it
    /// (one more pass over the window's pixels: less than SDL's renderer takes to turn them).
    private func scale(_ frame: VideoFrame, source: Rect, into surface: UnsafeMutablePointer<SDL_Surface>,
                       at destination: SDL_Rect, turned rotation: Int, format: AVPixelFormat) {
        let quarter = rotation % 180 != 0
        let (width, height) = quarter ? (destination.h, destination.w) : (destination.w, destination.h)
        let picture = frame.pointer
        let chromaShiftX: Int32 = 1, chromaShiftY: Int32 = 1  // yuv420p and nv12
        // The luma from the exact pixel (a panel's part at an odd place lines up with its neighbours
        // and its overlays), the chroma from the sample that covers it.
        let cropX = Int32(source.x.rounded()), cropY = Int32(source.y.rounded())
        let cropW = min(picture.pointee.width - cropX, Int32(source.width.rounded()))
        let cropH = min(picture.pointee.height - cropY, Int32(source.height.rounded()))
        guard cropW > 0, cropH > 0 else { return }
        let flags = cropW == width && cropH == height ? SWS_POINT : SWS_BILINEAR
        scaler = sws_getCachedContext(scaler, cropW, cropH, frame.pixelFormat, width, height, format,
                                      flags, nil, nil, nil)
        guard let scaler else { return }
        let conversion = ColorConversion(frame: frame)
        if conversion != appliedConversion || scaler != configuredScaler {
            conversion.apply(to: scaler)
            appliedConversion = conversion
            configuredScaler = scaler
        }
        let nv12 = frame.pixelFormat == AV_PIX_FMT_NV12
        var planes: [UnsafePointer<UInt8>?] = [nil, nil, nil, nil]
        var strides: [Int32] = [0, 0, 0, 0]
        for plane in 0..<(nv12 ? 2 : 3) {
            let stride = plane == 0 ? picture.pointee.linesize.0 : plane == 1 ? picture.pointee.linesize.1 : picture.pointee.linesize.2
            let base = plane == 0 ? picture.pointee.data.0 : plane == 1 ? picture.pointee.data.1 : picture.pointee.data.2
            let y = plane == 0 ? cropY : cropY >> chromaShiftY
            let x = plane == 0 ? cropX : (nv12 ? (cropX >> chromaShiftX) * 2 : cropX >> chromaShiftX)
            planes[plane] = UnsafePointer(base.map { $0 + Int(y) * Int(stride) + Int(x) })
            strides[plane] = stride
        }
        let mustLock = surface.pointee.flags & UInt32(SDL_RLEACCEL) != 0
        if mustLock { SDL_LockSurface(surface) }
        let pitch = surface.pointee.pitch
        if let pixels = surface.pointee.pixels?.assumingMemoryBound(to: UInt8.self) {
            let target = pixels + Int(destination.y) * Int(pitch) + Int(destination.x) * 4
            if rotation % 360 == 0 {
                var outPlanes: [UnsafeMutablePointer<UInt8>?] = [target, nil, nil, nil]
                var outStrides: [Int32] = [pitch, 0, 0, 0]
                _ = sws_scale(scaler, planes, strides, 0, cropH, &outPlanes, &outStrides)
            } else {
                let count = Int(width) * Int(height)
                if turnScratch.count != count { turnScratch = [UInt32](repeating: 0, count: count) }
                turnScratch.withUnsafeMutableBufferPointer { scratch in
                    guard let base = scratch.baseAddress else { return }
                    var outPlanes: [UnsafeMutablePointer<UInt8>?] = [UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt8.self), nil, nil, nil]
                    var outStrides: [Int32] = [width * 4, 0, 0, 0]
                    _ = sws_scale(scaler, planes, strides, 0, cropH, &outPlanes, &outStrides)
                    QuarterTurn.copy(base, width: Int(width), height: Int(height), turned: rotation,
                                     into: target, targetPitch: Int(pitch))
                }
            }
        }
        if mustLock { SDL_UnlockSurface(surface) }
    }

    /// The upright picture of a turned one, before it is turned onto the surface (kept: one per size).
    private var turnScratch: [UInt32] = []

    /// Paints black only outside the picture (no full clear every frame).
    private func clearBorders(_ surface: UnsafeMutablePointer<SDL_Surface>, around picture: SDL_Rect, area: SDL_Rect) {
        let black = SDL_MapRGB(surface.pointee.format, 0, 0, 0)
        let bottom = picture.y + picture.h, right = picture.x + picture.w
        var borders = [
            SDL_Rect(x: 0, y: 0, w: area.w, h: picture.y),
            SDL_Rect(x: 0, y: bottom, w: area.w, h: area.h - bottom),
            SDL_Rect(x: 0, y: picture.y, w: picture.x, h: picture.h),
            SDL_Rect(x: right, y: picture.y, w: area.w - right, h: picture.h),
        ].filter { $0.w > 0 && $0.h > 0 }
        if picture.w <= 0 || picture.h <= 0 { borders = [area] }
        if !borders.isEmpty { SDL_FillRects(surface, borders, Int32(borders.count), black) }
    }

    /// The FFmpeg equivalent of a 32-bit window surface format.
    private static func pixelFormat(of surface: UnsafeMutablePointer<SDL_Surface>) -> AVPixelFormat? {
        switch surface.pointee.format.pointee.format {
        case SDL_PIXELFORMAT_RGB888.rawValue, SDL_PIXELFORMAT_ARGB8888.rawValue: AV_PIX_FMT_BGRA  // little-endian B,G,R,X
        case SDL_PIXELFORMAT_BGR888.rawValue, SDL_PIXELFORMAT_ABGR8888.rawValue: AV_PIX_FMT_RGBA
        default: nil
        }
    }
}
