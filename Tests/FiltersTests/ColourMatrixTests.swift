import LoopPlayerCore
import CFFmpeg
import FFmpegSupport
import Filters
import XCTest

/// A filter that works in RGB leaves the colours of the picture it does not change where they were:
/// the conversions into RGB and back use the picture's own matrix (swscale's default is BT.601, which
/// shifted an HD picture's colours), and the result says which matrix it carries.
final class ColourMatrixTests: XCTestCase {
    /// An orange in BT.709 (R 200, G 60, B 40), limited range: Y 88, Cb 105, Cr 190.
    private func orange(width: Int, height: Int, tagged space: AVColorSpace) -> TestFrame {
        let frame = TestFrame(width: width, height: height, luma: { _, _ in 88 }, chroma: { _, _ in (105, 190) })
        frame.pointer.pointee.colorspace = space
        return frame
    }

    /// The identity matrix through `colorchannelmixer` (RGB only; a raw chain, so that libavfilter
    /// runs it rather than `YUVColorMixer`): the picture comes back as it was.
    private func roundTrip(_ frame: TestFrame) throws -> (Picture, AVColorSpace) {
        let chain = FilterChain(stack: FilterStack([.ffmpeg("colorchannelmixer=gg=1.0001")]),
                                timeBase: AVRational(num: 1, den: 30))
        var result: (Picture, AVColorSpace)?
        try chain.process(frame.frame, time: 0) { output throws(FilterError) in
            result = (Picture(output), output.pointer.pointee.colorspace)
        }
        return try XCTUnwrap(result)
    }

    func testAnHDPictureKeepsItsColoursThroughRGB() throws {
        for space in [AVCOL_SPC_BT709, AVCOL_SPC_UNSPECIFIED] {
            let (out, tag) = try roundTrip(orange(width: 1280, height: 720, tagged: space))
            XCTAssertEqual(out.meanY, 88, accuracy: 2.5, "tag \(space.rawValue)")
            XCTAssertEqual(out.meanU, 105, accuracy: 2.5, "tag \(space.rawValue)")
            XCTAssertEqual(out.meanV, 190, accuracy: 2.5, "tag \(space.rawValue)")
            XCTAssertEqual(tag, AVCOL_SPC_BT709, "the matrix the picture was made with")
        }
    }

    func testAnSDPictureKeepsBT601() throws {
        // The same values read as BT.601 are another colour; they too come back unchanged.
        let (out, tag) = try roundTrip(orange(width: 640, height: 360, tagged: AVCOL_SPC_UNSPECIFIED))
        XCTAssertEqual(out.meanY, 88, accuracy: 2.5)
        XCTAssertEqual(out.meanU, 105, accuracy: 2.5)
        XCTAssertEqual(out.meanV, 190, accuracy: 2.5)
        XCTAssertEqual(tag, AVCOL_SPC_SMPTE170M)
    }
}
