import Foundation
import XCTest

/// `loopplay --metrics-snapshot`: pictures of the screen over the metrics server's HTTP, compared
/// with the window's pixels as the X server (Xvfb) shows them.
final class SnapshotEndpointTests: XCTestCase {
    private typealias Window = (x: Int, y: Int, width: Int, height: Int)

    private struct Running {
        let player: (process: Process, stderr: Pipe)
        let said: PipeText
        let port: Int
    }

    /// loopplay in a window on `display`, its metrics (and pictures, with `snapshot`) on a port the system chose.
    private func start(_ arguments: [String], on display: VirtualDisplay, address: String = "127.0.0.1:0") throws -> Running {
        let started = try LoopplayTool.start(arguments + ["--metrics-address", address, "--metrics-snapshot"],
                                             environment: ["DISPLAY": display.name, "SDL_AUDIODRIVER": "dummy"])
        let said = PipeText(started.stderr)
        let line = #/metrics at http://127\.0\.0\.1:(\d+)/metrics/#
        guard said.waitUntil(timeout: 20, { $0.contains(line) }), let match = said.text.firstMatch(of: line),
              let port = Int(match.1) else {
            stop(started.process)
            throw IPCClientError(description: "no metrics address said: \(said.text)")
        }
        return Running(player: (started.process, started.stderr), said: said, port: port)
    }

