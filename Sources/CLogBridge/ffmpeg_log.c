// FFmpeg's log callback takes a va_list, which Swift cannot receive: format the line here.
#include "log_bridge.h"
#include <libavutil/log.h>
#include <stdatomic.h>
#include <string.h>

static _Atomic(lp_ffmpeg_log_sink) current_sink;
static atomic_int current_max_level = AV_LOG_WARNING;

static void forward(void *avcl, int level, const char *fmt, va_list args) {
    lp_ffmpeg_log_sink sink = atomic_load(&current_sink);
    if (!sink || level > atomic_load(&current_max_level)) return;
    char line[1024];
    int print_prefix = 1;
    av_log_format_line(avcl, level, fmt, args, line, sizeof line, &print_prefix);
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
    if (length > 0) sink(level, line);
}

void lp_ffmpeg_log_install(lp_ffmpeg_log_sink sink, int max_level) {
    atomic_store(&current_max_level, max_level);
    atomic_store(&current_sink, sink);
    av_log_set_callback(forward);
}
