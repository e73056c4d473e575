import CFFmpeg
import Foundation
@testable import LoopPlayer
import XCTest

/// Bitmap subtitles: palette pictures to premultiplied BGRA, a real DVD subtitle packet made by
/// FFmpeg's dvdsub encoder and decoded back, and scaling from the canvas to the video rectangle.
///
/// The ffmpeg tool cannot turn text into DVD or PGS pictures, so the pictures are built here as
/// FFmpeg's own `AVSubtitle` and encoded with its `dvdsub` encoder.
final class BitmapSubtitleTests: XCTestCase {
    func testPalettePicturesBecomePremultipliedBGRA() throws {
        // 4×2 indices with a row padding of 2 bytes; index 3 is past the 3-colour palette.
        var indices: [UInt8] = [0, 1, 2, 3, 9, 9,
                                2, 1, 0, 1, 9, 9]
        var palette: [UInt32] = [0x0000_0000, 0xFFFF_FFFF, 0x80FF_0000, 0xFF00_00FF]
        let bitmap = try indices.withUnsafeMutableBufferPointer { indexBuffer in
            try palette.withUnsafeMutableBytes { paletteBytes in
                var rect = AVSubtitleRect()
                rect.x = 10; rect.y = 20; rect.w = 4; rect.h = 2
                rect.type = SUBTITLE_BITMAP
                rect.nb_colors = 3
                rect.data.0 = indexBuffer.baseAddress
                rect.data.1 = paletteBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                rect.linesize.0 = 6
                return try XCTUnwrap(SubtitleDecoder.bitmap(of: rect))
            }
        }
        XCTAssertEqual([bitmap.x, bitmap.y, bitmap.width, bitmap.height], [10, 20, 4, 2])
        XCTAssertEqual(bitmap.pixels.count, 4 * 2 * 4)
        XCTAssertTrue(bitmap.pixel(x: 0, y: 0) == (0, 0, 0, 0))
        XCTAssertTrue(bitmap.pixel(x: 1, y: 0) == (255, 255, 255, 255))
        XCTAssertTrue(bitmap.pixel(x: 2, y: 0) == (0, 0, 128, 128), "half-transparent red, premultiplied")
        XCTAssertTrue(bitmap.pixel(x: 3, y: 0) == (0, 0, 0, 0), "an index past the palette is transparent")
        XCTAssertTrue(bitmap.pixel(x: 0, y: 1) == (0, 0, 128, 128))
        XCTAssertTrue(bitmap.pixel(x: 3, y: 1) == (255, 255, 255, 255))
    }

    func testPremultiplication() {
        XCTAssertEqual(SubtitleDecoder.premultipliedBGRA(argb: 0xFF12_3456), 0xFF12_3456)
        XCTAssertEqual(SubtitleDecoder.premultipliedBGRA(argb: 0x00FF_FFFF), 0)
        XCTAssertEqual(SubtitleDecoder.premultipliedBGRA(argb: 0x80FF_8000), 0x8080_4000)
    }

