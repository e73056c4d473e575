#ifndef LOOPPLAYER_CLIBASS_SHIM_H
#define LOOPPLAYER_CLIBASS_SHIM_H
#include <ass/ass.h>
#endif
