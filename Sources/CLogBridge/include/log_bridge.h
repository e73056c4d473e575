#ifndef LOOPPLAYER_LOG_BRIDGE_H
#define LOOPPLAYER_LOG_BRIDGE_H

/// Receives one formatted FFmpeg log line (no trailing newline) and its AV_LOG_* level.
typedef void (*lp_ffmpeg_log_sink)(int level, const char *line);

/// Routes av_log through `sink` for messages at or above `max_level` (AV_LOG_* scale, lower is worse).
void lp_ffmpeg_log_install(lp_ffmpeg_log_sink sink, int max_level);

/// Receives one formatted line of a C library's own diagnostics (no trailing newline).
typedef void (*lp_line_sink)(const char *line);

/// Routes ALSA's error messages (printed on stderr by default, e.g. "cannot find card '0'" on a
/// machine without sound) through `sink`, if ALSA is installed. ALSA is loaded here the same way SDL
/// loads it, so SDL's copy is this one. Returns 0 when ALSA is not there (nothing to route).
int lp_alsa_log_install(lp_line_sink sink);

#endif
