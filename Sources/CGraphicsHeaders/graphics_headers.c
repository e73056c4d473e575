// Puts Pango's, librsvg's and gdk-pixbuf's headers on the search path of everything that depends
// on the overlay graphics: `include/` links to their Debian directories (/usr/include/pango-1.0/pango
// and the like). Their pkg-config files would give the same directories, but also `-pthread`
// (Debian's gmodule-no-export-2.0.pc, required through gio), which SwiftPM refuses with a warning
// in every package that depends on LoopPlayer. The other directories (cairo, glib, harfbuzz) come
// from pkg-config modules that carry no such flag (COverlayGraphics).
#include "graphics_headers.h"
typedef int loopplayer_graphics_headers_unused;
