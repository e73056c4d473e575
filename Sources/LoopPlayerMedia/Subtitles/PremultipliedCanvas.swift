import Overlay

/// 8-bit arithmetic on premultiplied pixels.
package enum Pixels {
    /// `value / 255` rounded to nearest, exact for `0…255·255`.
    @inline(__always)
    package static func divideBy255(_ value: UInt32) -> UInt32 {
        let biased = value + 128
        return (biased + (biased >> 8)) >> 8
    }
}

/// A premultiplied BGRA picture being composed, placed at `(x, y)` in the player area; layers
/// are drawn over each other with Porter-Duff "over", in order.
package struct PremultipliedCanvas {
    package let x: Int
    package let y: Int
    package let width: Int
    package let height: Int
    package private(set) var pixels: [UInt8]

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
    }

    /// Draws `color` (straight r, g, b, a) through an 8-bit coverage mask whose top-left pixel
    /// lands at area coordinates `(left, top)`; the mask's parts outside the canvas are skipped.
    package mutating func fill(mask: UnsafePointer<UInt8>, stride: Int, width maskWidth: Int, height maskHeight: Int,
                       left: Int, top: Int, red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) {
        guard alpha > 0 else { return }
        let x0 = max(left, x), x1 = min(left + maskWidth, x + width)
        let y0 = max(top, y), y1 = min(top + maskHeight, y + height)
        guard x0 < x1, y0 < y1 else { return }
        let canvasWidth = width, originX = x, originY = y
        pixels.withUnsafeMutableBufferPointer { out in
            for row in y0..<y1 {
                let source = mask + (row - top) * stride
                var i = ((row - originY) * canvasWidth + (x0 - originX)) * 4
                for column in x0..<x1 {
                    let coverage = UInt32(source[column - left])
                    if coverage != 0 {
                        let a = Pixels.divideBy255(coverage * alpha)
                        let keep = 255 - a
                        out[i] = UInt8(Pixels.divideBy255(blue * a + UInt32(out[i]) * keep))
                        out[i + 1] = UInt8(Pixels.divideBy255(green * a + UInt32(out[i + 1]) * keep))
                        out[i + 2] = UInt8(Pixels.divideBy255(red * a + UInt32(out[i + 2]) * keep))
                        out[i + 3] = UInt8(a + Pixels.divideBy255(UInt32(out[i + 3]) * keep))
                    }
                    i += 4
                }
            }
        }
    }

    /// Draws a premultiplied BGRA picture (rows of `width * 4` bytes) whose top-left pixel lands
    /// at area coordinates `(left, top)`.
    package mutating func draw(bgra source: [UInt8], width sourceWidth: Int, height sourceHeight: Int, left: Int, top: Int) {
        let x0 = max(left, x), x1 = min(left + sourceWidth, x + width)
        let y0 = max(top, y), y1 = min(top + sourceHeight, y + height)
        guard x0 < x1, y0 < y1, source.count >= sourceWidth * sourceHeight * 4 else { return }
        let canvasWidth = width, originX = x, originY = y
        pixels.withUnsafeMutableBufferPointer { out in
            source.withUnsafeBufferPointer { input in
                for row in y0..<y1 {
                    var s = ((row - top) * sourceWidth + (x0 - left)) * 4
                    var i = ((row - originY) * canvasWidth + (x0 - originX)) * 4
                    for _ in x0..<x1 {
                        let a = UInt32(input[s + 3])
                        if a == 255 {
                            out[i] = input[s]; out[i + 1] = input[s + 1]; out[i + 2] = input[s + 2]; out[i + 3] = 255
                        } else if a != 0 || input[s] | input[s + 1] | input[s + 2] != 0 {
                            let keep = 255 - a
                            for c in 0..<4 {
                                out[i + c] = UInt8(min(255, UInt32(input[s + c]) + Pixels.divideBy255(UInt32(out[i + c]) * keep)))
                            }
                        }
                        s += 4
                        i += 4
                    }
                }
            }
        }
    }

    package var image: OverlayImage {
        OverlayImage(x: x, y: y, width: width, height: height, stride: width * 4, pixels: pixels)
    }
}
