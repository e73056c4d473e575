import CFFmpeg
import FFmpegSupport
@testable import Filters
import XCTest

/// Brightness/contrast as a table over luma: every value follows `ColorAdjustment`'s math, the chroma
/// is the source picture's own (shared, not copied), and formats the table does not take still get
/// the same math through `lutyuv`, including later changes.
final class LumaAdjusterTests: XCTestCase {
    private let adjustment = ColorAdjustment(brightness: 0.1, contrast: 1.5)

    /// A picture of `format` whose luma runs through all 256 values and whose other planes hold 77.
    private func ramp(_ format: AVPixelFormat, width: Int = 64, height: Int = 16) throws -> OwnedFrame {
        guard let frame = OwnedFrame() else { throw FilterError(filter: "test", reason: "out of memory") }
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        XCTAssertGreaterThanOrEqual(av_frame_get_buffer(frame.pointer, 0), 0)
        XCTAssertGreaterThanOrEqual(av_frame_make_writable(frame.pointer), 0)
        let picture = frame.pointer.pointee
        for y in 0..<height { for x in 0..<width { picture.data.0![y * Int(picture.linesize.0) + x] = UInt8((y * width + x) % 256) } }
        for plane in [picture.data.1, picture.data.2].compactMap({ $0 }) {
            plane.update(repeating: 77, count: Int(picture.linesize.1) * height)  // rows × stride covers every layout here
        }
        return frame
    }

    private func outputs(_ stack: FilterStack, _ frame: borrowing OwnedFrame, chain: FilterChain? = nil) throws -> [OwnedFrameBox] {
        let chain = chain ?? FilterChain(stack: stack, timeBase: AVRational(num: 1, den: 30))
        var boxes: [OwnedFrameBox] = []
        try chain.process(frame, time: 0) { boxes.append(OwnedFrameBox($0)) }
        return boxes
    }

    private func luma(of frame: UnsafeMutablePointer<AVFrame>) -> [UInt8] {
        let picture = frame.pointee
        return (0..<Int(picture.height)).flatMap { y in (0..<Int(picture.width)).map { picture.data.0![y * Int(picture.linesize.0) + $0] } }
    }

    func testEveryLumaValueFollowsTheMathAndTheChromaIsShared() throws {
        for format in [AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12] {
            let source = try ramp(format)
            let before = luma(of: source.pointer)
            let result = try outputs(FilterStack(adjustment: adjustment), source)
            XCTAssertEqual(result.count, 1)
            let output = result[0].frame.pointer
            XCTAssertEqual(output.pointee.format, format.rawValue, "the format is kept")
            XCTAssertEqual(luma(of: output), before.map(adjustment.adjust(luma:)), "\(format)")
            XCTAssertEqual(output.pointee.data.1, source.pointer.pointee.data.1, "chroma shared, not copied")
            XCTAssertEqual(output.pointee.data.2, source.pointer.pointee.data.2)
            XCTAssertEqual(luma(of: source.pointer), before, "the source picture is left alone")
        }
    }

    func testAnotherFormatGetsTheSameMathThroughLutyuvAndFollowsChanges() throws {
        let source = try ramp(AV_PIX_FMT_YUV444P)
        let before = luma(of: source.pointer)
        let chain = FilterChain(stack: FilterStack(adjustment: adjustment), timeBase: AVRational(num: 1, den: 30))
        let first = try outputs(FilterStack(), source, chain: chain)
        XCTAssertEqual(first.count, 1)
        // lutyuv evaluates the same expression (floor(x + 0.5)); the table rounds half away from zero:
        // the same for every value that is not clipped to 0.
        XCTAssertEqual(luma(of: first[0].frame.pointer), before.map(adjustment.adjust(luma:)))
        let darker = ColorAdjustment(brightness: -0.2, contrast: 0.8)
        chain.setAdjustment(darker)
        let second = try outputs(FilterStack(), source, chain: chain)
        XCTAssertEqual(luma(of: second[0].frame.pointer), before.map(darker.adjust(luma:)), "a change applies to the next picture")
    }

    func testAChangeAppliesToTheNextPictureAndNoAdjustmentPassesThePictureOn() throws {
        let source = try ramp(AV_PIX_FMT_YUV420P)
        let before = luma(of: source.pointer)
        let chain = FilterChain(stack: FilterStack(adjustment: adjustment), timeBase: AVRational(num: 1, den: 30))
        _ = try outputs(FilterStack(), source, chain: chain)
        let darker = ColorAdjustment(brightness: -0.2, contrast: 0.8)
        chain.setAdjustment(darker)
        let darkened = try outputs(FilterStack(), source, chain: chain)
        XCTAssertEqual(luma(of: darkened[0].frame.pointer), before.map(darker.adjust(luma:)))
        chain.setAdjustment(ColorAdjustment())
        let untouched = try outputs(FilterStack(), source, chain: chain)
        XCTAssertEqual(untouched[0].frame.pointer.pointee.data.0, source.pointer.pointee.data.0, "no copy at all")
    }
}

/// Keeps an owned frame in an array.
final class OwnedFrameBox {
    let frame: OwnedFrame
    init(_ frame: consuming OwnedFrame) { self.frame = frame }
}
