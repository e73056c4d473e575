import CFFmpeg
import FFmpegSupport
import Foundation

/// An RGB picture in memory (8 bits per channel, rows packed).
public struct RGBImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The (r, g, b) value at a pixel.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// The picture turned clockwise by 90, 180 or 270 degrees.
    func rotated(clockwise degrees: Int) -> RGBImage {
        guard degrees % 360 != 0 else { return self }
        let quarter = degrees % 180 != 0
        let (w, h) = quarter ? (height, width) : (width, height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny): (Int, Int)
                switch degrees % 360 {
                case 90: (nx, ny) = (height - 1 - y, x)
                case 180: (nx, ny) = (width - 1 - x, height - 1 - y)
                default: (nx, ny) = (y, width - 1 - x)
                }
                let s = (y * width + x) * 3, d = (ny * w + nx) * 3
                out[d] = pixels[s]; out[d + 1] = pixels[s + 1]; out[d + 2] = pixels[s + 2]
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}

/// Turns a frame into what a viewer sees at the picture's own size (anamorphic width and rotation
/// applied) and writes PNG files with FFmpeg's PNG encoder.
enum Snapshot {
    static func image(of frame: VideoFrame, geometry: VideoGeometry) throws(PlayerError) -> RGBImage {
        let width = max(2, Int((Double(frame.width) * geometry.sampleAspectRatio).rounded()))
        let height = frame.height
        let source = frame.pixelFormat
        guard let scaler = sws_getContext(Int32(frame.width), Int32(frame.height), source, Int32(width), Int32(height),
                                          AV_PIX_FMT_RGB24, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil) else {
            throw .renderFailed(reason: "cannot convert \(String(cString: av_get_pix_fmt_name(source))) to RGB")
        }
        defer { sws_freeContext(scaler) }
        ColorConversion(frame: frame).apply(to: scaler)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var planes: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width * 3), 0, 0, 0]
            withFramePlanes(frame.pointer) { sourcePlanes, sourceStrides in
                _ = sws_scale(scaler, sourcePlanes, sourceStrides, 0, Int32(frame.height), &planes, &strides)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels).rotated(clockwise: geometry.rotation)
    }

    static func writePNG(_ image: RGBImage, to path: String) throws(PlayerError) {
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
            for row in 0..<image.height {
                (plane + row * stride).update(from: pixels.baseAddress! + row * image.width * 3, count: image.width * 3)
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
