import CFFmpeg
import FFmpegSupport
import Foundation
import LoopPlayerCore
import LoopPlayerMedia

/// An RGB picture in memory (8 bits per channel, rows packed).
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `height` rows of `width` pixels, top row first, each pixel three bytes: red, green, blue.
    public var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The (r, g, b) value at a pixel.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

/// A BGRA picture in memory (rows packed), for the CPU compositor.
package struct BGRAPicture {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]

    /// The picture turned clockwise by 90, 180 or 270 degrees.
    package func rotated(clockwise degrees: Int) -> BGRAPicture {
        let turn = ((degrees % 360) + 360) % 360
        guard turn != 0 else { return self }
        let (w, h) = turn % 180 != 0 ? (height, width) : (width, height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny): (Int, Int)
                switch turn {
                case 90: (nx, ny) = (height - 1 - y, x)
                case 180: (nx, ny) = (width - 1 - x, height - 1 - y)
                default: (nx, ny) = (y, width - 1 - x)
                }
                let s = (y * width + x) * 4, d = (ny * w + nx) * 4
                out[d] = pixels[s]; out[d + 1] = pixels[s + 1]; out[d + 2] = pixels[s + 2]; out[d + 3] = pixels[s + 3]
            }
        }
        return BGRAPicture(width: w, height: h, pixels: out)
    }
}

