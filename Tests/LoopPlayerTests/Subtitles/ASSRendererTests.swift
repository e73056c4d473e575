import Foundation
@testable import LoopPlayer
import XCTest

/// Text subtitles rendered by the real libass with real fonts, read back pixel by pixel.
final class ASSRendererTests: XCTestCase {
    private let full = CGRect(x: 0, y: 0, width: 1280, height: 720)
    private let area = (width: 1280, height: 720)

    private func subRipRenderer() throws -> ASSRenderer {
        let file = try ExternalSubtitleFile(source: try SubtitleTestMedia.srtFile())
        let renderer = try ASSRenderer(header: file.header)
        XCTAssertTrue(renderer.usesDefaultStyle)
        for (index, cue) in file.cues.enumerated() { XCTAssertTrue(renderer.add(cue, id: index)) }
        return renderer
    }

    private func assRenderer() throws -> ASSRenderer {
        let file = try ExternalSubtitleFile(source: try SubtitleTestMedia.assFile())
        let renderer = try ASSRenderer(header: file.header)
        XCTAssertFalse(renderer.usesDefaultStyle)
        for (index, cue) in file.cues.enumerated() { renderer.add(cue, id: index) }
        return renderer
    }

    func testTextInsideACueIsWhiteWithADarkOutline() throws {
        let renderer = try subRipRenderer()
        let result = renderer.render(at: 1.5, area: area, videoRect: full)
        XCTAssertTrue(result.changed)
        let image = try XCTUnwrap(result.image)
        let pixels = OverlayPixels(image)
        XCTAssertGreaterThan(pixels.white, 500, "white text fill")
        XCTAssertGreaterThan(pixels.dark, 300, "black outline")
        XCTAssertEqual(pixels.invalid, 0, "premultiplied")
        // Every white pixel has a dark pixel within the outline's reach below or beside it.
        XCTAssertTrue(Self.whiteIsOutlined(image), "outline around the letters")
        // Bottom-centred, inside the area, in the lower fifth.
        XCTAssertEqual(pixels.midX, 640, accuracy: 20)
        XCTAssertGreaterThan(pixels.minY, 720 * 4 / 5)
        XCTAssertLessThanOrEqual(pixels.maxY, 720)
        // The default style: about 46 px text at 720p ("Hello world": cap height ~ 33 px plus outline).
        XCTAssertGreaterThan(pixels.height, 30)
        XCTAssertLessThan(pixels.height, 70)
    }

    func testNothingOutsideACue() throws {
        let renderer = try subRipRenderer()
        XCTAssertNotNil(renderer.render(at: 1.5, area: area, videoRect: full).image)
        let gap = renderer.render(at: 2.7, area: area, videoRect: full)
        XCTAssertNil(gap.image)
        XCTAssertTrue(gap.changed, "the line went away")
        let before = renderer.render(at: 0.2, area: area, videoRect: full)
        XCTAssertNil(before.image)
        XCTAssertFalse(before.changed, "still nothing")
    }

    func testUnchangedPictureDoesNoWork() throws {
        let renderer = try subRipRenderer()
        let first = renderer.render(at: 1.2, area: area, videoRect: full)
        XCTAssertTrue(first.changed)
        let second = renderer.render(at: 1.6, area: area, videoRect: full)
        XCTAssertFalse(second.changed)
        XCTAssertEqual(second.image, first.image, "the previous image is handed back")
        // A new size is a new picture.
        let resized = renderer.render(at: 1.6, area: (640, 360), videoRect: CGRect(x: 0, y: 0, width: 640, height: 360))
        XCTAssertTrue(resized.changed)
        XCTAssertLessThan(try XCTUnwrap(resized.image).width, try XCTUnwrap(first.image).width)
    }

