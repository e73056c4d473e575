#ifndef LOOPPLAYER_CSDL_SHIM_H
#define LOOPPLAYER_CSDL_SHIM_H
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

// SDL macros that Swift cannot import.
static inline int shim_sdl_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }

/// The size the X server really gave an SDL window (SDL reports what it asked for: after a fullscreen
/// request with no window manager to honour it, SDL's size is the screen's while the window is
/// unchanged). 0 when the window is not an X11 one. Xlib comes from the process (SDL loaded it).
static inline int shim_x11_window_size(SDL_Window *window, int *width, int *height) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    Window root;
    int x, y;
    unsigned int w, h, border, depth;
    if (!XGetGeometry(info.info.x11.display, info.info.x11.window, &root, &x, &y, &w, &h, &border, &depth)) return 0;
    *width = (int)w;
    *height = (int)h;
    return 1;
}
#endif