/// Renders a scene on the CPU — the picture laid out in the player area with its gravity, then the
/// overlay planes blended on top — exactly as a window shows it; and writes PNG files with FFmpeg's
/// PNG encoder. Snapshots and composited frames come from here.
package enum Snapshot {
    /// `scene` in an area of `area` pixels (black where the picture does not reach).
    package static func image(of scene: Scene, area: PixelSize) throws(PlayerError) -> RGBImage {
        let width = max(1, area.width), height = max(1, area.height)
        let canvas = try bgra(of: scene, area: area, scaler: nil)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for pixel in 0..<(width * height) {
            rgb[pixel * 3] = canvas[pixel * 4 + 2]
            rgb[pixel * 3 + 1] = canvas[pixel * 4 + 1]
            rgb[pixel * 3 + 2] = canvas[pixel * 4]
        }
        return RGBImage(width: width, height: height, pixels: rgb)
    }

    /// `scene` in an area of `area` pixels as opaque BGRA rows (`area.width * 4` bytes each). With a
    /// `scaler` (scenes rendered again and again: an inset) the picture is scaled with its cached,
    /// faster context; without, with an accurate one made for this call (snapshots).
    package static func bgra(of scene: Scene, area: PixelSize, scaler cache: ScalerCache?) throws(PlayerError) -> [UInt8] {
        let width = max(1, area.width), height = max(1, area.height)
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        for alpha in stride(from: 3, to: canvas.count, by: 4) { canvas[alpha] = 255 }
        if let frame = scene.frame {
            let layout = VideoLayout(geometry: frame.geometry, gravity: scene.gravity, areaWidth: Double(width),
                                     areaHeight: Double(height))
            let picture = try laidOut(frame, layout: layout, cache: cache)
            paste(picture, at: layout.destination, into: &canvas, width: width, height: height)
        }
        canvas.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            // A message (OSD) is for whoever watches the window, not part of the picture (as in mpv's screenshots).
            for plane in scene.planes where plane.layer != .message {
                plane.image.composite(ontoBGRA: base, width: width, height: height, stride: width * 4)
            }
        }
        return canvas
    }

    /// The frame's visible part (`layout.source`) scaled to the destination's size and turned upright,
    /// as BGRA: with accurate colour conversion, or `cache`'s faster context.
    private static func laidOut(_ frame: VideoFrame, layout: VideoLayout, cache: ScalerCache?) throws(PlayerError) -> BGRAPicture {
        let geometry = frame.geometry
        let unrotated = layout.unrotatedDestination(for: geometry)
        let width = max(1, Int(unrotated.width.rounded())), height = max(1, Int(unrotated.height.rounded()))
        // Crop on even coordinates so the chroma planes stay aligned with luma.
        let cropX = Int(layout.source.x) & ~1, cropY = Int(layout.source.y) & ~1
        let cropW = max(1, min(frame.width - cropX, Int(layout.source.width.rounded())))
        let cropH = max(1, min(frame.height - cropY, Int(layout.source.height.rounded())))
        let source = frame.pixelFormat
        let made = cache.map { $0.context(from: (cropW, cropH, source), to: (width, height)) }
            ?? sws_getContext(Int32(cropW), Int32(cropH), source, Int32(width), Int32(height), AV_PIX_FMT_BGRA,
                              SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
        guard let scaler = made else {
            throw .renderFailed(reason: "cannot convert \(String(cString: av_get_pix_fmt_name(source))) to RGB")
        }
        defer { if cache == nil { sws_freeContext(scaler) } }
        ColorConversion(frame: frame).apply(to: scaler)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let picture = frame.pointer
        pixels.withUnsafeMutableBufferPointer { buffer in
            var planes: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
            var sources: [UnsafePointer<UInt8>?] = [nil, nil, nil, nil]
            var sourceStrides: [Int32] = [0, 0, 0, 0]
            let nv12 = source == AV_PIX_FMT_NV12
            for plane in 0..<(nv12 ? 2 : 3) {
                let stride = plane == 0 ? picture.pointee.linesize.0 : plane == 1 ? picture.pointee.linesize.1 : picture.pointee.linesize.2
                let base = plane == 0 ? picture.pointee.data.0 : plane == 1 ? picture.pointee.data.1 : picture.pointee.data.2
                let y = plane == 0 ? cropY : cropY / 2
                let x = plane == 0 ? cropX : nv12 ? cropX : cropX / 2
                sources[plane] = UnsafePointer(base.map { $0 + y * Int(stride) + x })
                sourceStrides[plane] = stride
            }
            _ = sws_scale(scaler, sources, sourceStrides, 0, Int32(cropH), &planes, &strides)
        }
        return BGRAPicture(width: width, height: height, pixels: pixels).rotated(clockwise: geometry.rotation)
    }

    /// Copies `picture` into the canvas at `destination` (clipped to the canvas).
    private static func paste(_ picture: BGRAPicture, at destination: Rect, into canvas: inout [UInt8], width: Int, height: Int) {
        let left = Int(destination.x.rounded()), top = Int(destination.y.rounded())
        for row in 0..<picture.height where top + row >= 0 && top + row < height {
            let firstColumn = max(0, -left), lastColumn = min(picture.width, width - left)
            guard firstColumn < lastColumn else { continue }
            let sourceStart = (row * picture.width + firstColumn) * 4
            let targetStart = ((top + row) * width + left + firstColumn) * 4
            canvas.replaceSubrange(targetStart..<(targetStart + (lastColumn - firstColumn) * 4),
                                   with: picture.pixels[sourceStart..<(sourceStart + (lastColumn - firstColumn) * 4)])
        }
    }

    package static func writePNG(_ image: RGBImage, to path: String) throws(PlayerError) {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else { throw .renderFailed(reason: "no PNG encoder") }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer { avcodec_free_context(&context); av_frame_free(&frame); av_packet_free(&packet) }
        guard let context, let frame, let packet else { throw .renderFailed(reason: "out of memory") }
        context.pointee.width = Int32(image.width)
        context.pointee.height = Int32(image.height)
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        context.pointee.time_base = AVRational(num: 1, den: 1)
        var status = avcodec_open2(context, codec, nil)
        guard status >= 0 else { throw .renderFailed(reason: "PNG encoder: \(FFmpegError(code: status).message)") }
        frame.pointee.width = Int32(image.width)
        frame.pointee.height = Int32(image.height)
        frame.pointee.format = AV_PIX_FMT_RGB24.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0, let plane = frame.pointee.data.0 else {
            throw .renderFailed(reason: "out of memory")
        }
        let stride = Int(frame.pointee.linesize.0)
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for row in 0..<image.height {
                (plane + row * stride).update(from: base + row * image.width * 3, count: image.width * 3)
            }
        }
        status = avcodec_send_frame(context, frame)
        if status >= 0 { status = avcodec_send_frame(context, nil) }
        if status >= 0 { status = avcodec_receive_packet(context, packet) }
        guard status >= 0 else { throw .renderFailed(reason: "PNG encoder: \(FFmpegError(code: status).message)") }
        let data = Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw .renderFailed(reason: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// One swscale context to BGRA kept from call to call (remade only when the sizes or the format
/// change), with bilinear scaling: for scenes rendered at every frame. One thread at a time.
package final class ScalerCache {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    package func context(from source: (width: Int, height: Int, format: AVPixelFormat), to size: (width: Int, height: Int)) -> OpaquePointer? {
        context = sws_getCachedContext(context, Int32(source.width), Int32(source.height), source.format,
                                       Int32(size.width), Int32(size.height), AV_PIX_FMT_BGRA, SWS_BILINEAR, nil, nil, nil)
        return context
    }

    package init() {}
}
