import CFFmpeg
import CLogBridge
import Logging

/// Sends FFmpeg's own messages (decoder concealment, demuxer warnings) to the library's logger
/// instead of stderr, so hosts silence or collect them like everything else.
package enum FFmpegLogBridge {
    private static let ffmpegLogger = Logger(label: "LoopPlayer.FFmpeg")

    /// Installed once, before the first FFmpeg object is made. Idempotent.
    package static let install: Void = {
        lp_ffmpeg_log_install({ level, line in
            guard let line else { return }
            FFmpegLogBridge.ffmpegLogger.log(level: FFmpegLogBridge.level(for: level), "\(String(cString: line))")
        }, AV_LOG_VERBOSE)
    }()

    /// FFmpeg's warnings and notes are chatter for a host (a channel layout ignored, a timestamp
    /// repaired): `debug`, below swift-log's default `info`. Its errors (concealed decode errors
    /// among them) are `info`; what fails playback reaches the host as a typed `PlayerError`.
    package static func level(for ffmpegLevel: Int32) -> Logger.Level {
        switch ffmpegLevel {
        case ...AV_LOG_FATAL: .error
        case ...AV_LOG_ERROR: .info
        case ...AV_LOG_VERBOSE: .debug
        default: .trace
        }
    }
}

/// Sends ALSA's own error lines (on a machine without sound: "cannot find card '0'" and seven more)
/// to the library's logger instead of stderr: the player says once, in one line, that there is no sound.
package enum ALSALogBridge {
    private static let alsaLogger = Logger(label: "LoopPlayer.ALSA")

    /// Installed before SDL's audio starts. Idempotent.
    package static let install: Void = {
        _ = lp_alsa_log_install { line in
            guard let line else { return }
            ALSALogBridge.alsaLogger.debug("\(String(cString: line))")
        }
    }()
}
