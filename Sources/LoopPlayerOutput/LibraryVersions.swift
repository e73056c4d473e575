import CFFmpeg
import CSDL

/// What the player is and runs on, as `loopplay --version` prints it (mpv's `--version` names its
/// FFmpeg libraries too: a bug report needs them).
package enum LibraryVersions {
    package static let loopPlayer = "0.9.0"

    /// `FFmpeg 5.1.6 (libavcodec 59.37.100, libavformat 59.27.100, libavfilter 8.44.100), SDL 2.26.5`:
    /// the libraries loaded at run time, not those built against.
    package static var libraries: String {
        var sdl = SDL_version()
        SDL_GetVersion(&sdl)
        return "FFmpeg \(String(cString: av_version_info())) (libavcodec \(dotted(avcodec_version())), "
            + "libavformat \(dotted(avformat_version())), libavfilter \(dotted(avfilter_version()))), "
            + "SDL \(sdl.major).\(sdl.minor).\(sdl.patch)"
    }

    /// FFmpeg's `AV_VERSION_INT` as `major.minor.micro`.
    private static func dotted(_ version: UInt32) -> String {
        "\(version >> 16).\((version >> 8) & 0xff).\(version & 0xff)"
    }
}
