// xsync.c -- when each of several windows shows each frame, seen from the X server (DAMAGE on the
// root window, as xwatch.c), for the synced-wall benchmark.
// Build: cc -O2 -o xsync scripts/bench/xsync.c -lX11 -lXdamage -lm
//
// xsync Y SECONDS X1 [X2 ...]   each window is 320 px wide at x = Xi; its picture has a white bar
//     at x = 10 × frame (the fixture of scripts/bench.sh sync). After every damage event the row Y
//     is read and, for each window whose bar moved, a line is printed:
//         <window index> <frame index> <CLOCK_REALTIME seconds>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_now(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: xsync Y SECONDS X1 [X2 ...]\n"); return 2; }
  int y = atoi(argv[1]);
  double end = clock_now(CLOCK_MONOTONIC) + atof(argv[2]);
  int n = argc - 3;
  int xs[16], last[16];
  if (n > 16) n = 16;
  int right = 0;
  for (int i = 0; i < n; i++) { xs[i] = atoi(argv[3 + i]); last[i] = -2; if (xs[i] + 320 > right) right = xs[i] + 320; }
  Display *d = XOpenDisplay(NULL);
  if (!d) { fprintf(stderr, "xsync: cannot open display\n"); return 1; }
  int evbase, errbase;
  if (!XDamageQueryExtension(d, &evbase, &errbase)) { fprintf(stderr, "xsync: no DAMAGE\n"); return 1; }
  Window root = DefaultRootWindow(d);
  Damage dmg = XDamageCreate(d, root, XDamageReportNonEmpty);
  XSync(d, False);
  while (XPending(d)) { XEvent ev; XNextEvent(d, &ev); }
  XDamageSubtract(d, dmg, None, None);
  while (clock_now(CLOCK_MONOTONIC) < end) {
    if (!XPending(d)) {
      struct pollfd p = {ConnectionNumber(d), POLLIN, 0};
      poll(&p, 1, 50);
      if (!XPending(d)) continue;
    }
    XEvent ev;
    XNextEvent(d, &ev);
    if (ev.type != evbase + XDamageNotify) continue;
    double t = clock_now(CLOCK_REALTIME);
    XDamageSubtract(d, dmg, None, None);
    XImage *im = XGetImage(d, root, 0, y, right, 1, AllPlanes, ZPixmap);
    if (!im) continue;
    for (int w = 0; w < n; w++) {
      long sum = 0; int cnt = 0;
      for (int i = 0; i < 320; i++) {
        unsigned long px = XGetPixel(im, xs[w] + i, 0);
        int lum = ((px >> 16) & 255) + ((px >> 8) & 255) + (px & 255);
        if (lum > 3 * 160) { sum += i; cnt++; }
      }
      int frame = cnt ? (int)(((double)sum / cnt - 3.5) / 10 + 0.5) : -1;
      if (frame != last[w]) printf("%d %d %.6f\n", w, frame, t);
      last[w] = frame;
    }
    XDestroyImage(im);
  }
  XCloseDisplay(d);
  return 0;
}
