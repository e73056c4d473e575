import Foundation

/// Media with the real-world faults of the hardening issue, made by the ffmpeg tool at test time.
extension TestMedia {
    /// MPEG-TS H.264 (+ AAC when `sound`) whose parameter sets were removed: every packet reads fine
    /// and no picture can be decoded ("non-existing PPS").
    static func undecodablePictures(sound: Bool) throws -> String {
        let name = sound ? "undecodable-av.ts" : "undecodable-v.ts"
        let source = try clip(sound ? "decodable-av.ts" : "decodable-v.ts",
                              ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30"]
                              + (sound ? ["-f", "lavfi", "-i", "sine=f=440:r=48000", "-c:a", "aac"] : [])
                              + ["-t", "4"] + h264 + ["-pix_fmt", "yuv420p"])
        return try clip(name, ["-i", source, "-c", "copy", "-bsf:v", "filter_units=remove_types=7|8"])
    }

    /// H.264 with B-frames whose container timestamps ignore the reordering (pts = dts, as phone and
    /// webcam exports often have): frames come out of the decoder with pts going backwards.
    static func decodeOrderTimestamps() throws -> String {
        let source = try clip("bframes.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-t", "4",
                                              "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "30",
                                              "-pix_fmt", "yuv420p"])
        return try clip("bframes-pts-is-dts.mp4", ["-i", source, "-c", "copy", "-bsf:v", "setts=pts=DTS"])
    }

    /// A raw H.264 elementary stream: no container timestamps at all (30 fps in the stream's VUI).
    static func rawH264() throws -> String {
        try clip("raw.h264", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "90"] + h264
                 + ["-pix_fmt", "yuv420p", "-f", "h264"])
    }

    /// MPEG-TS whose timestamps jump 100 s forward after two seconds (two recordings concatenated).
    static func timestampJump() throws -> String {
        let path = directory.appendingPathComponent("jump.ts").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let first = try clip("jump-a.ts", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "60"] + h264
                             + ["-pix_fmt", "yuv420p"])
        let second = try clip("jump-b.ts", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "60"] + h264
                              + ["-pix_fmt", "yuv420p", "-output_ts_offset", "100"])
        var joined = try Data(contentsOf: URL(fileURLWithPath: first))
        joined.append(try Data(contentsOf: URL(fileURLWithPath: second)))
        try joined.write(to: URL(fileURLWithPath: path))
        return path
    }
}
