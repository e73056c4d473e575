#include "lp_pixel_kernels.h"

void lp_plane_table_apply(const uint8_t table[256], int width, int height, const uint8_t *src, int src_stride,
                          uint8_t *dst, int dst_stride) {
    for (int y = 0; y < height; y++) {
        const uint8_t *in = src + (long)y * src_stride;
        uint8_t *out = dst + (long)y * dst_stride;
        for (int x = 0; x < width; x++) out[x] = table[in[x]];
    }
}