    /// A picture through FFmpeg's DVD subtitle encoder and back through `SubtitleDecoder`.
    func testDVDSubtitleRoundTrip() throws {
        let encoded = try DVDSubtitleEncoder(width: 720, height: 576)
        // A white bar with a black border, 60×10 at (330, 500), shown for 1.5 s.
        var indices = [UInt8](repeating: 0, count: 60 * 10)
        for y in 0..<10 { for x in 0..<60 { indices[y * 60 + x] = (y == 0 || y == 9 || x == 0 || x == 59) ? 2 : 1 } }
        let packet = try encoded.encode(indices: indices, width: 60, height: 10, x: 330, y: 500,
                                        palette: [0x0000_0000, 0xFFFF_FFFF, 0xFF00_0000], durationMs: 1500)

        let decoder = try SubtitleDecoder(parameters: encoded.parameters, timeBase: AVRational(num: 1, den: 1000), sourceName: "dvd")
        XCTAssertTrue(decoder.isBitmap)
        XCTAssertEqual(decoder.codecName, "dvd_subtitle")
        XCTAssertNil(decoder.assHeader)
        let cues = packet.withPacket(pts: 2000) { decoder.decode($0) }
        XCTAssertEqual(decoder.errorCount, 0)
        let cue = try XCTUnwrap(cues.first)
        XCTAssertEqual(cues.count, 1)
        XCTAssertEqual(cue.start, 2, accuracy: 0.001)
        XCTAssertEqual(cue.end, 3.5, accuracy: 0.02)
        guard case let .bitmap(bitmaps, canvas) = cue.content else { return XCTFail("not a bitmap cue") }
        XCTAssertEqual(canvas, SubtitleCanvas(width: 720, height: 576))
        let bitmap = try XCTUnwrap(bitmaps.first)
        XCTAssertEqual(bitmaps.count, 1)
        // The encoder may crop transparent edges; the bar itself keeps its place and colours.
        XCTAssertTrue(bitmap.x >= 330 && bitmap.x + bitmap.width <= 390, "\(bitmap.x) \(bitmap.width)")
        XCTAssertTrue(bitmap.y >= 500 && bitmap.y + bitmap.height <= 510, "\(bitmap.y) \(bitmap.height)")
        let inside = bitmap.pixel(x: 330 + 30 - bitmap.x, y: 500 + 5 - bitmap.y)
        XCTAssertTrue(inside.a == 255 && inside.r > 230 && inside.g > 230 && inside.b > 230, "\(inside)")
        let border = bitmap.pixel(x: 330 - bitmap.x, y: 500 + 5 - bitmap.y)
        XCTAssertTrue(border.a == 255 && border.r < 30 && border.g < 30 && border.b < 30, "\(border)")

        // Composed into the player area: the canvas maps onto a 1280×720 picture letterboxed at y 40.
        let image = try XCTUnwrap(ASSRenderer.image(for: bitmaps, canvas: canvas, videoRect: CGRect(x: 0, y: 40, width: 1280, height: 640)))
        let pixels = OverlayPixels(image)
        XCTAssertEqual(Double(pixels.minX), 330 * 1280 / 720, accuracy: 2)
        XCTAssertEqual(Double(pixels.maxX), 390 * 1280 / 720, accuracy: 2)
        XCTAssertEqual(Double(pixels.minY), 40 + 500 * 640 / 576, accuracy: 2)
        XCTAssertGreaterThan(pixels.white, 500)
        XCTAssertGreaterThan(pixels.dark, 100)
        XCTAssertEqual(pixels.invalid, 0)
    }

    func testEnlargedToTheVideoRectangle() throws {
        let white = SubtitleBitmap(x: 310, y: 500, width: 100, height: 20, pixels: [UInt8](repeating: 255, count: 100 * 20 * 4))
        let canvas = SubtitleCanvas(width: 720, height: 576)
        let image = try XCTUnwrap(ASSRenderer.image(for: [white], canvas: canvas, videoRect: CGRect(x: 100, y: 50, width: 1440, height: 1152)))
        XCTAssertEqual([image.x, image.y, image.width, image.height], [720, 1050, 200, 40])
        XCTAssertTrue(image.pixel(x: 100, y: 20) == (255, 255, 255, 255))
        XCTAssertTrue(image.pixel(x: 1, y: 1) == (255, 255, 255, 255), "bilinear: inside the picture stays solid")
        let edge = image.pixel(x: 0, y: 20)
        XCTAssertTrue(edge.a > 100 && edge.a < 255 && edge.r == edge.a, "the edge fades into transparency: \(edge)")
        XCTAssertEqual(OverlayPixels(image).invalid, 0)
    }

    /// Shrinking averages (like an area filter): one-pixel columns become an even half-alpha,
    /// where point sampling would keep or lose whole strokes.
    func testShrinkingAveragesThinStrokes() throws {
        var pixels = [UInt8](repeating: 0, count: 100 * 10 * 4)
        for y in 0..<10 { for x in stride(from: 0, to: 100, by: 2) { for c in 0..<4 { pixels[(y * 100 + x) * 4 + c] = 255 } } }
        let stripes = SubtitleBitmap(x: 0, y: 0, width: 100, height: 10, pixels: pixels)
        let image = try XCTUnwrap(ASSRenderer.image(for: [stripes], canvas: SubtitleCanvas(width: 100, height: 10),
                                                    videoRect: CGRect(x: 0, y: 0, width: 50, height: 5)))
        XCTAssertEqual([image.width, image.height], [50, 5])
        for x in 1..<49 {
            let p = image.pixel(x: x, y: 2)
            XCTAssertEqual(Double(p.a), 127.5, accuracy: 2, "column \(x)")
            XCTAssertEqual(p.r, p.a)
        }
    }

