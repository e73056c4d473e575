// The cost of working at the pace of real time: the same "pictures" of work done back to back, then
// with a 30 ms sleep after each one (or after every 8th), CPU time per picture. One picture touches an
// 8 MB buffer and then works in the first-level cache (memory), or only works in that cache (compute).
//   paced MEMORY(0|1) PICTURES SLEEP_SECONDS BURST
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint8_t *buffer;
static const size_t bufferSize = 8u << 20;
static volatile uint64_t sink;

static uint8_t small[16384];

// About 2-4 ms of work: two passes over the 8 MB buffer (memory), then passes over 16 kB that stay in
// the first-level cache.
static void picture(int memory) {
    uint64_t s = 0;
    if (memory) {
        for (size_t i = 0; i < bufferSize; i += 64) { buffer[i] += (uint8_t)i; s += buffer[i]; }
        for (size_t i = 0; i < bufferSize; i += 64) s += buffer[i] * 3u;
    }
    for (int pass = 0; pass < 400; pass++) {
        for (size_t i = 0; i < sizeof small; i++) small[i] = (uint8_t)(small[i] * 5u + (uint8_t)pass + (uint8_t)(i >> 3));
        s += small[pass & 16383];
    }
    sink += s;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: paced MEMORY PICTURES SLEEP_SECONDS BURST\n"); return 64; }
    int memory = atoi(argv[1]), pictures = atoi(argv[2]), burst = atoi(argv[4]);
    double pause = atof(argv[3]);
    if (pictures < 1 || burst < 1 || !(buffer = malloc(bufferSize))) return 64;
    memset(buffer, 1, bufferSize);
    double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (int n = 0; n < pictures; n++) {
        picture(memory);
        if (pause > 0 && (n + 1) % burst == 0) {
            double total = pause * burst;
            struct timespec t = { (time_t)total, (long)((total - (time_t)total) * 1e9) };
            nanosleep(&t, NULL);
        }
    }
    cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    printf("%-7s sleep %.3f s every %d: %.3f ms CPU a picture\n", memory ? "memory" : "compute", pause, burst,
           cpu * 1000 / pictures);
    return 0;
}
