import Foundation

/// Small playlist items that differ in size and rate, so every frame says which item it is from.
enum PlaylistMedia {
    /// 30 frames of testsrc2, 320x180 at 30 fps (1 s).
    static func first() throws -> String {
        try TestMedia.testPattern("pl-first-320x180-30.mp4", frames: 30, codec: TestMedia.h264)
    }

    /// 25 frames, 240x136 at 25 fps (1 s).
    static func second() throws -> String {
        try TestMedia.testPattern("pl-second-240x136-25.mp4", frames: 25, rate: 25, size: "240x136", codec: TestMedia.h264)
    }

    /// 15 frames, 160x90 at 30 fps, VP8 in WebM: another container and codec.
    static func third() throws -> String {
        try TestMedia.testPattern("pl-third-160x90-30.webm", frames: 15, size: "160x90", codec: ["-c:v", "libvpx", "-b:v", "200k"])
    }
}
