#ifndef LOOPPLAYER_CSDL_SHIM_H
#define LOOPPLAYER_CSDL_SHIM_H
#include <SDL2/SDL.h>

// SDL macros that Swift cannot import.
static inline int shim_sdl_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
#endif
