#ifndef LOOPPLAYER_SYSTEM_H
#define LOOPPLAYER_SYSTEM_H

/// Names the calling thread: what `top -H`, perf and /proc show (Linux keeps the first 15 bytes).
/// prctl is variadic, which Swift cannot call.
void lp_name_this_thread(const char *name);

#endif
