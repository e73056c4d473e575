import LoopPlayerCore
import CFFmpeg
import FFmpegSupport
@testable import Filters
import XCTest

/// Brightness/contrast as a table over luma: every value as `lutyuv` gives it, the chroma is the
/// source picture's own (shared, not copied, and kept alive by the output), a picture the chain owns
/// alone is changed in place, and formats the table does not take get the same math through `lutyuv`.
final class LumaAdjusterTests: XCTestCase {
    private let adjustment = ColorAdjustment(brightness: 0.1, contrast: 1.5)

    /// A `width`×`height` picture of `format` whose luma runs through all 256 values and whose other
    /// planes hold 60 + their row.
    private func ramp(_ format: AVPixelFormat, width: Int = 96, height: Int = 16) throws -> OwnedFrame {
        guard let frame = OwnedFrame() else { throw FilterError(filter: "test", reason: "out of memory") }
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        XCTAssertGreaterThanOrEqual(av_frame_get_buffer(frame.pointer, 0), 0)
        let picture = frame.pointer.pointee
        for y in 0..<height { for x in 0..<width { picture.data.0![y * Int(picture.linesize.0) + x] = UInt8((y * width + x) % 256) } }
        let chromaRows = format == AV_PIX_FMT_YUV444P ? height : (height + 1) / 2
        for (plane, stride) in [(picture.data.1, picture.linesize.1), (picture.data.2, picture.linesize.2)] {
            guard let plane else { continue }
            for row in 0..<chromaRows { (plane + row * Int(stride)).update(repeating: UInt8(60 + row), count: Int(stride)) }
        }
        return frame
    }

    private func luma(of frame: UnsafeMutablePointer<AVFrame>) -> [UInt8] {
        let picture = frame.pointee
        return (0..<Int(picture.height)).flatMap { y in (0..<Int(picture.width)).map { picture.data.0![y * Int(picture.linesize.0) + $0] } }
    }

    /// The first chroma plane's first sample of each row.
    private func chromaRows(of frame: UnsafeMutablePointer<AVFrame>, rows: Int) -> [UInt8] {
        (0..<rows).map { frame.pointee.data.1![$0 * Int(frame.pointee.linesize.1)] }
    }

    private func process(_ chain: FilterChain, _ frame: borrowing OwnedFrame) throws -> [OwnedFrameBox] {
        var boxes: [OwnedFrameBox] = []
        try chain.process(frame, time: 0) { boxes.append(OwnedFrameBox($0)) }
        return boxes
    }

    func testEveryLumaValueAsLutyuvGivesItAndTheChromaIsSharedAndKeptAlive() throws {
        for format in [AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_NV12] {
            var result: [OwnedFrameBox] = []
            var before: [UInt8] = []
            do {
                let source = try ramp(format)
                before = luma(of: source.pointer)
                result = try process(FilterChain(stack: FilterStack(adjustment: adjustment), timeBase: AVRational(num: 1, den: 30)), source)
                XCTAssertEqual(result.count, 1)
                XCTAssertEqual(result.first?.frame.pointer.pointee.data.1, source.pointer.pointee.data.1, "chroma shared, not copied")
                XCTAssertEqual(luma(of: source.pointer), before, "the source picture is left alone")
            }
            // The source and the chain are gone: the output holds its own references.
            let output = try XCTUnwrap(result.first).frame.pointer
            XCTAssertEqual(output.pointee.format, format.rawValue, "the format is kept")
            XCTAssertEqual(luma(of: output), before.map { adjustment.lumaTable[Int($0)] }, "\(format)")
            XCTAssertEqual(chromaRows(of: output, rows: 8), (60..<68).map(UInt8.init), "\(format)")
            XCTAssertNotNil(av_frame_get_plane_buffer(output, 1))
            let copy = try XCTUnwrap(av_frame_clone(output))
            var doomed: UnsafeMutablePointer<AVFrame>? = copy
            XCTAssertGreaterThanOrEqual(av_frame_make_writable(copy), 0)
            XCTAssertEqual(luma(of: copy), luma(of: output))
            XCTAssertEqual(chromaRows(of: copy, rows: 8), (60..<68).map(UInt8.init))
            av_frame_free(&doomed)
        }
    }

