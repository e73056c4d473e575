import CPixelKernels

extension OverlayImage {
    /// Blends the image onto opaque BGRA or BGRX pixels (premultiplied source-over), clipped to the buffer.
    ///
    /// ```swift
    /// frame.withUnsafeMutableBytes { bytes in
    ///     image.composite(ontoBGRA: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
    ///                     width: 1280, height: 720, stride: 1280 * 4)
    /// }
    /// ```
    /// Each byte becomes `src + dst·(255 − a)/255`, rounded to nearest (exact for every input) and
    /// limited to 255; the fourth byte is blended the same way, so an opaque destination stays opaque.
    /// The loop is C (`lp_blend_premultiplied`: eight pixels at a time with AVX2, all-transparent groups
    /// skipped, all-opaque ones copied; 0.7 ms for a full semi-transparent 1920×1080 image).
    package func composite(ontoBGRA pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        let left = max(x, 0), top = max(y, 0)
        let right = min(x &+ self.width, width), bottom = min(y &+ self.height, height)
        guard right > left, bottom > top, stride >= width * 4, hasAllPixels else { return }
        self.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            lp_blend_premultiplied(base + (top - y) * self.stride + (left - x) * 4, Int32(self.stride),
                                   pixels + top * stride + left * 4, Int32(stride), Int32(right - left), Int32(bottom - top))
        }
    }

    /// A copy with straight (un-premultiplied) colour, for SDL's `SDL_BLENDMODE_BLEND`.
    ///
    /// ```swift
    /// let upload = image.straightAlpha()   // then SDL_UpdateTexture with upload.pixels
    /// ```
    /// Each colour byte becomes `c·255/a` rounded (at most 255); fully transparent pixels become all zeros.
    package func straightAlpha() -> OverlayImage {
        var copy = self
        guard hasAllPixels else { return copy }
        copy.pixels.withUnsafeMutableBufferPointer { bytes in
            UnpremultiplyTable.shared.withUnsafeBufferPointer { table in
                for row in 0..<height {
                    var i = row * stride
                    for _ in 0..<width {
                        let alpha = Int(bytes[i + 3])
                        if alpha != 255 {
                            let base = alpha << 8
                            bytes[i] = table[base | Int(bytes[i])]
                            bytes[i + 1] = table[base | Int(bytes[i + 1])]
                            bytes[i + 2] = table[base | Int(bytes[i + 2])]
                        }
                        i += 4
                    }
                }
            }
        }
        return copy
    }

    private var hasAllPixels: Bool { pixels.count >= stride * height }
}

/// round(c·255/a), at most 255, for every alpha a (row) and colour c (column); 0 where a is 0.
private enum UnpremultiplyTable {
    static let shared: [UInt8] = (0..<65536).map { index in
        let (alpha, colour) = (index >> 8, index & 0xFF)
        guard alpha != 0 else { return 0 }
        return UInt8(min((colour * 255 + alpha / 2) / alpha, 255))
    }
}
