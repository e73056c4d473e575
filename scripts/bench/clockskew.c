// A system clock that runs at another rate than the monotonic clock, as a sound card's crystal
// does against the system clock (or NTP slewing the system clock): preloaded into a player, its
// CLOCK_REALTIME runs `SKEW_RATE` times as fast as the real one from Unix time `SKEW_ORIGIN`; the
// monotonic clocks and sleeps are left alone (libfaketime fails clock_nanosleep on them).
//
//   cc -shared -fPIC -O2 -o clockskew.so clockskew.c -ldl
//   SKEW_RATE=1.0002 SKEW_ORIGIN=$(date +%s.%N) LD_PRELOAD=./clockskew.so loopplay ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static double rate = 1, origin;

static void setup(void) {
    if (real_clock_gettime) return;
    const char *r = getenv("SKEW_RATE"), *o = getenv("SKEW_ORIGIN");
    if (r) rate = strtod(r, NULL);
    if (o) origin = strtod(o, NULL);
    real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
}

static void skew(struct timespec *ts) {
    // Whole seconds and the fraction apart: a double holds a Unix time to about 0.2 µs.
    double seconds = (double)ts->tv_sec - origin + ts->tv_nsec / 1e9;
    double skewed = seconds * rate;
    double whole = (double)(long long)skewed;
    long long sec = (long long)origin + (long long)whole;
    double fraction = (origin - (double)(long long)origin) + (skewed - whole);
    while (fraction >= 1) { fraction -= 1; sec += 1; }
    while (fraction < 0) { fraction += 1; sec -= 1; }
    ts->tv_sec = (time_t)sec;
    ts->tv_nsec = (long)(fraction * 1e9);
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    setup();
    int rc = real_clock_gettime(id, ts);
    if (rc == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) skew(ts);
    return rc;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}