    /// The table and `lutyuv` agree to the level over a grid of settings, halves included
    /// (brightness 0.1 with contrast 1.2 puts Y 23 exactly on 27.5).
    func testTheTableIsLutyuvForEverySetting() throws {
        let source = try ramp(AV_PIX_FMT_YUV444P, width: 64, height: 4)  // lutyuv runs on it (the table does not take 4:4:4)
        let values = luma(of: source.pointer)
        for brightness in stride(from: Float(-0.5), through: 0.5, by: 0.1) {
            for contrast in [Float(0.5), 0.8, 1, 1.2, 1.5, 2.5] {
                let setting = ColorAdjustment(brightness: brightness, contrast: contrast)
                let outputs = try process(FilterChain(stack: FilterStack(adjustment: setting), timeBase: AVRational(num: 1, den: 30)), source)
                let expected = values.map { setting.lumaTable[Int($0)] }
                XCTAssertEqual(luma(of: try XCTUnwrap(outputs.first).frame.pointer), expected, "brightness \(brightness), contrast \(contrast)")
            }
        }
    }

    func testAnotherFormatGoesThroughLutyuvAndFollowsChanges() throws {
        for (format, range) in [(AV_PIX_FMT_YUV444P, AVCOL_RANGE_MPEG), (AV_PIX_FMT_NV12, AVCOL_RANGE_JPEG)] {
            let source = try ramp(format)
            source.pointer.pointee.color_range = range
            XCTAssertFalse(LumaAdjuster.accepts(source.pointer), "\(format)")
            let chain = FilterChain(stack: FilterStack(adjustment: adjustment), timeBase: AVRational(num: 1, den: 30))
            let first = try process(chain, source)
            XCTAssertNotEqual(first.first?.frame.pointer.pointee.data.1, source.pointer.pointee.data.1, "made by the graph")
            let darker = ColorAdjustment(brightness: -0.2, contrast: 0.8)
            chain.setAdjustment(darker)
            let second = try process(chain, source)
            XCTAssertNotEqual(luma(of: try XCTUnwrap(second.first).frame.pointer), luma(of: try XCTUnwrap(first.first).frame.pointer),
                              "a change applies to the next picture (\(format))")
        }
        // The numbers themselves, where no range conversion comes between (4:4:4).
        let source = try ramp(AV_PIX_FMT_YUV444P)
        let outputs = try process(FilterChain(stack: FilterStack(adjustment: adjustment), timeBase: AVRational(num: 1, den: 30)), source)
        XCTAssertEqual(luma(of: try XCTUnwrap(outputs.first).frame.pointer), luma(of: source.pointer).map { adjustment.lumaTable[Int($0)] })
    }

    func testAPictureOwnedAloneIsChangedInPlace() throws {
        let frame = try ramp(AV_PIX_FMT_YUV420P)
        let before = luma(of: frame.pointer), address = frame.pointer.pointee.data.0
        XCTAssertNotEqual(av_frame_is_writable(frame.pointer), 0)
        guard let adjusted = LumaAdjuster(adjustment).apply(to: frame) else { return XCTFail("no output") }
        XCTAssertEqual(adjusted.pointer.pointee.data.0, address, "no new plane")
        XCTAssertEqual(luma(of: adjusted.pointer), before.map { adjustment.lumaTable[Int($0)] })
    }

    func testAChangeAppliesToTheNextPictureAndNoAdjustmentPassesThePictureOn() throws {
        let source = try ramp(AV_PIX_FMT_YUV420P)
        let before = luma(of: source.pointer)
        let chain = FilterChain(stack: FilterStack(adjustment: adjustment), timeBase: AVRational(num: 1, den: 30))
        _ = try process(chain, source)
        let darker = ColorAdjustment(brightness: -0.2, contrast: 0.8)
        chain.setAdjustment(darker)
        let darkened = try process(chain, source)
        XCTAssertEqual(luma(of: try XCTUnwrap(darkened.first).frame.pointer), before.map { darker.lumaTable[Int($0)] })
        chain.setAdjustment(ColorAdjustment())
        let untouched = try process(chain, source)
        XCTAssertEqual(untouched.first?.frame.pointer.pointee.data.0, source.pointer.pointee.data.0, "no copy at all")
    }
}

/// Keeps an owned frame in an array.
final class OwnedFrameBox {
    let frame: OwnedFrame
    init(_ frame: consuming OwnedFrame) { self.frame = frame }
}
