#include "lp_pixel_kernels.h"

#include <stdlib.h>

void lp_rgb_matrix_prepare(lp_rgb_matrix *m, const double mix[9], double kr, double kb, int full_range) {
    for (int i = 0; i < 9; i++) m->mix[i] = (float)mix[i];
    double kg = 1 - kr - kb;
    m->kr = (float)kr;
    m->kg = (float)kg;
    m->kb = (float)kb;
    m->lumaOffset = full_range ? 0.0f : 16.0f;
    m->lumaScale = full_range ? 1.0f : (float)(255.0 / 219.0);
    m->chromaScale = full_range ? 1.0f : (float)(255.0 / 224.0);
    m->crToR = (float)(2 * (1 - kr));
    m->cbToB = (float)(2 * (1 - kb));
    m->cbToG = (float)(-2 * kb * (1 - kb) / kg);
    m->crToG = (float)(-2 * kr * (1 - kr) / kg);
}

static inline float clamp255(float v) { return v < 0 ? 0 : (v > 255 ? 255 : v); }

static inline uint8_t to_byte(float v) {
    v += 0.5f;
    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

/// One luma row: each pixel's colour (its luma plus its block's chroma terms), mixed and clipped;
/// writes the new luma and adds the mixed colour to the column sums (`add`: the second row of a pair).
static inline __attribute__((always_inline)) void mix_row(const lp_rgb_matrix *m, int width, const uint8_t *in,
                                                          uint8_t *out, const float *dr, const float *dg, const float *db,
                                                          float *sr, float *sg, float *sb, int add) {
    const float m0 = m->mix[0], m1 = m->mix[1], m2 = m->mix[2], m3 = m->mix[3], m4 = m->mix[4], m5 = m->mix[5],
                m6 = m->mix[6], m7 = m->mix[7], m8 = m->mix[8];
    const float offset = m->lumaOffset, scale = m->lumaScale, back = 1.0f / m->lumaScale;
    const float kr = m->kr * back, kg = m->kg * back, kb = m->kb * back;
#pragma clang loop vectorize(enable)
    for (int x = 0; x < width; x++) {
        const float y = ((float)in[x] - offset) * scale;
        const float r = clamp255(y + dr[x]), g = clamp255(y + dg[x]), b = clamp255(y + db[x]);
        const float r2 = clamp255(m0 * r + m1 * g + m2 * b);
        const float g2 = clamp255(m3 * r + m4 * g + m5 * b);
        const float b2 = clamp255(m6 * r + m7 * g + m8 * b);
        out[x] = to_byte(offset + kr * r2 + kg * g2 + kb * b2);
        sr[x] = add ? sr[x] + r2 : r2;
        sg[x] = add ? sg[x] + g2 : g2;
        sb[x] = add ? sb[x] + b2 : b2;
    }
}

// AVX2 runs the row loop about twice as fast as SSE2 (8-wide floats, cheap byte ↔ float
// conversions); the clone is chosen at load time (an ifunc: glibc). LP_KERNELS_WITHOUT_CLONES builds
// the default one alone (for `scripts/bench.sh kernels`). So does ThreadSanitizer: the ifunc
// resolver is instrumented (__tsan_func_entry) and the dynamic loader runs it while relocating,
// before the TSan runtime is initialised, so every TSan binary crashed at load (`scripts/sanitize.sh
// thread`).
#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if (defined(__x86_64__) || defined(__i386__)) && !defined(LP_KERNELS_WITHOUT_CLONES) && \
    !__has_feature(thread_sanitizer) && !defined(__SANITIZE_THREAD__)
#define LP_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LP_TARGET_CLONES
#endif
LP_TARGET_CLONES
int lp_rgb_matrix_apply(const lp_rgb_matrix *m, int width, int height, const lp_yuv420_planes *src,
                        const lp_yuv420_planes *dst) {
    if (width <= 0 || height <= 0) return 0;
    const int chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
    const int padded = 2 * chroma_width;  // an odd width's last pixel is counted twice in its block
    // Per luma column: the chroma terms of its block (dr, dg, db) and the mixed colours' sums.
    float *rows = malloc(sizeof(float) * 6 * (size_t)padded);
    if (!rows) return -1;
    float *dr = rows, *dg = rows + padded, *db = rows + 2 * padded;
    float *sr = rows + 3 * padded, *sg = rows + 4 * padded, *sb = rows + 5 * padded;
    const float chromaIn = m->chromaScale, chromaOut = 1.0f / m->chromaScale;
    const float toCb = chromaOut / m->cbToB, toCr = chromaOut / m->crToR;
    for (int cy = 0; cy < chroma_height; cy++) {
        const int y0 = 2 * cy, y1 = y0 + 1 < height ? y0 + 1 : y0;
        const uint8_t *inCb = src->cb + (long)cy * src->cb_stride, *inCr = src->cr + (long)cy * src->cr_stride;
        for (int x = 0; x < padded; x++) {
            const float cb = ((float)inCb[x >> 1] - 128.0f) * chromaIn, cr = ((float)inCr[x >> 1] - 128.0f) * chromaIn;
            dr[x] = m->crToR * cr;
            dg[x] = m->cbToG * cb + m->crToG * cr;
            db[x] = m->cbToB * cb;
        }
        mix_row(m, width, src->y + (long)y0 * src->y_stride, dst->y + (long)y0 * dst->y_stride, dr, dg, db, sr, sg, sb, 0);
        if (y1 != y0) {
            mix_row(m, width, src->y + (long)y1 * src->y_stride, dst->y + (long)y1 * dst->y_stride, dr, dg, db, sr, sg, sb, 1);
        } else {
            for (int x = 0; x < width; x++) { sr[x] *= 2; sg[x] *= 2; sb[x] *= 2; }
        }
        if (width & 1) {
            sr[width] = sr[width - 1];
            sg[width] = sg[width - 1];
            sb[width] = sb[width - 1];
        }
        uint8_t *outCb = dst->cb + (long)cy * dst->cb_stride, *outCr = dst->cr + (long)cy * dst->cr_stride;
        for (int cx = 0; cx < chroma_width; cx++) {
            const float r = (sr[2 * cx] + sr[2 * cx + 1]) * 0.25f;
            const float g = (sg[2 * cx] + sg[2 * cx + 1]) * 0.25f;
            const float b = (sb[2 * cx] + sb[2 * cx + 1]) * 0.25f;
            const float luma = m->kr * r + m->kg * g + m->kb * b;
            outCb[cx] = to_byte(128.0f + (b - luma) * toCb);
            outCr[cx] = to_byte(128.0f + (r - luma) * toCr);
        }
    }
    free(rows);
    return 0;
}
