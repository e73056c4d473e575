import CFFmpeg
import FFmpegSupport
import Foundation
import LoopPlayerCore
import LoopPlayerMedia
import Synchronization

/// An RGB picture in memory (8 bits per channel, rows packed).
public struct RGBImage: Sendable, Equatable {
    /// Width and height in pixels.
    public var width, height: Int
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
/// overlay planes blended on top — exactly as a window shows it; and writes PNG or JPEG files with
/// FFmpeg's encoders. Snapshots and composited frames come from here.
package enum Snapshot {
    /// `scene` in an area of `area` pixels (black where the picture does not reach); the on-screen
    /// messages too with `messages`.
    package static func image(of scene: Scene, area: PixelSize, messages: Bool = false,
                              scaler: ScalerCache? = nil) throws(PlayerError) -> RGBImage {
        let width = max(1, area.width), height = max(1, area.height)
        let canvas = try bgra(of: scene, area: area, scaler: scaler, messages: messages)
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
    package static func bgra(of scene: Scene, area: PixelSize, scaler cache: ScalerCache?,
                             messages: Bool = false) throws(PlayerError) -> [UInt8] {
        let width = max(1, area.width), height = max(1, area.height)
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        for alpha in stride(from: 3, to: canvas.count, by: 4) { canvas[alpha] = 255 }
        if let frame = scene.frame, let geometry = scene.geometry {
            let layout = VideoLayout(geometry: geometry, gravity: scene.gravity, areaWidth: Double(width),
                                     areaHeight: Double(height))
            let picture = try laidOut(frame, turned: geometry, layout: layout, cache: cache)
            paste(picture, at: layout.destination, into: &canvas, width: width, height: height)
        }
        canvas.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            // A message (OSD) is for whoever watches the window, not part of the picture (as in mpv's screenshots).
            for plane in scene.planes where messages || plane.layer != .message {
                plane.image.composite(ontoBGRA: base, width: width, height: height, stride: width * 4)
            }
        }
        return canvas
    }

    /// The frame's visible part (`layout.source`) scaled to the destination's size and turned upright,
    /// as BGRA: with accurate colour conversion, or `cache`'s faster context.
    /// `geometry`: the frame's, with the screen's turn added (`Scene.geometry`).
    private static func laidOut(_ frame: VideoFrame, turned geometry: VideoGeometry, layout: VideoLayout,
                                cache: ScalerCache?) throws(PlayerError) -> BGRAPicture {
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

    /// `scene` as `content` asks: at `area` as shown (`.scene`, `.window`), or the bare picture at
    /// the video's display size (`.video`).
    package static func image(of scene: Scene, area: PixelSize, content: SnapshotContent) throws(PlayerError) -> RGBImage {
        switch content {
        case .scene: return try image(of: scene, area: area)
        case .window: return try image(of: scene, area: area, messages: true)
        case .video:
            // Upright as the screen shows it: turned by the screen's rotation too.
            guard let frame = scene.frame, let geometry = scene.geometry else { return try image(of: scene, area: area) }
            let shown = geometry.displaySize
            let size = PixelSize(width: max(1, Int(shown.width.rounded())), height: max(1, Int(shown.height.rounded())))
            return try image(of: Scene(frame: frame, gravity: .resize, videoRotation: scene.videoRotation), area: size)
        }
    }

    /// `image` scaled to `width` pixels wide, the height in proportion (area averaging when smaller,
    /// as a thumbnail should be; bicubic when larger).
    package static func scaled(_ image: RGBImage, toWidth width: Int) throws(PlayerError) -> RGBImage {
        let width = max(1, width)
        let height = max(1, Int((Double(image.height) * Double(width) / Double(image.width)).rounded()))
        let method = width < image.width ? SWS_AREA : SWS_BICUBIC
        guard let scaler = sws_getContext(Int32(image.width), Int32(image.height), AV_PIX_FMT_RGB24, Int32(width),
                                          Int32(height), AV_PIX_FMT_RGB24, method | SWS_ACCURATE_RND, nil, nil, nil) else {
            throw .renderFailed(reason: "cannot scale the picture to \(width) pixels wide")
        }
        defer { sws_freeContext(scaler) }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                let sources: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
                let sourceStrides: [Int32] = [Int32(image.width * 3), 0, 0, 0]
                var targets: [UnsafeMutablePointer<UInt8>?] = [target.baseAddress, nil, nil, nil]
                var targetStrides: [Int32] = [Int32(width * 3), 0, 0, 0]
                _ = sws_scale(scaler, sources, sourceStrides, 0, Int32(image.height), &targets, &targetStrides)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The snapshot of `image` in `format`: PNG (RGB) or JPEG (FFmpeg's mjpeg encoder, full-range
    /// BT.601 4:4:4, quality about 95).
    package static func encoded(_ image: RGBImage, as format: SnapshotFormat) throws(PlayerError) -> Data {
        let name = format == .png ? "PNG" : "JPEG"
        guard let codec = avcodec_find_encoder(format == .png ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG) else {
            throw .renderFailed(reason: "no \(name) encoder in this FFmpeg")
        }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer { avcodec_free_context(&context); av_frame_free(&frame); av_packet_free(&packet) }
        guard let context, let frame, let packet else { throw .renderFailed(reason: "out of memory") }
        let pixelFormat = format == .png ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_YUV444P
        context.pointee.width = Int32(image.width)
        context.pointee.height = Int32(image.height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = AVRational(num: 1, den: 1)
        if format == .jpeg {
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = 2 * FF_QP2LAMBDA
        }
        var status = avcodec_open2(context, codec, nil)
        guard status >= 0 else { throw .renderFailed(reason: "\(name) encoder: \(FFmpegError(code: status).message)") }
        frame.pointee.width = Int32(image.width)
        frame.pointee.height = Int32(image.height)
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.color_range = context.pointee.color_range
        frame.pointee.quality = context.pointee.global_quality
        guard av_frame_get_buffer(frame, 0) >= 0, let plane = frame.pointee.data.0 else {
            throw .renderFailed(reason: "out of memory")
        }
        if format == .png {
            let stride = Int(frame.pointee.linesize.0)
            image.pixels.withUnsafeBufferPointer { pixels in
                guard let base = pixels.baseAddress else { return }
                for row in 0..<image.height {
                    (plane + row * stride).update(from: base + row * image.width * 3, count: image.width * 3)
                }
            }
        } else {
            try convertToYUV(image, into: frame)
        }
        status = avcodec_send_frame(context, frame)
        if status >= 0 { status = avcodec_send_frame(context, nil) }
        if status >= 0 { status = avcodec_receive_packet(context, packet) }
        guard status >= 0 else { throw .renderFailed(reason: "\(name) encoder: \(FFmpegError(code: status).message)") }
        return Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
    }

    /// RGB to full-range BT.601 YUV 4:4:4 (what JPEG files hold) in `frame`'s planes.
    private static func convertToYUV(_ image: RGBImage, into frame: UnsafeMutablePointer<AVFrame>) throws(PlayerError) {
        let (width, height) = (Int32(image.width), Int32(image.height))
        guard let scaler = sws_getContext(width, height, AV_PIX_FMT_RGB24, width, height, AV_PIX_FMT_YUV444P,
                                          SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil) else {
            throw .renderFailed(reason: "cannot convert the picture for JPEG")
        }
        defer { sws_freeContext(scaler) }
        let table = sws_getCoefficients(SWS_CS_ITU601)
        _ = sws_setColorspaceDetails(scaler, table, 1, table, 1, 0, 1 << 16, 1 << 16)
        image.pixels.withUnsafeBufferPointer { pixels in
            let sources: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            let sourceStrides: [Int32] = [width * 3, 0, 0, 0]
            var planes: [UnsafeMutablePointer<UInt8>?] = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, nil]
            var strides: [Int32] = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, 0]
            _ = sws_scale(scaler, sources, sourceStrides, 0, height, &planes, &strides)
        }
    }

    /// Writes `image` at `path` in the format its extension names (`SnapshotFormat(path:)`).
    package static func write(_ image: RGBImage, to path: String) throws(PlayerError) {
        try writeFile(encoded(image, as: SnapshotFormat(path: path)), to: path)
    }

    /// Writes `data` at `path`, replacing a regular file there. Anything else there is refused before
    /// it is opened (a FIFO would hold the writer until someone read it; a device or a socket is no
    /// picture file), and it is opened non-blocking so a FIFO put there meanwhile fails at once too.
    /// Failures say what could not be written and why: `cannot write PATH: No such file or directory`.
    package static func writeFile(_ data: Data, to path: String) throws(PlayerError) {
        func failure(_ reason: String) -> PlayerError { .writeFailed(path: path, reason: reason) }
        guard !path.isEmpty else { throw failure("the file name is empty") }
        var info = stat()
        if stat(path, &info) == 0, let kind = notARegularFile(info.st_mode) { throw failure(kind) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw failure(errno == ENXIO ? "it is a FIFO (named pipe), not a regular file" : String(cString: strerror(errno)))
        }
        var closed = false
        defer { if !closed { close(descriptor) } }
        guard fstat(descriptor, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        if let kind = notARegularFile(info.st_mode) { throw failure(kind) }
        guard ftruncate(descriptor, 0) == 0 else { throw failure(String(cString: strerror(errno))) }
        if let failed = writeAll(data, to: descriptor) { throw failure(String(cString: strerror(failed))) }
        closed = true
        // A network file system says here that the data did not make it.
        guard close(descriptor) == 0 else { throw failure(String(cString: strerror(errno))) }
    }

    /// What a file of mode `mode` is, when it is not a regular file.
    private static func notARegularFile(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "it is a directory"
        case S_IFIFO: "it is a FIFO (named pipe), not a regular file"
        case S_IFSOCK: "it is a socket, not a regular file"
        case S_IFCHR, S_IFBLK: "it is a device, not a regular file"
        default: "it is not a regular file"
        }
    }
}

/// The file formats of snapshots: the file name's extension says which, as in mpv.
package enum SnapshotFormat: Sendable, Equatable {
    case png
    case jpeg

    /// `.jpg` or `.jpeg` (any case): JPEG; anything else PNG (mpv's default format).
    package init(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = name.split(separator: ".", omittingEmptySubsequences: false).dropFirst().last?.lowercased()
        self = suffix == "jpg" || suffix == "jpeg" ? .jpeg : .png
    }
}

/// What a snapshot shows (mpv's `screenshot-to-file` flags).
public enum SnapshotContent: String, Sendable, CaseIterable {
    /// The scene as the window shows it — the picture in the player area, subtitles, overlays —
    /// without the on-screen messages (mpv's `subtitles`, the default).
    case scene = "subtitles"
    /// The bare video picture at its display size: no subtitles, overlays or messages (mpv's `video`).
    case video
    /// Everything the window shows, its messages included (mpv's `window`).
    case window
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

/// Scalers lent to frames-only hosts that render frame after frame (`ComposedFrame.image()`): a
/// call takes one and gives it back, so that calls on several threads never share one. They scale
/// bilinearly, as a window's renderer does: at 1080p → 720p 3 ms a picture, where the accurate
/// bicubic pass of a snapshot takes 15–24 ms (most of a core at 30 fps).
package final class ScalerPool: Sendable {
    /// A cache handed from call to call, never used by two at once (the lock hands it out).
    private struct Idle: @unchecked Sendable { let cache: ScalerCache }
    private let idle = Mutex<[Idle]>([])

    package static let shared = ScalerPool()

    package func lend<Value>(_ body: (ScalerCache) throws(PlayerError) -> Value) throws(PlayerError) -> Value {
        let lent = idle.withLock { $0.popLast() } ?? Idle(cache: ScalerCache())
        defer { idle.withLock { if $0.count < 4 { $0.append(lent) } } }
        return try body(lent.cache)
    }
}

/// Writes all of `data` to `descriptor` (short writes and interruptions resumed); the `errno` of
/// the write that failed, nil when all of it was written.
package func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
    data.withUnsafeBytes { raw -> Int32? in
        guard var pointer = raw.baseAddress else { return nil }
        var left = raw.count
        while left > 0 {
            let written = Glibc.write(descriptor, pointer, left)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : ENOSPC }
            pointer += written
            left -= written
        }
        return nil
    }
}
