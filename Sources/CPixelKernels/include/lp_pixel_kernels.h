#ifndef LP_PIXEL_KERNELS_H
#define LP_PIXEL_KERNELS_H

#include <stdint.h>

/// An RGB colour matrix applied to 8-bit 4:2:0 YUV, as if the picture had been converted to RGB,
/// mixed (each channel clipped to 0…255 like 8-bit RGB) and converted back: the luma of each pixel
/// from its own mixed colour, the chroma of each 2×2 block from the mean of its four mixed colours.
/// Made by `lp_rgb_matrix_prepare` from the matrix and the picture's YUV coefficients.
typedef struct {
    float mix[9];          // row-major: R' = mix[0] R + mix[1] G + mix[2] B, …
    float kr, kg, kb;      // luma weights of the picture's matrix (BT.601, BT.709, BT.2020)
    float lumaOffset;      // 16 (limited range) or 0 (full range)
    float lumaScale;       // 255/219 or 1: Y − offset → 0…255
    float chromaScale;     // 255/224 or 1: Cb, Cr − 128 → −127.5…127.5
    float crToR, cbToG, crToG, cbToB;
} lp_rgb_matrix;

void lp_rgb_matrix_prepare(lp_rgb_matrix *matrix, const double mix[9], double kr, double kb, int full_range);

/// One 8-bit 4:2:0 picture's planes (strides in bytes; Cb and Cr may differ).
typedef struct {
    uint8_t *y, *cb, *cr;
    int y_stride, cb_stride, cr_stride;
} lp_yuv420_planes;

/// Writes the mixed picture into `dst` (which may not overlap `src`). `width` and `height` are the
/// luma size; odd sizes are handled (the last column or row shares its chroma sample). Returns 0, or
/// −1 when out of memory (`dst` is then unchanged).
int lp_rgb_matrix_apply(const lp_rgb_matrix *matrix, int width, int height, const lp_yuv420_planes *src,
                        const lp_yuv420_planes *dst);

/// Maps every sample of a `width`×`height` 8-bit plane through `table` into `dst` (brightness and
/// contrast on luma).
void lp_plane_table_apply(const uint8_t table[256], int width, int height, const uint8_t *src, int src_stride,
                          uint8_t *dst, int dst_stride);

/// Premultiplied B, G, R, A pixels over opaque B, G, R, X ones (source-over), `width`×`height`: each
/// byte becomes src + round(dst·(255 − a)/255), at most 255 (`OverlayImage.composite`'s math).
void lp_blend_premultiplied(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width, int height);

#endif
