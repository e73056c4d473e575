#include "lp_pixel_kernels.h"

#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LP_HAS_AVX2_PATH 1
#endif

/// One pixel, as `OverlayImage.sourceOver`: per byte src + round(dst·(255 − a)/255), at most 255.
static inline void blend_pixel(const uint8_t *s, uint8_t *d) {
    const unsigned keep = 255u - s[3];
    for (int c = 0; c < 4; c++) {
        unsigned t = d[c] * keep + 128;
        t = (t + (t >> 8)) >> 8;
        const unsigned sum = s[c] + t;
        d[c] = (uint8_t)(sum > 255 ? 255 : sum);
    }
}

static void blend_row_scalar(const uint8_t *src, uint8_t *dst, int width) {
    for (int x = 0; x < width; x++) {
        const uint8_t *s = src + 4 * x;
        if (s[3] == 0 && (s[0] | s[1] | s[2]) == 0) continue;
        if (s[3] == 255) {
            memcpy(dst + 4 * x, s, 4);
            continue;
        }
        blend_pixel(s, dst + 4 * x);
    }
}

#ifdef LP_HAS_AVX2_PATH
/// Eight pixels at a time; groups that are all transparent are skipped, all opaque copied.
__attribute__((target("avx2")))
static void blend_row_avx2(const uint8_t *src, uint8_t *dst, int width) {
    const __m256i alphas = _mm256_setr_epi8(3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15,
                                            3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
    const __m256i all = _mm256_set1_epi8((char)0xFF), round = _mm256_set1_epi16(128);
    int x = 0;
    for (; x + 8 <= width; x += 8) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)(src + 4 * x));
        if (_mm256_testz_si256(s, s)) continue;
        const __m256i a = _mm256_shuffle_epi8(s, alphas);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, all)) == -1) {
            _mm256_storeu_si256((__m256i *)(dst + 4 * x), s);
            continue;
        }
        const __m256i d = _mm256_loadu_si256((const __m256i *)(dst + 4 * x));
        const __m256i keep = _mm256_sub_epi8(all, a);
        __m256i out[2];
        for (int half = 0; half < 2; half++) {
            const __m128i s8 = half ? _mm256_extracti128_si256(s, 1) : _mm256_castsi256_si128(s);
            const __m128i d8 = half ? _mm256_extracti128_si256(d, 1) : _mm256_castsi256_si128(d);
            const __m128i k8 = half ? _mm256_extracti128_si256(keep, 1) : _mm256_castsi256_si128(keep);
            __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_cvtepu8_epi16(d8), _mm256_cvtepu8_epi16(k8)), round);
            t = _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
            out[half] = _mm256_add_epi16(_mm256_cvtepu8_epi16(s8), t);
        }
        // packus saturates each sum at 255; it interleaves 128-bit lanes, which the permute undoes.
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(out[0], out[1]), 0xD8);
        _mm256_storeu_si256((__m256i *)(dst + 4 * x), packed);
    }
    blend_row_scalar(src + 4 * x, dst + 4 * x, width - x);
}
#endif

void lp_blend_premultiplied(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width, int height) {
    // The AVX2 path where the CPU has it (x86 only); the scalar one gives the same bytes.
#ifdef LP_HAS_AVX2_PATH
    const int wide = __builtin_cpu_supports("avx2");
#else
    const int wide = 0;
#endif
    for (int y = 0; y < height; y++) {
        const uint8_t *s = src + (long)y * src_stride;
        uint8_t *d = dst + (long)y * dst_stride;
#ifdef LP_HAS_AVX2_PATH
        if (wide) { blend_row_avx2(s, d, width); continue; }
#endif
        (void)wide;
        blend_row_scalar(s, d, width);
    }
}
