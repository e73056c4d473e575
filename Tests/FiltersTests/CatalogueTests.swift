import LoopPlayerCore
import CFFmpeg
import Filters
import Foundation
import XCTest

/// Each filter of the catalogue changes a generated picture the way its definition says.
final class CatalogueTests: XCTestCase {
    /// Reddish picture: Y 100, U 100, V 180.
    private var colourful: TestFrame { TestFrame(luma: { _, _ in 100 }, chroma: { _, _ in (100, 180) }) }
    /// Left half dark (40), right half bright (200): an edge in the middle.
    private var edge: TestFrame { TestFrame(luma: { x, _ in x < 32 ? 40 : 200 }) }
    private var ramp: TestFrame { TestFrame(width: 256, height: 16, luma: { x, _ in UInt8(x) }) }

    func testGrayscaleMakesChromaNeutralAndKeepsLuma() throws {
        let out = try filter(colourful, .grayscale)
        XCTAssertEqual(out.u[4][4], 128)
        XCTAssertEqual(out.v[4][4], 128)
        XCTAssertEqual(Int(out.y[4][4]), 100, accuracy: 1)
    }

    func testMonochromeTintsAGreyPicture() throws {
        let out = try filter(TestFrame(grey: 128), .monochrome(red: 1, green: 0.5, blue: 0, intensity: 1))
        XCTAssertLessThan(out.meanU, 124, "orange: less blue")
        XCTAssertGreaterThan(out.meanV, 132, "orange: more red")
    }

    func testInvertMapsYTo255MinusY() throws {
        let out = try filter(ramp, .invert)
        for x in [0, 16, 100, 200, 255] { XCTAssertEqual(Int(out.y[3][x]), 255 - x, "x \(x)") }
    }

    func testSepiaWarmsAGreyPictureAndIntensityZeroDoesNot() throws {
        let warm = try filter(TestFrame(grey: 128), .sepia())
        XCTAssertLessThan(warm.meanU, 124)
        XCTAssertGreaterThan(warm.meanV, 132)
        let none = try filter(TestFrame(grey: 128), .sepia(intensity: 0))
        XCTAssertEqual(none.meanU, 128, accuracy: 1.5)
        XCTAssertEqual(none.meanV, 128, accuracy: 1.5)
    }

    func testSaturationScalesChromaAroundNeutral() throws {
        XCTAssertEqual(try filter(colourful, .saturation(0)).meanV, 128, accuracy: 1)
        let doubled = try filter(colourful, .saturation(2)).meanV
        XCTAssertGreaterThan(doubled, 200, "V 180 moves further from 128")
    }

    func testHueRotationByHalfATurnMirrorsChroma() throws {
        let out = try filter(colourful, .hueRotation(degrees: 180))
        XCTAssertEqual(out.meanU, 156, accuracy: 3)
        XCTAssertEqual(out.meanV, 76, accuracy: 3)
    }

    func testExposureAndGammaBrightenMidGrey() throws {
        XCTAssertGreaterThan(try filter(TestFrame(grey: 100), .exposure(ev: 1)).meanY, 130)
        XCTAssertLessThan(try filter(TestFrame(grey: 100), .exposure(ev: -1)).meanY, 80)
        XCTAssertGreaterThan(try filter(TestFrame(grey: 100), .gamma(2)).meanY, 130)
    }

    func testColorTemperatureWarmsLowAndCoolsHigh() throws {
        let warm = try filter(TestFrame(grey: 128), .colorTemperature(kelvin: 2500))
        let cool = try filter(TestFrame(grey: 128), .colorTemperature(kelvin: 15000))
        XCTAssertGreaterThan(warm.meanV, cool.meanV + 4)
        XCTAssertLessThan(warm.meanU, cool.meanU - 4)
    }

    func testPosterizeLeavesFewLevels() throws {
        let out = try filter(ramp, .posterize(levels: 2))
        XCTAssertLessThanOrEqual(Set(out.y[5]).count, 4, "\(Set(out.y[5]).sorted())")
        XCTAssertGreaterThan(Set(try filter(ramp, .posterize(levels: 8)).y[5]).count, 6)
    }

