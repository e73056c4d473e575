import Foundation
import Overlay

extension ASSRenderer {
    /// Bitmap subtitles (DVD, PGS, DVB) placed in the player area: each picture scaled from the
    /// canvas to `videoRect` (where the whole picture is drawn) and composed into one premultiplied
    /// BGRA image over their union. Nil when there is nothing to draw.
    ///
    /// Scaling is a tent filter on premultiplied pixels (`BitmapScaler`): bilinear when enlarging,
    /// area-like when reducing, so thin strokes survive a small window and edges stay clean.
    package static func image(for bitmaps: [SubtitleBitmap], canvas: SubtitleCanvas, videoRect: CGRect) -> OverlayImage? {
        guard canvas.width > 0, canvas.height > 0, videoRect.width >= 1, videoRect.height >= 1,
              videoRect.width.isFinite, videoRect.height.isFinite, videoRect.minX.isFinite, videoRect.minY.isFinite
        else { return nil }
        let scaleX = Double(videoRect.width) / Double(canvas.width)
        let scaleY = Double(videoRect.height) / Double(canvas.height)
        let originX = Double(videoRect.minX), originY = Double(videoRect.minY)
        struct Placed { var left, top, width, height: Int; var bitmap: SubtitleBitmap }
        let placed: [Placed] = bitmaps.compactMap { bitmap in
            guard bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count >= bitmap.width * bitmap.height * 4 else { return nil }
            // Both edges rounded, so pictures that touch on the canvas still touch on screen.
            let left = Int((originX + Double(bitmap.x) * scaleX).rounded())
            let right = Int((originX + Double(bitmap.x + bitmap.width) * scaleX).rounded())
            let top = Int((originY + Double(bitmap.y) * scaleY).rounded())
            let bottom = Int((originY + Double(bitmap.y + bitmap.height) * scaleY).rounded())
            guard right > left, bottom > top, right - left <= maximumAreaSide, bottom - top <= maximumAreaSide else { return nil }
            return Placed(left: left, top: top, width: right - left, height: bottom - top, bitmap: bitmap)
        }
        guard let first = placed.first else { return nil }
        var minX = first.left, minY = first.top, maxX = first.left + first.width, maxY = first.top + first.height
        for item in placed.dropFirst() {
            minX = min(minX, item.left); minY = min(minY, item.top)
            maxX = max(maxX, item.left + item.width); maxY = max(maxY, item.top + item.height)
        }
        guard maxX - minX <= maximumAreaSide, maxY - minY <= maximumAreaSide else { return nil }
        var canvasImage = PremultipliedCanvas(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        for item in placed {
            let scaled = BitmapScaler.scale(item.bitmap.pixels, width: item.bitmap.width, height: item.bitmap.height,
                                            toWidth: item.width, height: item.height)
            canvasImage.draw(bgra: scaled, width: item.width, height: item.height, left: item.left, top: item.top)
        }
        return canvasImage.image
    }
}
