// ALSA's error handler is variadic, which Swift cannot implement: format the line here. ALSA is
// found at run time (SDL loads it the same way), so the library does not link it.
#include "log_bridge.h"
#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

typedef void (*alsa_error_handler)(const char *file, int line, const char *function, int err, const char *fmt, ...);
typedef int (*alsa_set_handler)(alsa_error_handler handler);

static _Atomic(lp_line_sink) alsa_sink;

static void forward(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    lp_line_sink sink = atomic_load(&alsa_sink);
    if (!sink) return;
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    char full[768];
    snprintf(full, sizeof full, "ALSA %s:%d (%s): %s", file ? file : "?", line, function ? function : "?", message);
    sink(full);
}

int lp_alsa_log_install(lp_line_sink sink) {
    void *alsa = dlopen("libasound.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (!alsa) return 0;
    alsa_set_handler set = (alsa_set_handler)dlsym(alsa, "snd_lib_error_set_handler");
    if (!set) return 0;
    atomic_store(&alsa_sink, sink);
    set(forward);
    return 1;  // the handle stays open: ALSA keeps the handler for the process's life
}
