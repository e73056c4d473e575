import LoopPlayerCore
import Foundation
import Overlay
import XCTest

final class SVGRenderingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("overlay-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func write(_ name: String, _ content: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try content.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }

    /// A 2:1 red rectangle on a transparent canvas.
    private func redRectangle(fill: String = "#ff0000") throws -> String {
        try write("rect.svg", """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">
              <rect x="0" y="0" width="100" height="50" fill="\(fill)"/>
            </svg>
            """)
    }

    func testSVGIsFittedIntoTheVideoRectKeepingItsAspect() throws {
        let file = try redRectangle()
        let geometry = LayerGeometry(width: 400, height: 400, videoRect: CGRect(x: 100, y: 100, width: 200, height: 200))
        let image = try XCTUnwrap(OverlayRasterizer().render(SVGLayer(file: file).build(in: geometry), in: geometry))
        // 100×50 fitted into 200×200: 200×100, centred vertically.
        XCTAssertTrue(image.frame == (100, 150, 200, 100), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(101, 151), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(200, 200), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(298, 248), Pure.opaqueRed)
        XCTAssertEqual(image.areaPixel(200, 140), .transparent)
        XCTAssertEqual(image.areaPixel(200, 260), .transparent)
    }

    func testViewBoxOnlySVGScalesToo() throws {
        let file = try write("viewbox.svg", """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 20"><rect width="10" height="20" fill="#0000ff"/></svg>
            """)
        var layer = ShapeLayer(svg: SVGContent(file: file, in: CGRect(x: 0, y: 0, width: 100, height: 100)))
        layer.transform = LayerTransform(translationX: 10, y: 0)
        let image = try render(layer, width: 200, height: 200)
        XCTAssertTrue(image.frame == (35, 0, 50, 100), "\(image.frame)")
        XCTAssertEqual(image.areaPixel(60, 50), Pure.opaqueBlue)
    }

    func testChangedFileIsReadAgain() throws {
        let rasterizer = OverlayRasterizer()
        let layer = ShapeLayer(svg: SVGContent(file: try redRectangle(), in: CGRect(x: 0, y: 0, width: 100, height: 50)))
        XCTAssertEqual(try render(layer, rasterizer).areaPixel(50, 25), Pure.opaqueRed)
        _ = try redRectangle(fill: "blue")  // also a different size, whatever the clock's resolution
        XCTAssertEqual(try render(layer, rasterizer).areaPixel(50, 25), Pure.opaqueBlue)
    }

    func testMissingUnreadableAndGarbageFilesAreErrors() throws {
        let rasterizer = OverlayRasterizer()
        let geometry = LayerGeometry(width: 100, height: 100)
        func layer(_ file: String) -> ShapeLayer { ShapeLayer(svg: SVGContent(file: file, in: geometry.bounds)) }
        let missing = directory.appendingPathComponent("missing.svg").path
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in try rasterizer.render(layer(missing), in: geometry) }) {
            $0 == .svgNotFound(path: missing)
        }
        let garbage = try write("garbage.svg", "this is not <svg at all")
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in try rasterizer.render(layer(garbage), in: geometry) }) {
            if case .invalidSVG(garbage, _) = $0 { return true } else { return false }
        }
        let sizeless = try write("sizeless.svg", #"<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>"#)
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in try rasterizer.render(layer(sizeless), in: geometry) }) {
            if case .invalidSVG(sizeless, _) = $0 { return true } else { return false }
        }
        XCTAssertThrowsOverlayError({ () throws(OverlayError) in try rasterizer.render(layer(self.directory.path), in: geometry) }) {
            if case .svgUnreadable = $0 { return true } else { return false }
        }
        XCTAssertEqual(OverlayError.svgNotFound(path: "/a.svg").description, "SVG file not found: /a.svg")
    }
}