    func testColorMatrixSwapsRedAndBlue() throws {
        let swap = ColorMatrix([0, 0, 1, 0, 1, 0, 1, 0, 0])
        let out = try filter(colourful, .colorMatrix(swap))
        XCTAssertGreaterThan(out.meanU, 150, "red became blue")
        XCTAssertLessThan(out.meanV, 110)
    }

    func testLUT3DFromACubeFile() throws {
        // A 2×2×2 LUT that inverts every channel.
        var cube = "LUT_3D_SIZE 2\n"
        for b in [1, 0] { for g in [1, 0] { for r in [1, 0] { cube += "\(r) \(g) \(b)\n" } } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("invert-\(UUID().uuidString).cube").path
        try cube.write(toFile: path, atomically: true, encoding: .utf8)
        let out = try filter(TestFrame(grey: 60), .lut3D(path: path))
        XCTAssertEqual(Int(out.y[4][4]), 255 - 60 + 16 - 20, accuracy: 25, "inverted, within limited-range rounding")
        XCTAssertGreaterThan(out.meanY, 170)
        XCTAssertThrowsError(try VideoFilter.lut3D(path: "/nonexistent.cube").validate())
    }

    func testCurvesNegativeInverts() throws {
        XCTAssertGreaterThan(try filter(TestFrame(grey: 50), .curves(.negative)).meanY, 180)
        XCTAssertLessThan(try filter(TestFrame(grey: 128), .curves(.darker)).meanY, 120)
    }

    func testBlursSoftenAnEdge() throws {
        for blur in [VideoFilter.gaussianBlur(sigma: 3), .boxBlur(radius: 3)] {
            let out = try filter(edge, blur)
            let row = out.y[16]
            XCTAssertGreaterThan(row[31], 60, "\(blur): dark side near the edge gets lighter")
            XCTAssertLessThan(row[32], 180, "\(blur): bright side near the edge gets darker")
            XCTAssertEqual(Int(row[5]), 40, accuracy: 2, "\(blur): far from the edge nothing changes")
        }
    }

    func testSharpenOvershootsAtAnEdge() throws {
        let row = try filter(edge, .sharpen(amount: 2)).y[16]
        XCTAssertLessThan(row[30], 35, "dark side dips below 40")
        XCTAssertGreaterThan(row[33], 205, "bright side rises above 200")
    }

    func testPixellateMakesConstantBlocks() throws {
        let out = try filter(ramp, .pixellate(size: 8))
        for block in stride(from: 0, to: 256, by: 8) {
            XCTAssertEqual(Set(out.y[2][block..<(block + 8)]).count, 1, "block at \(block)")
        }
        XCTAssertNotEqual(out.y[2][0], out.y[2][255])
    }

    func testEdgeDetectionFindsTheEdgeOnly() throws {
        // A diagonal edge (FFmpeg 5.1's Canny keeps only the corners of axis-aligned ones).
        let diagonal = TestFrame(luma: { x, y in x > y * 2 ? 200 : 40 })
        let out = try filter(diagonal, .edgeDetection)
        XCTAssertEqual(out.y[28][4], 16, "flat: black")
        XCTAssertEqual(out.y[2][60], 16, "flat: black")
        XCTAssertGreaterThan(out.y.joined().max()!, 200, "the edge is white")
    }

    func testVignetteDarkensTheCorners() throws {
        let out = try filter(TestFrame(grey: 180, width: 128, height: 64), .vignette())
        XCTAssertLessThan(Int(out.y[0][0]) + 10, Int(out.y[32][64]))
    }

    func testDenoiseReducesNoiseAndKeepsStateAcrossFrames() throws {
        // The same grey picture with fresh noise each frame: hqdn3d averages over space and time.
        let chain = FilterChain(stack: FilterStack([.denoise(strength: 10)]), timeBase: AVRational(num: 1, den: 30))
        func spread(_ picture: Picture) -> Double {
            let all = picture.y.joined().map(Double.init)
            let mean = all.reduce(0, +) / Double(all.count)
            return all.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(all.count)
        }
        var generator = SystemRandomNumberGenerator()
        var spreads: [Double] = []
        var inputSpread = 0.0
        for index in 0..<6 {
            let values = (0..<(64 * 32)).map { _ in UInt8(128 + Int.random(in: -6...6, using: &generator)) }
            let noisy = TestFrame(luma: { x, y in values[y * 64 + x] })
            noisy.pointer.pointee.pts = Int64(index)
            inputSpread = spread(Picture(noisy.frame))
            spreads.append(spread(try pictures(chain, noisy, time: Double(index))[0]))
        }
        XCTAssertLessThan(spreads.last!, inputSpread * 0.5, "input \(inputSpread), outputs \(spreads)")
        XCTAssertLessThan(spreads.last!, spreads.first!, "the temporal part learns over frames")
    }

    func testFlipsReverseTheRamp() throws {
        let flipped = try filter(ramp, .flipHorizontal)
        XCTAssertEqual(flipped.y[3][0], 255)
        XCTAssertEqual(flipped.y[3][255], 0)
        let vertical = TestFrame(width: 16, height: 64, luma: { _, y in UInt8(y * 4) })
        let upsideDown = try filter(vertical, .flipVertical)
        XCTAssertEqual(upsideDown.y[0][3], 252)
        XCTAssertEqual(upsideDown.y[63][3], 0)
    }

    func testCropAndRotateChangeTheSize() throws {
        let cropped = try filter(ramp, .crop(x: 100, y: 0, width: 32, height: 8))
        XCTAssertEqual(cropped.width, 32)
        XCTAssertEqual(cropped.height, 8)
        XCTAssertEqual(cropped.y[0][0], 100)
        let turned = try filter(ramp, .rotate(quarterTurns: 1))
        XCTAssertEqual(turned.width, 16)
        XCTAssertEqual(turned.height, 256)
        XCTAssertEqual(turned.y[255][4], 255, "clockwise: the right end goes to the bottom")
    }

    func testRawChainMatchesTheTypedFilter() throws {
        let raw = try filter(ramp, .ffmpeg("negate"))
        let typed = try filter(ramp, .invert)
        XCTAssertEqual(raw.y, typed.y)
    }

    func testStackOrderMatters() throws {
        let flipThenCrop = try filter(ramp, .flipHorizontal, .crop(x: 0, y: 0, width: 8, height: 8))
        let cropThenFlip = try filter(ramp, .crop(x: 0, y: 0, width: 8, height: 8), .flipHorizontal)
        XCTAssertEqual(flipThenCrop.y[0][0], 255)
        XCTAssertEqual(cropThenFlip.y[0][0], 7)
    }

    func testCustomSwiftFilterRunsInPlaceBetweenGraphs() throws {
        struct SetLuma: PixelFilter {
            let value: UInt8
            func apply(to picture: PixelPlanes, time: Double) {
                for y in 0..<picture.height { for x in 0..<picture.width { picture.luma[y * picture.lumaStride + x] = value } }
            }
        }
        var stack = FilterStack([.invert])
        stack.append(custom: SetLuma(value: 42))
        stack.append(.invert)
        XCTAssertEqual(try filter(ramp, stack).y[7][77], 213, "invert, set to 42, invert: 255 − 42")
        var first = FilterStack()
        first.append(custom: SetLuma(value: 9))
        XCTAssertEqual(try filter(ramp, first).y[0][200], 9, "a custom filter may come first")
    }

    func testInvalidFiltersAreRefusedWithAClearReason() {
        let input = FilterGraph.Input(width: 64, height: 32)
        XCTAssertThrowsError(try FilterChain.validate(FilterStack([.ffmpeg("nonsense=3")]), input: input)) { error in
            XCTAssertTrue("\(error)".contains("nonsense"), "\(error)")
        }
        // A crop first in the stack is refused per picture (black, see below), not as an invalid
        // stack; one after another filter is checked as any filter is.
        XCTAssertNoThrow(try FilterChain.validate(FilterStack([.crop(x: 0, y: 0, width: 999, height: 10)]), input: input))
        XCTAssertThrowsError(try FilterChain.validate(FilterStack([.invert, .crop(x: 0, y: 0, width: 999, height: 10)]), input: input))
        XCTAssertThrowsError(try FilterChain.validate(FilterStack([.gaussianBlur(sigma: -1)]), input: input))
        XCTAssertNoThrow(try FilterChain.validate(FilterStack([.ffmpeg("hqdn3d=4")]), input: input))
        XCTAssertThrowsError(try FilterChain.checkSyntax("hqdn3d=nope=1"))
    }

    /// A crop first in the stack (`--crop`) that the picture does not fit — larger than it, or over
    /// its edge — gives a black picture of the crop's size (at most the picture's), never a moved, shrunk or stretched part;
    /// the same chain crops the next picture it fits.
    func testALeadingCropOutsideThePictureGivesBlack() throws {
        let crop = VideoFilter.crop(x: 40, y: 0, width: 32, height: 16)
        let stack = FilterStack([crop, .invert])
        for picture in [TestFrame(grey: 200, width: 64, height: 32), TestFrame(grey: 200, width: 24, height: 12)] {
            XCTAssertFalse(stack.leadingCrop!.fits(width: Int(picture.pointer.pointee.width), height: Int(picture.pointer.pointee.height)))
            let out = try filter(picture, stack)
            // The crop's size, never larger than the picture (a huge crop is no huge black buffer).
            let (width, height) = (Int(picture.pointer.pointee.width), Int(picture.pointer.pointee.height))
            XCTAssertEqual([out.width, out.height], [min(32, width), min(16, height)])
            XCTAssertTrue(out.y.joined().allSatisfy { $0 == 16 } && out.u.joined().allSatisfy { $0 == 128 }
                          && out.v.joined().allSatisfy { $0 == 128 }, "black, no filter after it: \(out.meanY)")
        }
        let chain = FilterChain(stack: stack, timeBase: AVRational(num: 1, den: 30))
        let refused = try pictures(chain, TestFrame(grey: 200, width: 64, height: 32), time: 0)
        let fits = try pictures(chain, TestFrame(width: 96, height: 32, luma: { x, _ in x < 40 ? 10 : 200 }), time: 1 / 30)
        XCTAssertEqual(refused.first?.meanY, 16)
        XCTAssertEqual(fits.first.map { [$0.width, $0.height] }, [32, 16])
        XCTAssertEqual(fits.first?.meanY ?? 0, 55, accuracy: 1, "cropped from x 40 (200 inverted), not black")
    }

    func testParsingNamesAndArguments() throws {
        XCTAssertEqual(try VideoFilter(parsing: "sepia"), .sepia(intensity: 1))
        XCTAssertEqual(try VideoFilter(parsing: "blur=4"), .gaussianBlur(sigma: 4))
        XCTAssertEqual(try VideoFilter(parsing: "crop=640:360:10:20"), .crop(x: 10, y: 20, width: 640, height: 360))
        XCTAssertEqual(try VideoFilter(parsing: "curves=vintage"), .curves(.vintage))
        XCTAssertThrowsError(try VideoFilter(parsing: "sparkle"))
        XCTAssertThrowsError(try VideoFilter(parsing: "saturation=9"))
        XCTAssertEqual(try VideoFilter(parsing: "monochrome=#ff8800:0.5"), .monochrome(red: 1, green: 136.0 / 255, blue: 0, intensity: 0.5))
    }

    /// Found by the fuzzer (FuzzParsers): "monochrome=:" indexed an empty list and trapped. Every
    /// malformed argument is a `FilterError`; numbers must be finite.
    func testMalformedArgumentsAreErrors() {
        for text in ["monochrome=:", "monochrome=::", "monochrome=#ff8800:", "monochrome=#ff8800:nan",
                     "monochrome=#ff8800:2", "monochrome=#ff8800:0.5:1", "monochrome=+12345", "blur=nan", "blur=inf",
                     "sepia=-inf", "crop=::", "crop=1:2:3", "=", ""] {
            XCTAssertThrowsError(try VideoFilter(parsing: text), text) { XCTAssertTrue($0 is FilterError, text) }
        }
    }
}
