#ifndef LOOPPLAYER_CSDL_SHIM_H
#define LOOPPLAYER_CSDL_SHIM_H
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <X11/Xatom.h>
#include <stdio.h>

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

static int shim_x11_ignore_error(Display *display, XErrorEvent *error) {
    (void)display;
    (void)error;
    return 0;
}

/// The property `name` of `window` if it holds items of `type` and `format` bits (NULL otherwise),
/// at most `length` 32-bit units of it; `count` gets the number of items. XFree the result.
static inline unsigned char *shim_x11_read_property(Display *display, Window window, const char *name, Atom type,
                                                    int format, long length, unsigned long *count) {
    Atom actual;
    int actualFormat;
    unsigned long after;
    unsigned char *data = NULL;
    if (XGetWindowProperty(display, window, XInternAtom(display, name, False), 0, length, False, type, &actual,
                           &actualFormat, count, &after, &data) == Success && actual == type && actualFormat == format)
        return data;
    if (data) XFree(data);
    *count = 0;
    return NULL;
}

/// The first item of a 32-bit property of `window` of type `type` (0 if there is none).
static inline unsigned long shim_x11_property(Display *display, Window window, const char *name, Atom type) {
    unsigned long count;
    unsigned char *data = shim_x11_read_property(display, window, name, type, 32, 1, &count);
    unsigned long value = data && count == 1 ? ((unsigned long *)data)[0] : 0;  // 32-bit items come as longs
    if (data) XFree(data);
    return value;
}

/// What the X11 window manager does for a window that asks to stay above the others (EWMH):
/// 2 one runs and lists _NET_WM_STATE_ABOVE, 1 one runs and does not, 0 none runs (the root's
/// _NET_SUPPORTING_WM_CHECK is missing or names a window that does not point back to itself: a
/// window manager that died), -1 not an X11 window. `name` gets the window manager's _NET_WM_NAME
/// (may be empty). A window the check names may be gone: X errors are ignored meanwhile (the handler
/// is process-wide: call on the main thread, where every X call of the player is made).
static inline int shim_x11_window_manager_keeps_above(SDL_Window *window, char *name, int size) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (size > 0) name[0] = 0;
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return -1;
    Display *display = info.info.x11.display;
    XSync(display, False);
    int (*previous)(Display *, XErrorEvent *) = XSetErrorHandler(shim_x11_ignore_error);
    int result = 0;
    Window check = (Window)shim_x11_property(display, DefaultRootWindow(display), "_NET_SUPPORTING_WM_CHECK", XA_WINDOW);
    if (check && (Window)shim_x11_property(display, check, "_NET_SUPPORTING_WM_CHECK", XA_WINDOW) == check) {
        result = 1;
        Atom above = XInternAtom(display, "_NET_WM_STATE_ABOVE", False);
        unsigned long count;
        unsigned char *data = shim_x11_read_property(display, DefaultRootWindow(display), "_NET_SUPPORTED", XA_ATOM, 32,
                                                     4096, &count);
        for (unsigned long i = 0; data && i < count; i++) {
            if (((Atom *)data)[i] == above) result = 2;
        }
        if (data) XFree(data);
        data = size > 0 ? shim_x11_read_property(display, check, "_NET_WM_NAME", XInternAtom(display, "UTF8_STRING", False),
                                                 8, 64, &count) : NULL;
        if (data) snprintf(name, (size_t)size, "%.*s", (int)count, (const char *)data);
        if (data) XFree(data);
    }
    XSync(display, False);
    XSetErrorHandler(previous);
    return result;
}
#endif
