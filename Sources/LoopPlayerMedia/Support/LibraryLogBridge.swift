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

    /// Concealed decode errors are routine for a player: they are notices, not errors.
    package static func level(for ffmpegLevel: Int32) -> Logger.Level {
        switch ffmpegLevel {
        case ...AV_LOG_FATAL: .critical
        case ...AV_LOG_ERROR: .notice
        case ...AV_LOG_WARNING: .info
        default: .debug
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
