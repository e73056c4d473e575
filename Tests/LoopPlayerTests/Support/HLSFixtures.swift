import Foundation
import XCTest

/// Three-variant HLS sets made by the ffmpeg tool from one lavfi source, cached in
/// `TestMedia.directory`: 4 s at 30 fps with a 440 Hz tone, 1 s segments cut at the same
/// keyframes in every variant (`-g 30`, no scene-cut keyframes), VOD playlists.
///
/// Each variant shows a coloured band over the top fifth of the picture (red 240p, green 360p,
/// blue 720p), so a test tells from pixels which variant is on screen.
///
///     <set>/master-low-first.m3u8    variants lowest bandwidth first (ffmpeg's own order)
///     <set>/master-high-first.m3u8   the same, highest first
///     <set>/v240/index.m3u8, v240/seg000.ts … (fMP4: init_0.mp4, seg000.m4s …)
enum HLSFixtures {
    struct Variant: Equatable {
        var name: String
        var width: Int
        var height: Int
        var bitrate: Int
        /// The band's colour, RGB.
        var color: (red: UInt8, green: UInt8, blue: UInt8)

        static func == (a: Variant, b: Variant) -> Bool { a.name == b.name }
    }

    static let variants = [
        Variant(name: "240", width: 426, height: 240, bitrate: 400_000, color: (255, 0, 0)),
        Variant(name: "360", width: 640, height: 360, bitrate: 1_000_000, color: (0, 255, 0)),
        Variant(name: "720", width: 1280, height: 720, bitrate: 3_000_000, color: (0, 0, 255)),
    ]
    static let segmentCount = 4
    static let frameRate = 30

    enum Container { case mpegts, fmp4 }

    /// The folder of the set (made on first use).
    static func set(_ container: Container = .mpegts) throws -> URL {
        let name = container == .mpegts ? "hls-variants-ts" : "hls-variants-fmp4"
        let folder = TestMedia.directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("master-high-first.m3u8").path) {
            return folder
        }
        // Made aside and renamed, so an interrupted run never leaves half a set behind.
        let partial = TestMedia.directory.appendingPathComponent("\(name).part-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try make(container, in: partial)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.moveItem(at: partial, to: folder)
        return folder
    }

    /// The variant whose band colour is nearest to `rgb`, if any is close.
    static func variant(showing rgb: (UInt8, UInt8, UInt8)) -> Variant? {
        variants.first { variant in
            abs(Int(variant.color.red) - Int(rgb.0)) < 60 && abs(Int(variant.color.green) - Int(rgb.1)) < 60
                && abs(Int(variant.color.blue) - Int(rgb.2)) < 60
        }
    }

    private static func make(_ container: Container, in folder: URL) throws {
        let bands = variants.enumerated().map { index, variant in
            let color = String(format: "0x%02X%02X%02X", variant.color.red, variant.color.green, variant.color.blue)
            let scale = variant.width == 1280 ? "" : "scale=\(variant.width):\(variant.height),"
            return "[s\(index)]\(scale)drawbox=x=0:y=0:w=iw:h=ih/5:color=\(color):t=fill[v\(index)]"
        }
        let graph = "[0:v]split=3[s0][s1][s2];" + bands.joined(separator: ";") + ";[1:a]asplit=3[a0][a1][a2]"
        var arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                         "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=\(frameRate):d=\(segmentCount)",
                         "-f", "lavfi", "-i", "sine=f=440:r=48000:d=\(segmentCount)",
                         "-filter_complex", graph]
        for index in variants.indices { arguments += ["-map", "[v\(index)]", "-map", "[a\(index)]"] }
        arguments += ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
                      "-g", "\(frameRate)", "-keyint_min", "\(frameRate)", "-sc_threshold", "0"]
        for (index, variant) in variants.enumerated() {
            arguments += ["-b:v:\(index)", "\(variant.bitrate)", "-maxrate:v:\(index)", "\(variant.bitrate * 11 / 10)",
                          "-bufsize:v:\(index)", "\(variant.bitrate * 2)"]
        }
        arguments += ["-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                      "-master_pl_name", "master-low-first.m3u8",
                      "-var_stream_map", variants.enumerated().map { "v:\($0.offset),a:\($0.offset),name:\($0.element.name)" }
                        .joined(separator: " ")]
        switch container {
        case .mpegts:
            arguments += ["-hls_segment_filename", folder.appendingPathComponent("v%v/seg%03d.ts").path]
        case .fmp4:
            arguments += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                          "-hls_segment_filename", folder.appendingPathComponent("v%v/seg%03d.m4s").path]
        }
        arguments.append(folder.appendingPathComponent("v%v/index.m3u8").path)
        let result = try TestMedia.run("ffmpeg", arguments)
        guard result.status == 0 else { throw TestMediaError.ffmpegFailed("HLS variants", result.output) }
        let lowFirst = try String(contentsOf: folder.appendingPathComponent("master-low-first.m3u8"), encoding: .utf8)
        try reversedVariants(lowFirst).write(to: folder.appendingPathComponent("master-high-first.m3u8"),
                                             atomically: true, encoding: .utf8)
    }

    /// The master playlist with its `EXT-X-STREAM-INF` + URI pairs in reverse order.
    static func reversedVariants(_ master: String) -> String {
        let lines = master.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var header: [String] = []
        var pairs: [[String]] = []
        var index = 0
        while index < lines.count {
            if lines[index].hasPrefix("#EXT-X-STREAM-INF"), index + 1 < lines.count {
                pairs.append([lines[index], lines[index + 1]])
                index += 2
            } else {
                header.append(lines[index])
                index += 1
            }
        }
        return (header + pairs.reversed().flatMap { $0 }).joined(separator: "\n") + "\n"
    }
}
