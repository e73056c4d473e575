import Foundation
import XCTest

/// Test clips made at test time by the real `ffmpeg` tool from lavfi sources, cached per run
/// in a temporary folder (nothing large is committed).
enum TestMedia {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loopplayer-test-media-\(getuid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Returns `name` in the media folder, running ffmpeg with `arguments` (output path appended) once.
    static func clip(_ name: String, _ arguments: [String]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = path + ".part." + (name as NSString).pathExtension
        let result = try run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + arguments + [partial])
        guard result.status == 0 else { throw TestMediaError.ffmpegFailed(name, result.output) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    static func hasEncoder(_ name: String) -> Bool {
        (try? run("ffmpeg", ["-hide_banner", "-encoders"]).output.contains(" \(name) ")) ?? false
    }

    /// testsrc2 at `size`, `frames` frames at `rate`, encoded with `codec` arguments.
    static func testPattern(_ name: String, frames: Int, rate: Int = 30, size: String = "320x180",
                            codec: [String], extra: [String] = []) throws -> String {
        try clip(name, ["-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(rate)", "-frames:v", "\(frames)"]
            + codec + ["-pix_fmt", "yuv420p"] + extra)
    }

    static let h264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "30"]

    /// The 120-frame, 4 s loop clip used by the seam tests.
    static func loopClip() throws -> String {
        try testPattern("loop-120.mp4", frames: 120, codec: h264)
    }

    /// One second of red, then one of blue (320x180): easy to recognise on screen.
    static func redThenBlue() throws -> String {
        try clip("red-blue.mp4", ["-f", "lavfi", "-i",
            "color=c=red:s=320x180:r=30:d=1[a];color=c=blue:s=320x180:r=30:d=1[b];[a][b]concat=n=2:v=1:a=0"]
            + h264 + ["-pix_fmt", "yuv420p"])
    }

    /// PSNR of two images, measured by ffmpeg's psnr filter.
    static func psnr(_ a: String, _ b: String) throws -> Double {
        let result = try run("ffmpeg", ["-hide_banner", "-nostdin", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"])
        guard let range = result.output.range(of: "average:") else { throw TestMediaError.ffmpegFailed("psnr", result.output) }
        let value = result.output[range.upperBound...].prefix { !$0.isWhitespace }
        return value == "inf" ? .infinity : Double(value) ?? 0
    }

    /// FFmpeg's own decode of frame `frame`, converted to RGB with accurate rounding and full chroma
    /// interpolation (the CLI's default conversion is cruder: about 28 dB from either).
    static func reference(_ path: String, frame: Int) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("ref-\(UUID().uuidString).png").path
        let result = try run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-i", path,
                                                  "-vf", "select=eq(n\\,\(frame)),scale=flags=bicubic+accurate_rnd+full_chroma_int", "-frames:v", "1", output])
        guard result.status == 0 else { throw TestMediaError.ffmpegFailed("reference", result.output) }
        return output
    }

    /// An image file's pixels as RGB triples, decoded by ffmpeg; `pixel(x, y)` reads one.
    static func rgbPixels(of image: String) throws -> (width: Int, height: Int, pixel: (Int, Int) -> [Int]) {
        let probe = try run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", image])
        let size = probe.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        guard size.count == 2 else { throw TestMediaError.ffmpegFailed("probe of \(image)", probe.output) }
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("rgb-\(UUID().uuidString).rgb").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let result = try run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-i", image,
                                        "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", raw])
        guard result.status == 0 else { throw TestMediaError.ffmpegFailed("rgb of \(image)", result.output) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let width = size[0]
        return (width, size[1], { x, y in bytes[(y * width + x) * 3..<(y * width + x) * 3 + 3].map(Int.init) })
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

enum TestMediaError: Error, CustomStringConvertible {
    case ffmpegFailed(String, String)
    var description: String {
        switch self { case let .ffmpegFailed(name, output): "ffmpeg could not make \(name): \(output)" }
    }
}
