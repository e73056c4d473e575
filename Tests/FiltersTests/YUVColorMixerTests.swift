import CFFmpeg
import FFmpegSupport
@testable import Filters
import XCTest

/// Sepia and colour matrices run on the YUV picture itself: the same colours as libavfilter's
/// `colorchannelmixer` between conversions to RGB and back (what a raw chain still runs), without them.
final class YUVColorMixerTests: XCTestCase {
    /// Every luma level against chroma that sweeps the whole plane, out-of-gamut corners included; the
    /// top rows are bright enough for sepia to clip red and green.
    private func sweep(width: Int, height: Int) -> TestFrame {
        TestFrame(width: width, height: height,
                  luma: { x, y in y < 8 ? 235 : UInt8(16 + (x * 7 + y * 3) % 220) },
                  chroma: { x, y in (UInt8(16 + (x * 5) % 225), UInt8(16 + (y * 9 + x) % 225)) })
    }

    /// Smooth colours inside the gamut, as a camera gives them: RGB gradients in YUV (BT.709 or
    /// BT.601 by `kr`/`kb`, limited range unless `fullRange`).
    private func natural(width: Int, height: Int, kr: Double, kb: Double, fullRange: Bool = false) -> TestFrame {
        func rgb(_ x: Double, _ y: Double) -> (Double, Double, Double) {
            (40 + 180 * x / Double(width), 30 + 200 * y / Double(height), 220 - 150 * (x + y) / Double(width + height))
        }
        func yuv(_ colour: (Double, Double, Double)) -> (Double, Double, Double) {
            let luma = kr * colour.0 + (1 - kr - kb) * colour.1 + kb * colour.2
            let (offset, lumaScale, chromaScale) = fullRange ? (0.0, 1.0, 1.0) : (16.0, 219.0 / 255, 224.0 / 255)
            return (offset + luma * lumaScale, 128 + (colour.2 - luma) / (2 * (1 - kb)) * chromaScale,
                    128 + (colour.0 - luma) / (2 * (1 - kr)) * chromaScale)
        }
        return TestFrame(width: width, height: height,
                         luma: { x, y in UInt8(yuv(rgb(Double(x), Double(y))).0.rounded()) },
                         chroma: { x, y in
                             let value = yuv(rgb(Double(2 * x) + 0.5, Double(2 * y) + 0.5))
                             return (UInt8(value.1.rounded()), UInt8(value.2.rounded()))
                         })
    }