    func testRefusedInputsDoNotLoseTheImage() throws {
        let renderer = try subRipRenderer()
        let shown = renderer.render(at: 1.5, area: area, videoRect: full)
        XCTAssertNotNil(shown.image)
        let refused = renderer.render(at: 1.5, area: (0, 720), videoRect: full)
        XCTAssertNil(refused.image)
        XCTAssertTrue(refused.changed)
        XCTAssertNil(renderer.render(at: .nan, area: area, videoRect: full).image)
        XCTAssertNil(renderer.render(at: 1.5, area: area, videoRect: CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)).image)
        // libass saw no change since its last frame, but the caller's image was dropped: it comes back.
        let again = renderer.render(at: 1.5, area: area, videoRect: full)
        XCTAssertTrue(again.changed)
        XCTAssertEqual(again.image, shown.image)
        // Absurd times and rectangles are clamped, not trapped on.
        XCTAssertTrue(renderer.add(SubtitleCue(start: 1e300, end: .infinity, content: .text(assEvent: ASSEvent.event(plainText: "far"))), id: "far"))
        XCTAssertNil(renderer.render(at: -1e300, area: area, videoRect: CGRect(x: -1e12, y: 1e12, width: 1e15, height: -5)).image)
    }

    func testMultiLineCue() throws {
        let renderer = try subRipRenderer()
        let one = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: area, videoRect: full).image))
        let two = OverlayPixels(try XCTUnwrap(renderer.render(at: 5.5, area: area, videoRect: full).image))
        XCTAssertGreaterThan(Double(two.height), Double(one.height) * 1.7, "two lines are twice as tall")
    }

    func testStyledASSLineRendersInItsColour() throws {
        let renderer = try assRenderer()
        let red = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: area, videoRect: full).image))
        XCTAssertGreaterThan(red.red, 300, "red fill")
        XCTAssertEqual(red.white, 0, "no white in the red line")
        XCTAssertGreaterThan(red.dark, 100, "its black outline")
        let white = OverlayPixels(try XCTUnwrap(renderer.render(at: 3.5, area: area, videoRect: full).image))
        XCTAssertGreaterThan(white.white, 300)
        XCTAssertEqual(white.red, 0)
    }

    /// Letterboxed: the text is inside the picture, near its bottom, and sized by the picture.
    func testTextFollowsALetterboxedPicture() throws {
        let renderer = try subRipRenderer()
        let inFull = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: area, videoRect: full).image))
        let letterbox = CGRect(x: 0, y: 180, width: 1280, height: 360)
        let boxed = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: area, videoRect: letterbox).image))
        XCTAssertGreaterThanOrEqual(boxed.minY, 180)
        XCTAssertLessThanOrEqual(boxed.maxY, 540)
        XCTAssertGreaterThan(boxed.minY, 540 - 360 / 4, "in the bottom quarter of the picture")
        XCTAssertEqual(Double(boxed.height) / Double(inFull.height), 0.5, accuracy: 0.15, "half as tall a picture, half as tall text")
        // Pillarboxed: horizontally inside the picture.
        let pillarbox = CGRect(x: 400, y: 0, width: 480, height: 720)
        let pillared = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: area, videoRect: pillarbox).image))
        XCTAssertGreaterThanOrEqual(pillared.minX, 400)
        XCTAssertLessThanOrEqual(pillared.maxX, 880)
        XCTAssertEqual(pillared.midX, 640, accuracy: 20)
    }

    /// Cropped (fill): the picture overflows the area; dialogue stays inside the visible part.
    func testTextStaysVisibleWhenThePictureIsCropped() throws {
        let renderer = try subRipRenderer()
        let cropped = CGRect(x: 0, y: -240, width: 1280, height: 1200)
        let pixels = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: area, videoRect: cropped).image))
        XCTAssertGreaterThanOrEqual(pixels.minY, 0)
        XCTAssertLessThanOrEqual(pixels.maxY, 720)
        XCTAssertGreaterThan(pixels.minY, 720 * 3 / 4, "at the bottom of what is seen")
        let wide = CGRect(x: -640, y: 0, width: 2560, height: 720)
        let sideways = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: area, videoRect: wide).image))
        XCTAssertGreaterThanOrEqual(sideways.minX, 0)
        XCTAssertLessThanOrEqual(sideways.maxX, 1280)
    }

    /// A `\pos` sign stays on its spot of the picture (the script's centre) under each layout.
    func testPositionedSignFollowsThePicture() throws {
        let renderer = try assRenderer()
        renderer.videoSize = SubtitleCanvas(width: 160, height: 90)
        for rect in [full, CGRect(x: 0, y: 180, width: 1280, height: 360), CGRect(x: 400, y: 0, width: 480, height: 720),
                     CGRect(x: -320, y: -180, width: 1920, height: 1080)] {
            let sign = OverlayPixels(try XCTUnwrap(renderer.render(at: 5.5, area: area, videoRect: rect).image))
            XCTAssertEqual(sign.midX, Double(rect.midX), accuracy: 12, "\(rect)")
            XCTAssertEqual(sign.midY, Double(rect.midY), accuracy: 12, "\(rect)")
        }
    }

    func testStretchedPictureKeepsTextInside() throws {
        let renderer = try subRipRenderer()
        let pixels = OverlayPixels(try XCTUnwrap(renderer.render(at: 1.5, area: (1280, 400), videoRect: CGRect(x: 0, y: 0, width: 1280, height: 400)).image))
        XCTAssertLessThanOrEqual(pixels.maxY, 400)
        XCTAssertGreaterThan(pixels.minY, 300)
    }

    func testACueAddedTwiceIsKeptOnce() throws {
        let renderer = try subRipRenderer()
        let cue = SubtitleCue(start: 10, end: 11, content: .text(assEvent: ASSEvent.event(plainText: "Once")))
        XCTAssertTrue(renderer.add(cue, id: "loop-1"))
        XCTAssertFalse(renderer.add(cue, id: "loop-1"))
        XCTAssertEqual(renderer.eventCount, 4)
        let single = OverlayPixels(try XCTUnwrap(renderer.render(at: 10.5, area: area, videoRect: full).image))
        // The same cue in another pass (another identity) is a second event: it stacks above.
        XCTAssertTrue(renderer.add(cue, id: "loop-2"))
        let stacked = OverlayPixels(try XCTUnwrap(renderer.render(at: 10.5, area: area, videoRect: full).image))
        XCTAssertGreaterThan(stacked.height, single.height * 3 / 2)
        renderer.removeAll()
        XCTAssertEqual(renderer.eventCount, 0)
        XCTAssertNil(renderer.render(at: 10.5, area: area, videoRect: full).image)
        // Identities are forgotten with the events.
        XCTAssertTrue(renderer.add(cue, id: "loop-1"))
    }

    func testBitmapCuesAreNotText() throws {
        let renderer = try ASSRenderer(header: nil)
        let cue = SubtitleCue(start: 0, end: 1, content: .bitmap([], canvas: SubtitleCanvas(width: 720, height: 576)))
        XCTAssertFalse(renderer.add(cue, id: 1))
        XCTAssertEqual(renderer.eventCount, 0)
    }

    /// Thousands of events: the track keeps at most its limit, favouring what is still to come.
    func testEventLimitKeepsTheCuesStillToCome() throws {
        let renderer = try ASSRenderer(header: nil, eventLimit: 100)
        _ = renderer.render(at: 50, area: area, videoRect: full)
        for n in 0..<5000 {
            let cue = SubtitleCue(start: Double(n % 100), end: Double(n % 100) + 0.5, content: .text(assEvent: ASSEvent.event(plainText: "n\(n)")))
            renderer.add(cue, id: n)
            XCTAssertLessThanOrEqual(renderer.eventCount, 100)
        }
        XCTAssertNotNil(renderer.render(at: 99.2, area: area, videoRect: full).image, "a late cue survived")
    }

    func testAbsurdScriptsStayBounded() throws {
        let header = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 100000000
            PlayResY: 2

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,DejaVu Sans,100000,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100000,100000,0,0,1,50000,50000,2,0,0,0,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

            """
        let renderer = try ASSRenderer(header: header)
        renderer.add(SubtitleCue(start: 0, end: 10, content: .text(assEvent: "0,0,Default,,0,0,0,,Huge")), id: 0)
        renderer.add(SubtitleCue(start: 0, end: 10, content: .text(assEvent: "1,0,Default,,0,0,0,,{\\fs99999\\fscx9999\\fscy9999\\bord9999\\blur9999}Tags")), id: 1)
        renderer.add(SubtitleCue(start: 0, end: 10, content: .text(assEvent: "2,0,Default,,0,0,0,,{\\p1}m 0 0 l 99999999 0 99999999 99999999 0 99999999")), id: 2)
        let long = String(repeating: "word ", count: 20_000)
        XCTAssertFalse(renderer.add(SubtitleCue(start: 0, end: 10, content: .text(assEvent: "3,0,Default,,0,0,0,," + long)), id: 3))
        let rssBefore = ProcessUsage.currentRSSBytes
        // Its time is measured, not bounded here (the machine's speed is not the renderer's).
        let started = Date()
        let result = renderer.render(at: 1, area: (1920, 1080), videoRect: CGRect(x: 0, y: 0, width: 1920, height: 1080))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertLessThan(ProcessUsage.peakRSSBytes - rssBefore, 512 << 20, "bounded memory")
        if let image = result.image {
            XCTAssertLessThanOrEqual(image.width, 1920)
            XCTAssertLessThanOrEqual(image.height, 1080)
        }
        print("absurd script: \(Int(elapsed * 1000)) ms, peak RSS \(ProcessUsage.peakRSSBytes >> 20) MB")
    }

    func testOverrideTagsAreBounded() {
        let event = "0,0,Default,,0,0,0,,{\\fs999\\fscx9999\\fscy50\\fsp5000\\bord99\\xshad-99\\blur999\\t(\\fscx800)}Big \\fs999 {\\i1}i"
        XCTAssertEqual(ASSScriptBounds.boundOverrides(in: event, scriptHeight: 288),
                       "0,0,Default,,0,0,0,,{\\fs144.0\\fscx200.0\\fscy50\\fsp5000\\bord18.0\\xshad-18.0\\blur9.0\\t(\\fscx200.0)}Big \\fs999 {\\i1}i")
        XCTAssertEqual(ASSScriptBounds.boundOverrides(in: "0,0,Default,,0,0,0,,plain", scriptHeight: 288), "0,0,Default,,0,0,0,,plain")
    }

    func testManySimultaneousEventsRender() throws {
        let renderer = try ASSRenderer(header: nil)
        for n in 0..<1000 {
            renderer.add(SubtitleCue(start: 0, end: 10, content: .text(assEvent: ASSEvent.event(plainText: "line \(n)"))), id: n)
        }
        let started = Date()
        let image = renderer.render(at: 1, area: area, videoRect: full).image
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertNotNil(image)
        print("1000 simultaneous events: \(Int(elapsed * 1000)) ms")
    }

    /// Timings for the report: the first renderer and render (fontconfig and font loading), then
    /// a new 1080p line each time (shaping, rasterising, compositing).
    func testRenderTimings() throws {
        var started = Date()
        let renderer = try ASSRenderer(header: nil)
        let created = Date().timeIntervalSince(started)
        let words = ["A typical subtitle line", "rendered at 1080p", "with an outline", "and a soft shadow"]
        for n in 0..<21 {
            let text = "\(words[n % 4]) \(words[(n + 1) % 4]) #\(n)"
            renderer.add(SubtitleCue(start: Double(n), end: Double(n) + 1, content: .text(assEvent: ASSEvent.event(plainText: text))), id: n)
        }
        let rect = CGRect(x: 0, y: 0, width: 1920, height: 1080)
        started = Date()
        XCTAssertNotNil(renderer.render(at: 0.5, area: (1920, 1080), videoRect: rect).image)
        let first = Date().timeIntervalSince(started)
        var times: [Double] = []
        for n in 1...20 {
            started = Date()
            let result = renderer.render(at: Double(n) + 0.5, area: (1920, 1080), videoRect: rect)
            times.append(Date().timeIntervalSince(started))
            XCTAssertTrue(result.changed)
            XCTAssertNotNil(result.image)
        }
        started = Date()
        XCTAssertFalse(renderer.render(at: 20.7, area: (1920, 1080), videoRect: rect).changed)
        let unchanged = Date().timeIntervalSince(started)
        let median = times.sorted()[times.count / 2]
        print(String(format: "renderer init %.1f ms, first 1080p render %.1f ms, new 1080p line median %.2f ms, unchanged %.3f ms",
                     created * 1000, first * 1000, median * 1000, unchanged * 1000))
        XCTAssertLessThan(median, 0.25)
        XCTAssertLessThan(unchanged, 0.005)
    }

    /// True if every opaque white pixel has an opaque dark one within 4 px: the outline.
    private static func whiteIsOutlined(_ image: OverlayImage) -> Bool {
        func isDark(_ x: Int, _ y: Int) -> Bool {
            guard x >= 0, y >= 0, x < image.width, y < image.height else { return false }
            let p = image.pixel(x: x, y: y)
            return p.a > 200 && p.r < 60 && p.g < 60 && p.b < 60
        }
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                guard p.a > 240, p.r > 225, p.g > 225, p.b > 225 else { continue }
                var found = false
                for dy in -4...4 where !found { for dx in -4...4 where isDark(x + dx, y + dy) { found = true; break } }
                if !found { return false }
            }
        }
        return true
    }
}
