import CFFmpeg
import FFmpegSupport
import Filters
import XCTest

/// Owned yuv420p test pictures made in memory, and readers for filter output.
final class TestFrame {
    let frame: OwnedFrame
    var pointer: UnsafeMutablePointer<AVFrame> { frame.pointer }

    /// A `width`×`height` picture whose luma is `luma(x, y)` and chroma `chroma(x, y)` (half size).
    init(width: Int = 64, height: Int = 32, luma: (Int, Int) -> UInt8,
         chroma: (Int, Int) -> (UInt8, UInt8) = { _, _ in (128, 128) }) {
        frame = OwnedFrame()!
        let pointer = frame.pointer
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        pointer.pointee.pts = 0
        precondition(av_frame_get_buffer(pointer, 0) >= 0)
        let planes = TestFrame.planes(pointer)
        for y in 0..<height { for x in 0..<width { planes.luma[y * planes.lumaStride + x] = luma(x, y) } }
        for y in 0..<((height + 1) / 2) {
            for x in 0..<((width + 1) / 2) {
                let (u, v) = chroma(x, y)
                planes.cb[y * planes.chromaStride + x] = u
                planes.cr[y * planes.chromaStride + x] = v
            }
        }
    }

    convenience init(grey: UInt8, width: Int = 64, height: Int = 32) {
        self.init(width: width, height: height, luma: { _, _ in grey })
    }

    static func planes(_ frame: UnsafeMutablePointer<AVFrame>) -> PixelPlanes {
        PixelPlanes(width: Int(frame.pointee.width), height: Int(frame.pointee.height), luma: frame.pointee.data.0!,
                    lumaStride: Int(frame.pointee.linesize.0), cb: frame.pointee.data.1!, cr: frame.pointee.data.2!,
                    chromaStride: Int(frame.pointee.linesize.1))
    }
}

/// A filtered picture's values, copied out.
struct Picture {
    let width: Int
    let height: Int
    let y: [[UInt8]]
    let u: [[UInt8]]
    let v: [[UInt8]]

    init(_ frame: borrowing OwnedFrame) {
        let planes = TestFrame.planes(frame.pointer)
        width = planes.width
        height = planes.height
        y = (0..<planes.height).map { row in (0..<planes.width).map { planes.luma[row * planes.lumaStride + $0] } }
        u = (0..<planes.chromaHeight).map { row in (0..<planes.chromaWidth).map { planes.cb[row * planes.chromaStride + $0] } }
        v = (0..<planes.chromaHeight).map { row in (0..<planes.chromaWidth).map { planes.cr[row * planes.chromaStride + $0] } }
    }

    /// The three planes as rows of samples.
    struct Planes {
        var y: [[UInt8]]
        var u: [[UInt8]]
        var v: [[UInt8]]
    }

    var planes: Planes { Planes(y: y, u: u, v: v) }

    var meanY: Double { Double(y.joined().map(Int.init).reduce(0, +)) / Double(width * height) }
    var meanU: Double { Double(u.joined().map(Int.init).reduce(0, +)) / Double(u.joined().count) }
    var meanV: Double { Double(v.joined().map(Int.init).reduce(0, +)) / Double(v.joined().count) }
}

/// Runs `frame` through a stack; one picture comes out.
func filter(_ frame: TestFrame, _ stack: FilterStack, file: StaticString = #filePath, line: UInt = #line) throws -> Picture {
    let chain = FilterChain(stack: stack, timeBase: AVRational(num: 1, den: 30))
    let outputs = try pictures(chain, frame, time: 0)
    XCTAssertEqual(outputs.count, 1, file: file, line: line)
    return outputs[0]
}

/// Every picture `chain` makes of `frame`.
func pictures(_ chain: FilterChain, _ frame: TestFrame, time: Double) throws -> [Picture] {
    var outputs: [Picture] = []
    try chain.process(frame.frame, time: time) { outputs.append(Picture($0)) }
    return outputs
}

func filter(_ frame: TestFrame, _ filters: VideoFilter..., brightness: Float = 0, contrast: Float = 1) throws -> Picture {
    try filter(frame, FilterStack(filters, adjustment: ColorAdjustment(brightness: brightness, contrast: contrast)))
}