    /// The picture a GET answered, decoded by ffmpeg.
    private func picture(_ response: RawHTTP.Response, suffix: String) throws -> (width: Int, height: Int, pixel: (Int, Int) -> [Int]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString).\(suffix)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(response.body).write(to: URL(fileURLWithPath: file))
        return try TestMedia.rgbPixels(of: file)
    }

    /// The mean difference per channel between a picture and the window's pixels (RGB triples).
    private func meanDifference(_ image: (width: Int, height: Int, pixel: (Int, Int) -> [Int]), _ screen: [UInt8]) -> Double {
        var total = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let shown = image.pixel(x, y), i = (y * image.width + x) * 3
                total += abs(shown[0] - Int(screen[i])) + abs(shown[1] - Int(screen[i + 1])) + abs(shown[2] - Int(screen[i + 2]))
            }
        }
        return Double(total) / Double(image.width * image.height * 3)
    }

    /// `/snapshot.png` is the window as the X server shows it, the overlay text included (the bare
    /// video's picture lacks it); `/snapshot.jpg?width=160` is the same scaled, never enlarged; a bad
    /// width is 400.
    func testTheSnapshotIsWhatTheWindowShows() throws {
        let display = try VirtualDisplay()
        let title = "lptest-snapshot-endpoint"
        let running = try start(["--source", try VideoRotationTests.quadrants(), "--loop", "--title", title,
                                 "--overlay-text", "SNAPSHOT", "--geometry", "480x270"], on: display)
        defer { stop(running.player.process) }
        let window = try display.window(titled: title, shownBy: running.player.process, stderr: running.player.stderr)
        XCTAssertEqual(window.width, 480, "window \(window)")
        // The clip is still: the X server's pixels and the snapshot show the same picture once drawn.
        var png = RawHTTP.Response(status: 0, headers: [:], body: [], ending: .closed, seconds: 0)
        var difference = Double.infinity
        var sizes = (0, 0)
        let alike = try waitFor(timeout: 20) {
            png = RawHTTP.get(port: running.port, path: "/snapshot.png", timeout: 20)
            guard png.status == 200 else { return false }
            let image = try picture(png, suffix: "png")
            sizes = (image.width, image.height)
            guard sizes == (window.width, window.height) else { return false }
            difference = meanDifference(image, try display.capture(x: window.x, y: window.y, width: window.width, height: window.height))
            return difference < 3
        }
        XCTAssertTrue(alike, "status \(png.status), size \(sizes), mean difference \(difference): \(running.said.text)")
        XCTAssertEqual(png.headers["content-type"], "image/png")
        XCTAssertEqual(png.headers["cache-control"], "no-store")

        // The overlay is in it: the bare video differs where the text is (top left), not elsewhere.
        let video = try picture(RawHTTP.get(port: running.port, path: "/snapshot.png?content=video", timeout: 20), suffix: "png")
        XCTAssertEqual(video.width, 320, "the bare picture at the video's size")
        let scene = try picture(png, suffix: "png")
        let textArea = (0..<60).flatMap { y in (0..<200).map { x in (x, y) } }
        let differing = textArea.filter { x, y in
            let a = scene.pixel(x, y), b = video.pixel(x * 320 / 480, y * 320 / 480)
            return abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) > 120
        }.count
        XCTAssertGreaterThan(differing, 100, "the overlay text is in the snapshot, not in the bare video")

        // A cache buster (`_=`) is someone else's parameter: ignored.
        let jpeg = RawHTTP.get(port: running.port, path: "/snapshot.jpg?width=160&_=1733312000", timeout: 20)
        XCTAssertEqual(jpeg.status, 200, String(decoding: jpeg.body, as: UTF8.self))
        XCTAssertEqual(jpeg.headers["content-type"], "image/jpeg")
        let small = try picture(jpeg, suffix: "jpg")
        XCTAssertEqual([small.width, small.height], [160, 90])
        // Bottom left of the quadrants: blue, scaled or not.
        let corner = small.pixel(40, 70)
        XCTAssertTrue(corner[2] > 200 && corner[0] < 60 && corner[1] < 60, "blue at the bottom left: \(corner)")

        // Never enlarged: a width past the picture's is the picture's own (no request can ask for
        // more memory than the screen's picture takes).
        let wide = try picture(RawHTTP.get(port: running.port, path: "/snapshot.jpg?width=7680", timeout: 20), suffix: "jpg")
        XCTAssertEqual([wide.width, wide.height], [480, 270])

        for (path, status) in [("/snapshot.png?width=0", 400), ("/snapshot.png?width=99999999999", 400),
                               ("/snapshot.png?content=all", 400), ("/snapshot.gif", 404)] {
            let answer = RawHTTP.get(port: running.port, path: path, timeout: 20)
            XCTAssertEqual(answer.status, status, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let head = RawHTTP.get(port: running.port, path: "/snapshot.png", method: "HEAD", timeout: 20)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body.count, 0)
        XCTAssertGreaterThan(Int(head.headers["content-length"] ?? "") ?? 0, 1000)
        XCTAssertEqual(running.player.process.isRunning, true, "still playing: \(running.said.text)")
    }

    /// With a source that failed, the picture is the error text on screen, as the window shows it.
    func testASnapshotShowsAFailedSourcesError() throws {
        let display = try VirtualDisplay()
        let title = "lptest-snapshot-failed"
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("snap-\(UUID().uuidString.prefix(8)).sock").path
        defer { try? FileManager.default.removeItem(atPath: socket) }
        let running = try start(["--source", "/nonexistent/lobby.mp4", "--title", title, "--geometry", "480x270",
                                 "--input-ipc-server", socket], on: display)
        defer { stop(running.player.process) }
        let window = try display.window(titled: title, shownBy: running.player.process, stderr: running.player.stderr)
        var lit = 0, difference = Double.infinity
        let shown = try waitFor(timeout: 20) {
            let answer = RawHTTP.get(port: running.port, path: "/snapshot.png", timeout: 20)
            guard answer.status == 200 else { return false }
            let image = try picture(answer, suffix: "png")
            guard image.width == window.width, image.height == window.height else { return false }
            lit = (0..<image.height).reduce(0) { count, y in
                count + (0..<image.width).filter { x in image.pixel(x, y).reduce(0, +) > 200 }.count
            }
            difference = meanDifference(image, try display.capture(x: window.x, y: window.y, width: window.width, height: window.height))
            return lit > 200 && difference < 3
        }
        XCTAssertTrue(shown, "error text drawn (\(lit) lit pixels), mean difference from the window \(difference): \(running.said.text)")
    }

    /// Pictures of the screen are not offered to every interface by `:PORT` (said on stderr); without
    /// --metrics-snapshot they are not served; the flag alone is refused.
    func testPicturesStayOnLoopbackUnlessAHostIsGiven() throws {
        let display = try VirtualDisplay()
        let running = try start(["--source", try VideoRotationTests.quadrants(), "--loop", "--headless"], on: display, address: ":0")
        defer { stop(running.player.process) }
        XCTAssertTrue(running.said.text.contains("served on 127.0.0.1 only"), running.said.text)

        let plain = try LoopplayTool.start(["--source", try VideoRotationTests.quadrants(), "--loop", "--headless",
                                            "--metrics-address", "127.0.0.1:0"], environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(plain.process) }
        let said = PipeText(plain.stderr)
        let line = #/metrics at http://127\.0\.0\.1:(\d+)/metrics/#
        XCTAssertTrue(said.waitUntil(timeout: 20, { $0.contains(line) }), said.text)
        let port = try XCTUnwrap(said.text.firstMatch(of: line).flatMap { Int($0.1) })
        XCTAssertEqual(RawHTTP.get(port: port, path: "/snapshot.png", timeout: 20).status, 404)

        let alone = try LoopplayTool.run(["--metrics-snapshot", "--headless", try VideoRotationTests.quadrants()])
        XCTAssertEqual(alone.status, 64)
        XCTAssertTrue(alone.stderr.contains("give --metrics-address too"), alone.stderr)
    }
}