    func testSeveralPicturesMakeOneImage() throws {
        let red = SubtitleBitmap(x: 0, y: 0, width: 10, height: 10, pixels: [0, 0, 255, 255].repeated(100))
        let halfBlue = SubtitleBitmap(x: 5, y: 5, width: 10, height: 10, pixels: [128, 0, 0, 128].repeated(100))
        let image = try XCTUnwrap(ASSRenderer.image(for: [red, halfBlue], canvas: SubtitleCanvas(width: 20, height: 20),
                                                    videoRect: CGRect(x: 0, y: 0, width: 20, height: 20)))
        XCTAssertEqual([image.x, image.y, image.width, image.height], [0, 0, 15, 15])
        XCTAssertTrue(image.pixel(x: 2, y: 2) == (0, 0, 255, 255))
        XCTAssertTrue(image.pixel(x: 12, y: 12) == (128, 0, 0, 128))
        // Blue at half alpha over red: b = 128, r = 255 · (1 − 0.5).
        let over = image.pixel(x: 7, y: 7)
        XCTAssertTrue(over.b == 128 && over.g == 0 && abs(Int(over.r) - 127) <= 1 && over.a == 255, "\(over)")
        XCTAssertTrue(image.pixel(x: 12, y: 2) == (0, 0, 0, 0), "outside both pictures")
    }

    func testNothingToDraw() {
        let canvas = SubtitleCanvas(width: 720, height: 576)
        let rect = CGRect(x: 0, y: 0, width: 1280, height: 720)
        XCTAssertNil(ASSRenderer.image(for: [], canvas: canvas, videoRect: rect))
        let dot = SubtitleBitmap(x: 0, y: 0, width: 1, height: 1, pixels: [255, 255, 255, 255])
        XCTAssertNil(ASSRenderer.image(for: [dot], canvas: SubtitleCanvas(width: 0, height: 0), videoRect: rect))
        XCTAssertNil(ASSRenderer.image(for: [dot], canvas: canvas, videoRect: .zero))
        XCTAssertNil(ASSRenderer.image(for: [dot], canvas: canvas, videoRect: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 10)))
    }
}

private extension Array where Element == UInt8 {
    func repeated(_ count: Int) -> [UInt8] { Array([[UInt8]](repeating: self, count: count).joined()) }
}

/// FFmpeg's DVD subtitle encoder, to make real dvdsub packets.
private final class DVDSubtitleEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    let parameters: UnsafeMutablePointer<AVCodecParameters>

    init(width: Int32, height: Int32) throws {
        let codec = try XCTUnwrap(avcodec_find_encoder(AV_CODEC_ID_DVD_SUBTITLE), "FFmpeg has no dvdsub encoder")
        context = avcodec_alloc_context3(codec)
        let context = try XCTUnwrap(context)
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.time_base = AVRational(num: 1, den: 1000)
        XCTAssertGreaterThanOrEqual(avcodec_open2(context, codec, nil), 0)
        parameters = try XCTUnwrap(avcodec_parameters_alloc())
        XCTAssertGreaterThanOrEqual(avcodec_parameters_from_context(parameters, context), 0)
    }

    deinit {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&parameters)
        avcodec_free_context(&context)
    }

    struct EncodedPacket {
        var bytes: [UInt8]

        func withPacket<T>(pts: Int64, _ body: (UnsafeMutablePointer<AVPacket>) -> T) -> T {
            var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
            defer { av_packet_free(&packet) }
            guard let packet, av_new_packet(packet, Int32(bytes.count)) >= 0 else { fatalError("out of memory") }
            bytes.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
            packet.pointee.pts = pts
            packet.pointee.dts = pts
            return body(packet)
        }
    }

    func encode(indices: [UInt8], width: Int32, height: Int32, x: Int32, y: Int32, palette: [UInt32], durationMs: UInt32) throws -> EncodedPacket {
        var indices = indices
        var palette = palette + [UInt32](repeating: 0, count: 256 - palette.count)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let size = indices.withUnsafeMutableBufferPointer { indexBuffer in
            palette.withUnsafeMutableBytes { paletteBytes in
                var rect = AVSubtitleRect()
                rect.x = x; rect.y = y; rect.w = width; rect.h = height
                rect.type = SUBTITLE_BITMAP
                rect.nb_colors = 4
                rect.data.0 = indexBuffer.baseAddress
                rect.data.1 = paletteBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                rect.linesize.0 = width
                return withUnsafeMutablePointer(to: &rect) { rectPointer in
                    var rects: [UnsafeMutablePointer<AVSubtitleRect>?] = [rectPointer]
                    return rects.withUnsafeMutableBufferPointer { list in
                        var subtitle = AVSubtitle()
                        subtitle.num_rects = 1
                        subtitle.rects = list.baseAddress
                        subtitle.start_display_time = 0
                        subtitle.end_display_time = durationMs
                        subtitle.pts = 0
                        return avcodec_encode_subtitle(context, &buffer, Int32(buffer.count), &subtitle)
                    }
                }
            }
        }
        XCTAssertGreaterThan(size, 0, "dvdsub encoding failed: \(size)")
        return EncodedPacket(bytes: Array(buffer.prefix(Int(max(0, size)))))
    }
}
