#ifndef LOOPPLAYER_FUZZ_DRIVER_H
#define LOOPPLAYER_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (-sanitize=fuzzer links it): each target's main hands it its callback, so the
// targets stay ordinary SwiftPM executables.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
