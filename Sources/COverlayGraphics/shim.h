#ifndef LOOPPLAYER_COVERLAYGRAPHICS_SHIM_H
#define LOOPPLAYER_COVERLAYGRAPHICS_SHIM_H
// Cairo draws the overlay layers, Pango (through pangocairo) lays out their text, librsvg draws SVG files.
#include <cairo.h>
#include <pango/pangocairo.h>
#include <librsvg/rsvg.h>
#endif
