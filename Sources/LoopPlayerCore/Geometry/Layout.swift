/// A rectangle in pixels (fractional while computing; rounded when handed to SDL).
public struct Rect: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The top-left corner (`x`, `y`, from the top-left of the area) and the size, in pixels.
    public var x, y, width, height: Double

    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// `<width>x<height>+<x>+<y>` (X11 geometry order), e.g. `1280.0x720.0+0.0+0.0`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// The picture's shape: coded size, sample aspect ratio and the clockwise turn that shows it upright.
package struct VideoGeometry: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var sampleAspectRatio: Double
    /// 0, 90, 180 or 270 degrees clockwise.
    package var rotation: Int

    package init(width: Int, height: Int, sampleAspectRatio: Double = 1, rotation: Int = 0) {
        self.width = width
        self.height = height
        self.sampleAspectRatio = sampleAspectRatio > 0 && sampleAspectRatio.isFinite ? sampleAspectRatio : 1
        self.rotation = ((rotation % 360) + 360) % 360
    }

    package var isQuarterTurn: Bool { rotation == 90 || rotation == 270 }

    /// Size as shown: anamorphic width applied, then rotated.
    package var displaySize: (width: Double, height: Double) {
        let w = Double(width) * sampleAspectRatio, h = Double(height)
        return isQuarterTurn ? (h, w) : (w, h)
    }
}

/// Where a picture goes in the player area for a gravity.
package struct VideoLayout: Sendable, Equatable {
    /// Part of the coded picture to show (unrotated coordinates; smaller than the picture when cropping).
    package var source: Rect
    /// Where the (rotated) picture lands in the area.
    package var destination: Rect

    package init(source: Rect, destination: Rect) {
        self.source = source
        self.destination = destination
    }

    /// Lays out `geometry` in an area of `areaWidth`×`areaHeight` with `gravity`.
    package init(geometry: VideoGeometry, gravity: VideoGravity, areaWidth: Double, areaHeight: Double) {
        let full = Rect(x: 0, y: 0, width: Double(geometry.width), height: Double(geometry.height))
        let area = Rect(x: 0, y: 0, width: areaWidth, height: areaHeight)
        let shown = geometry.displaySize
        guard shown.width > 0, shown.height > 0, areaWidth > 0, areaHeight > 0 else {
            self.init(source: full, destination: area)
            return
        }
        switch gravity {
        case .resize:
            self.init(source: full, destination: area)
        case .resizeAspect:
            let scale = min(areaWidth / shown.width, areaHeight / shown.height)
            let w = shown.width * scale, h = shown.height * scale
            self.init(source: full, destination: Rect(x: (areaWidth - w) / 2, y: (areaHeight - h) / 2, width: w, height: h))
        case .resizeAspectFill:
            let scale = max(areaWidth / shown.width, areaHeight / shown.height)
            // Visible fraction of the shown picture along each screen axis, centred.
            let visibleX = min(1, areaWidth / (shown.width * scale))
            let visibleY = min(1, areaHeight / (shown.height * scale))
            // A quarter turn swaps which coded axis is horizontal on screen.
            let (fractionW, fractionH) = geometry.isQuarterTurn ? (visibleY, visibleX) : (visibleX, visibleY)
            let w = full.width * fractionW, h = full.height * fractionH
            self.init(source: Rect(x: (full.width - w) / 2, y: (full.height - h) / 2, width: w, height: h),
                      destination: area)
        }
    }

    /// The destination in the picture's own (unrotated) orientation, centred on the same point:
    /// what `SDL_RenderCopyEx` expects before it applies the rotation.
    package func unrotatedDestination(for geometry: VideoGeometry) -> Rect {
        guard geometry.isQuarterTurn else { return destination }
        let cx = destination.x + destination.width / 2, cy = destination.y + destination.height / 2
        return Rect(x: cx - destination.height / 2, y: cy - destination.width / 2,
                    width: destination.height, height: destination.width)
    }
}

/// A window showing one part of a player area, scaled to fill it (a wall's panel): what a rectangle
/// drawn in the area becomes in the window, clipped to it, and the part of its source that stays
/// visible — so only what shows is ever scaled.
package struct PartView: Sendable, Equatable {
    /// The part of the area shown, in area pixels.
    package var part: Rect
    /// Window pixels per area pixel.
    package var scaleX, scaleY: Double

    /// `part` of an area filling a window of `window` pixels.
    package init(part: Rect, window: PixelSize) {
        self.part = part
        scaleX = part.width > 0 ? Double(window.width) / part.width : 1
        scaleY = part.height > 0 ? Double(window.height) / part.height : 1
    }

    /// `destination` (area pixels) showing `source` (the source's pixels, stretched over it): the
    /// visible piece of each, in the window and in the source; nil when nothing of it shows.
    package func map(destination: Rect, source: Rect) -> (source: Rect, destination: Rect)? {
        let left = max(destination.x, part.x), top = max(destination.y, part.y)
        let right = min(destination.x + destination.width, part.x + part.width)
        let bottom = min(destination.y + destination.height, part.y + part.height)
        guard right > left, bottom > top, destination.width > 0, destination.height > 0 else { return nil }
        let sx = source.width / destination.width, sy = source.height / destination.height
        let visibleSource = Rect(x: source.x + (left - destination.x) * sx, y: source.y + (top - destination.y) * sy,
                                 width: (right - left) * sx, height: (bottom - top) * sy)
        let inWindow = Rect(x: (left - part.x) * scaleX, y: (top - part.y) * scaleY,
                            width: (right - left) * scaleX, height: (bottom - top) * scaleY)
        return (visibleSource, inWindow)
    }
}
