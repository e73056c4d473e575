import CFFmpeg
import FFmpegSupport
@testable import LoopPlayerMedia
import LoopPlayerCore
import XCTest

/// `VideoFrame.sample` on real FFmpeg pictures: a uniform grey picture converted by swscale into each
/// pixel format the sampler reads, one it cannot read, and a flipped one.
final class PictureSampleTests: XCTestCase {
    private static let (width, height) = (64, 36)

    /// FFmpeg could not allocate a picture.
    private struct Unmade: Error {}

    /// A `width`×`height` picture of `format`: swscale's conversion of a uniform grey of `grey`.
    private func picture(_ format: AVPixelFormat, grey: UInt8) throws -> OwnedFrame {
        guard let source = OwnedFrame() else { throw Unmade() }
        source.pointer.pointee.format = AV_PIX_FMT_GRAY8.rawValue
        (source.pointer.pointee.width, source.pointer.pointee.height) = (Int32(Self.width), Int32(Self.height))
        XCTAssertEqual(av_frame_get_buffer(source.pointer, 0), 0)
        let linesize = Int(source.pointer.pointee.linesize.0)
        guard let plane = source.pointer.pointee.data.0 else { throw Unmade() }
        memset(plane, Int32(grey), linesize * Self.height)
        guard let target = OwnedFrame() else { throw Unmade() }
        target.pointer.pointee.format = format.rawValue
        (target.pointer.pointee.width, target.pointer.pointee.height) = (Int32(Self.width), Int32(Self.height))
        XCTAssertEqual(av_frame_get_buffer(target.pointer, 0), 0)
        let scaler = try XCTUnwrap(sws_getContext(Int32(Self.width), Int32(Self.height), AV_PIX_FMT_GRAY8, Int32(Self.width),
                                                  Int32(Self.height), format, SWS_POINT, nil, nil, nil))
        defer { sws_freeContext(scaler) }
        XCTAssertGreaterThanOrEqual(sws_scale_frame(scaler, target.pointer, source.pointer), 0, "\(format)")
        return target
    }

    private func frame(_ picture: consuming OwnedFrame) -> VideoFrame {
        VideoFrame(picture: picture, unfiltered: nil, time: 0, duration: 1.0 / 30, pass: 0, positionInPass: 0,
                   generation: 0, rotation: 0, streamAspect: 1)
    }

    func testEachReadableFormatTellsBlackFromWhite() throws {
        let formats = [AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_NV12, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P,
                       AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_P010LE, AV_PIX_FMT_GRAY8, AV_PIX_FMT_BGRA, AV_PIX_FMT_ARGB,
                       AV_PIX_FMT_RGB24, AV_PIX_FMT_RGBA]
        for format in formats {
            let black = try XCTUnwrap(frame(try picture(format, grey: 0)).sample, "\(format)")
            let white = try XCTUnwrap(frame(try picture(format, grey: 255)).sample, "\(format)")
            XCTAssertTrue(black.isBlack, "\(format)")
            XCTAssertFalse(white.isBlack, "\(format)")
            XCTAssertNotEqual(black.fingerprint, white.fingerprint, "\(format)")
            let grey = try XCTUnwrap(frame(try picture(format, grey: 128)).sample, "\(format)")
            XCTAssertFalse(grey.isBlack, "\(format): a mid grey is not black (a wrong shift would read it as dark)")
        }
    }

    func testAPaletteOrBigEndianPictureCannotBeSampled() throws {
        for format in [AV_PIX_FMT_PAL8, AV_PIX_FMT_YUV420P10BE, AV_PIX_FMT_MONOBLACK] {
            guard let picture = OwnedFrame() else { throw Unmade() }
            picture.pointer.pointee.format = format.rawValue
            (picture.pointer.pointee.width, picture.pointer.pointee.height) = (Int32(Self.width), Int32(Self.height))
            XCTAssertEqual(av_frame_get_buffer(picture.pointer, 0), 0)
            let sample = frame(picture).sample
            XCTAssertNil(sample, "\(format)")
        }
    }

    /// The rows walked upwards (a negative line size, as vflip makes them): read, not taken for black.
    func testAFlippedPictureIsRead() throws {
        let upright = try picture(AV_PIX_FMT_YUV420P, grey: 255)
        let uprightSample = try XCTUnwrap(frame(try picture(AV_PIX_FMT_YUV420P, grey: 255)).sample)
        let linesize = upright.pointer.pointee.linesize.0
        upright.pointer.pointee.data.0 = upright.pointer.pointee.data.0.map { $0 + Int(linesize) * (Self.height - 1) }
        upright.pointer.pointee.linesize.0 = -linesize
        let flippedSample = frame(upright).sample
        let flipped = try XCTUnwrap(flippedSample)
        XCTAssertFalse(flipped.isBlack)
        XCTAssertEqual(flipped.fingerprint, uprightSample.fingerprint, "a uniform picture reads the same either way up")
    }
}
