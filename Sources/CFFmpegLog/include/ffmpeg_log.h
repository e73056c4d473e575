#ifndef LOOPPLAYER_FFMPEG_LOG_H
#define LOOPPLAYER_FFMPEG_LOG_H

/// Receives one formatted FFmpeg log line (no trailing newline) and its AV_LOG_* level.
typedef void (*lp_ffmpeg_log_sink)(int level, const char *line);

/// Routes av_log through `sink` for messages at or above `max_level` (AV_LOG_* scale, lower is worse).
void lp_ffmpeg_log_install(lp_ffmpeg_log_sink sink, int max_level);

#endif