    /// What the mix makes of `frame`, computed in double precision: each pixel to RGB (clipped), mixed
    /// (clipped), its luma from its own colour, each block's chroma from the mean of its four colours
    /// (an odd size's last column or row counts twice).
    private func exact(_ frame: TestFrame, _ matrix: ColorMatrix, kr: Double, kb: Double, fullRange: Bool) -> Picture.Planes {
        let source = Picture(frame.frame)
        let offset = fullRange ? 0.0 : 16, lumaScale = fullRange ? 1.0 : 255.0 / 219, chromaScale = fullRange ? 1.0 : 255.0 / 224
        let kg = 1 - kr - kb, m = matrix.values
        func clip(_ v: Double) -> Double { min(255, max(0, v)) }
        func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, v.rounded()))) }
        func mixed(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let luma = (Double(source.y[y][x]) - offset) * lumaScale
            let cb = (Double(source.u[y / 2][x / 2]) - 128) * chromaScale, cr = (Double(source.v[y / 2][x / 2]) - 128) * chromaScale
            let r = clip(luma + 2 * (1 - kr) * cr), b = clip(luma + 2 * (1 - kb) * cb)
            let g = clip(luma - 2 * kb * (1 - kb) / kg * cb - 2 * kr * (1 - kr) / kg * cr)
            return (clip(m[0] * r + m[1] * g + m[2] * b), clip(m[3] * r + m[4] * g + m[5] * b), clip(m[6] * r + m[7] * g + m[8] * b))
        }
        var planes = Picture.Planes(y: source.y, u: source.u, v: source.v)
        for y in 0..<source.height {
            for x in 0..<source.width {
                let colour = mixed(x, y)
                planes.y[y][x] = byte(offset + (kr * colour.0 + kg * colour.1 + kb * colour.2) / lumaScale)
            }
        }
        for cy in 0..<source.u.count {
            for cx in 0..<source.u[cy].count {
                let xs = [2 * cx, min(2 * cx + 1, source.width - 1)], ys = [2 * cy, min(2 * cy + 1, source.height - 1)]
                var sum = (0.0, 0.0, 0.0)
                for y in ys { for x in xs { let c = mixed(x, y); sum = (sum.0 + c.0, sum.1 + c.1, sum.2 + c.2) } }
                let (r, g, b) = (sum.0 / 4, sum.1 / 4, sum.2 / 4)
                let luma = kr * r + kg * g + kb * b
                planes.u[cy][cx] = byte(128 + (b - luma) / (2 * (1 - kb)) / chromaScale)
                planes.v[cy][cx] = byte(128 + (r - luma) / (2 * (1 - kr)) / chromaScale)
            }
        }
        return planes
    }

    /// The mean and largest difference of each plane.
    private func differences(_ mine: Picture.Planes, _ theirs: Picture.Planes) -> [(mean: Double, max: Int)] {
        zip([mine.y, mine.u, mine.v], [theirs.y, theirs.u, theirs.v]).map { a, b in
            let differences = zip(a.joined(), b.joined()).map { abs(Int($0) - Int($1)) }
            return (Double(differences.reduce(0, +)) / Double(differences.count), differences.max() ?? 0)
        }
    }

    func testTheMixIsExactEverywhere() throws {
        let sepia = try XCTUnwrap(VideoFilter.sepia().rgbMatrix)
        let swap = ColorMatrix([0, 0, 1, 0, 1, 0, 1, 0, 0])
        // Tagged HD, untagged SD (BT.601), odd sizes, full range. The mixer itself: a chain's first
        // graph hands it limited range (its `format=yuv420p` converts a full-range picture).
        let cases: [(Int, Int, AVColorSpace, Bool, ColorMatrix, Double, Double)] = [
            (1280, 720, AVCOL_SPC_BT709, false, sepia, 0.2126, 0.0722),
            (640, 360, AVCOL_SPC_UNSPECIFIED, false, sepia, 0.299, 0.114),
            (321, 241, AVCOL_SPC_BT709, false, swap, 0.2126, 0.0722),
            (256, 128, AVCOL_SPC_BT709, true, sepia, 0.2126, 0.0722),
        ]
        for (width, height, space, fullRange, matrix, kr, kb) in cases {
            let frame = sweep(width: width, height: height)
            frame.pointer.pointee.colorspace = space
            if fullRange {
                frame.pointer.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
                frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
            }
            let expected = exact(frame, matrix, kr: kr, kb: kb, fullRange: fullRange)
            guard let output = YUVColorMixer(matrix: matrix).apply(to: frame.frame) else { return XCTFail("no output") }
            let mixed = Picture(output)
            for (name, plane) in zip(["Y", "Cb", "Cr"], differences(mixed.planes, expected)) {
                XCTAssertLessThanOrEqual(plane.max, 1, "\(name) at \(width)x\(height): off by more than rounding")
                XCTAssertLessThan(plane.mean, 0.01, "\(name) at \(width)x\(height)")
            }
        }
    }

    /// Against the RGB round trip a raw chain runs: within that path's own rounding (8-bit RGB twice,
    /// swscale's fixed point), which is the less exact of the two.
    func testSepiaMatchesLibavfiltersMixThroughRGB() throws {
        let sepia = try XCTUnwrap(VideoFilter.sepia().rgbMatrix)
        for (width, height, space, kr, kb) in [(1280, 720, AVCOL_SPC_BT709, 0.2126, 0.0722), (640, 360, AVCOL_SPC_UNSPECIFIED, 0.299, 0.114)] {
            let frame = natural(width: width, height: height, kr: kr, kb: kb)
            frame.pointer.pointee.colorspace = space
            let native = try filter(frame, FilterStack([.colorMatrix(sepia)]))
            let reference = try filter(frame, FilterStack([.ffmpeg(sepia.graphDescription)]))
            let expected = exact(frame, sepia, kr: kr, kb: kb, fullRange: false)
            let nativeError = differences(native.planes, expected), referenceError = differences(reference.planes, expected)
            for (index, (name, plane)) in zip(["Y", "Cb", "Cr"], differences(native.planes, reference.planes)).enumerated() {
                XCTAssertLessThan(plane.mean, 1.5, "\(name) at \(width)x\(height): mean difference")
                XCTAssertLessThanOrEqual(plane.max, 3, "\(name) at \(width)x\(height): largest difference")
                XCTAssertLessThanOrEqual(nativeError[index].mean, referenceError[index].mean, "\(name): closer to the exact mix")
            }
            print("sepia at \(width)x\(height), mean error against the exact mix (Y, Cb, Cr): YUV mixer",
                  nativeError.map(\.mean), "libavfilter through RGB", referenceError.map(\.mean))
        }
    }

    /// The identity matrix gives the picture back (its block's chroma is the mean of four colours
    /// whose chroma it was), in limited and full range: the conversions both ways agree.
    func testTheIdentityMatrixGivesThePictureBack() throws {
        for fullRange in [false, true] {
            let frame = natural(width: 320, height: 180, kr: 0.2126, kb: 0.0722, fullRange: fullRange)
            frame.pointer.pointee.colorspace = AVCOL_SPC_BT709
            if fullRange {
                frame.pointer.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
                frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
            }
            guard let output = YUVColorMixer(matrix: .identity).apply(to: frame.frame) else { return XCTFail("no output") }
            for (name, plane) in zip(["Y", "Cb", "Cr"], differences(Picture(output).planes, Picture(frame.frame).planes)) {
                XCTAssertLessThanOrEqual(plane.max, 1, "\(name), full range \(fullRange)")
                XCTAssertLessThan(plane.mean, 0.1, "\(name), full range \(fullRange)")
            }
        }
    }

    func testSepiaOfWhiteIsCreamAndOfBlackStaysBlack() throws {
        // White through sepia: R and G clip at 255, B = 0.937 · 255 (an untagged 64x32 picture is BT.601).
        let white = try filter(TestFrame(grey: 235, width: 64, height: 32), .sepia())
        let black = try filter(TestFrame(grey: 16, width: 64, height: 32), .sepia())
        XCTAssertEqual(white.meanY, 16 + (0.299 * 255 + 0.587 * 255 + 0.114 * 0.937 * 255) * 219 / 255, accuracy: 0.6)
        XCTAssertLessThan(white.meanU, 128, "blue falls below the others: Cb goes down")
        XCTAssertEqual(black.meanY, 16, accuracy: 0.01)
        // Full range: white is Y 255 and comes back at the same cream, on the full scale (read as
        // limited range it would come back near 234).
        let fullWhite = TestFrame(grey: 255, width: 64, height: 32)
        fullWhite.pointer.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        fullWhite.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        guard let mixed = YUVColorMixer(matrix: try XCTUnwrap(VideoFilter.sepia().rgbMatrix)).apply(to: fullWhite.frame) else {
            return XCTFail("no output")
        }
        XCTAssertEqual(Picture(mixed).meanY, 0.299 * 255 + 0.587 * 255 + 0.114 * 0.937 * 255, accuracy: 0.6)
        XCTAssertEqual(black.meanU, 128, accuracy: 0.01)
        XCTAssertEqual(black.meanV, 128, accuracy: 0.01)
    }

    func testTheOutputIsANewPictureWithTheSourcesTimeAndMatrix() throws {
        let frame = sweep(width: 64, height: 32)
        frame.pointer.pointee.pts = 1234
        let before = Picture(frame.frame)
        let chain = FilterChain(stack: FilterStack([.sepia()]), timeBase: AVRational(num: 1, den: 30))
        var tags: [(Int64, AVColorSpace)] = []
        try chain.process(frame.frame, time: 0) { output in tags.append((output.pointer.pointee.pts, output.pointer.pointee.colorspace)) }
        XCTAssertEqual(tags.map(\.0), [1234])
        XCTAssertEqual(tags.map(\.1), [AVCOL_SPC_SMPTE170M], "an untagged 64x32 picture is read as BT.601")
        XCTAssertEqual(Picture(frame.frame).y, before.y, "the source picture is left alone")
    }

    /// Which matrices run on YUV: only where their libavfilter neighbours do not work in RGB anyway.
    func testMatricesJoinARGBGraphOnlyNextToRGBFilters() {
        struct Tint: PixelFilter { func apply(to picture: PixelPlanes, time: Double) {} }
        let sepia = FilterStack.Stage.filter(.sepia())
        let cases: [([FilterStack.Stage], Set<Int>)] = [
            ([sepia], [0]),
            ([sepia, .filter(.vignette())], [0]),
            ([.filter(.gaussianBlur(sigma: 2)), sepia, .filter(.vignette())], [1]),
            ([sepia, .filter(.colorMatrix(.identity))], [0, 1]),
            ([.filter(.curves(.vintage)), sepia], []),
            ([sepia, .filter(.posterize(levels: 4))], []),
            ([sepia, .filter(.ffmpeg("hqdn3d"))], []),
            ([.custom(Tint()), sepia], [1]),
            ([.filter(.posterize(levels: 4)), sepia, .filter(.vignette()), sepia], [3]),
        ]
        for (stages, expected) in cases {
            XCTAssertEqual(FilterChain.matricesMixedInYUV(stages), expected, "\(stages.map { "\($0)" })")
        }
    }
}
