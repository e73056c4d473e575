// scripts/bench.sh kernels: the pixel kernels and what they replace, one 1080p (and 2160p) picture at a
// time on one core, best of N runs. Built by bench.sh against Sources/CPixelKernels, libswscale and SDL2.
#include "lp_pixel_kernels.h"
#include <SDL.h>
#include <libswscale/swscale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define BEST(label, runs, ...)                                                 \
    do {                                                                     \
        double best = 1e9;                                                   \
        for (int run = 0; run < (runs); run++) {                             \
            double start = now();                                            \
            __VA_ARGS__;                                                     \
            double took = now() - start;                                     \
            if (took < best) best = took;                                    \
        }                                                                    \
        printf("%-58s %7.2f ms\n", label, best * 1000);                      \
    } while (0)

static void colour_mixer(int w, int h) {
    uint8_t *y = malloc((size_t)w * h), *u = malloc((size_t)w * h / 4), *v = malloc((size_t)w * h / 4);
    uint8_t *Y = malloc((size_t)w * h), *U = malloc((size_t)w * h / 4), *V = malloc((size_t)w * h / 4);
    for (long i = 0; i < (long)w * h; i++) y[i] = 16 + (i * 7) % 220;
    for (long i = 0; i < (long)w * h / 4; i++) { u[i] = 100 + i % 50; v[i] = 110 + (i * 3) % 60; }
    const double sepia[9] = {0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131};
    lp_rgb_matrix m;
    lp_rgb_matrix_prepare(&m, sepia, 0.2126, 0.0722, 0);
    lp_yuv420_planes from = {y, u, v, w, w / 2, w / 2}, into = {Y, U, V, w, w / 2, w / 2};
    char label[80];
    snprintf(label, sizeof label, "colour mixer (sepia), %dx%d", w, h);
    BEST(label, 30, lp_rgb_matrix_apply(&m, w, h, &from, &into));
    free(y); free(u); free(v); free(Y); free(U); free(V);
}

static void conversion_into_window(void) {
    const int w = 1920, h = 1080, n = 8;  // eight sources in turn: read from memory, as in playback
    uint8_t *planes[8][3];
    for (int i = 0; i < n; i++) {
        planes[i][0] = malloc(w * h); planes[i][1] = malloc(w * h / 4); planes[i][2] = malloc(w * h / 4);
        memset(planes[i][0], 60 + i, w * h); memset(planes[i][1], 120, w * h / 4); memset(planes[i][2], 130, w * h / 4);
    }
    uint8_t *out = aligned_alloc(64, (size_t)w * h * 4);
    struct SwsContext *c = sws_getContext(w, h, AV_PIX_FMT_YUV420P, w, h, AV_PIX_FMT_BGRA, SWS_POINT, NULL, NULL, NULL);
    sws_setColorspaceDetails(c, sws_getCoefficients(SWS_CS_ITU709), 0, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    int strides[3] = {w, w / 2, w / 2}, outStride[1] = {w * 4};
    int turn = 0;
    BEST("swscale yuv420p -> BGRA into a window-sized buffer, 1080p", 64, {
        const uint8_t *in[3] = {planes[turn % n][0], planes[turn % n][1], planes[turn % n][2]};
        uint8_t *dst[1] = {out};
        sws_scale(c, in, strides, 0, h, dst, outStride);
        turn++;
    });
    sws_freeContext(c);
}

static void overlay_blend(void) {
    const int w = 1920, h = 1080;
    // A semi-transparent plane over the whole picture: premultiplied for ours, straight for SDL.
    uint8_t *premultiplied = malloc((size_t)w * h * 4);
    for (long i = 0; i < (long)w * h; i++) {
        premultiplied[4 * i] = 90; premultiplied[4 * i + 1] = 45; premultiplied[4 * i + 2] = 22; premultiplied[4 * i + 3] = 178;
    }
    SDL_Surface *target = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
    SDL_Surface *plane = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_FillRect(plane, NULL, SDL_MapRGBA(plane->format, 31, 64, 128, 178));
    SDL_SetSurfaceBlendMode(plane, SDL_BLENDMODE_BLEND);
    SDL_FillRect(target, NULL, SDL_MapRGB(target->format, 200, 100, 50));
    BEST("SDL_UpperBlit, whole 1080p plane, straight alpha", 20, SDL_UpperBlit(plane, NULL, target, NULL));
    BEST("lp_blend_premultiplied, whole 1080p plane", 20,
         lp_blend_premultiplied(premultiplied, w * 4, target->pixels, target->pitch, w, h));
    SDL_FreeSurface(plane);
    SDL_FreeSurface(target);
}

int main(void) {
    colour_mixer(1920, 1080);
    colour_mixer(3840, 2160);
    conversion_into_window();
    overlay_blend();
    return 0;
}
