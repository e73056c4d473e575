#ifndef LOOPPLAYER_GRAPHICS_HEADERS_H
#define LOOPPLAYER_GRAPHICS_HEADERS_H
// Nothing to declare: this target exists for its include directory.
#endif
