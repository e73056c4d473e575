/// Resizes premultiplied BGRA pictures with a separable tent filter: bilinear when enlarging
/// (DVD pictures on an HD screen), and a tent as wide as the shrink factor when reducing, which
/// averages every source pixel under an output pixel like an area filter instead of skipping
/// rows of thin strokes. Working on premultiplied values keeps edges free of dark fringes, and
/// pixels beyond the picture count as transparent so edges fade instead of smearing.
package enum BitmapScaler {
    /// `source` (`width`×`height`, rows of `width * 4` bytes) resized to `outputWidth`×`outputHeight`.
    package static func scale(_ source: [UInt8], width: Int, height: Int, toWidth outputWidth: Int, height outputHeight: Int) -> [UInt8] {
        guard width > 0, height > 0, outputWidth > 0, outputHeight > 0, source.count >= width * height * 4 else {
            return [UInt8](repeating: 0, count: max(0, outputWidth) * max(0, outputHeight) * 4)
        }
        if width == outputWidth && height == outputHeight { return Array(source.prefix(width * height * 4)) }
        let columns = Taps(from: width, to: outputWidth)
        let rows = Taps(from: height, to: outputHeight)
        // Horizontal pass: height × outputWidth, four channels as Float.
        var middle = [Float](repeating: 0, count: height * outputWidth * 4)
        source.withUnsafeBufferPointer { input in
            middle.withUnsafeMutableBufferPointer { out in
                columns.withTables { starts, counts, weights, stride in
                    for y in 0..<height {
                        let row = y * width * 4
                        for x in 0..<outputWidth {
                            var b: Float = 0, g: Float = 0, r: Float = 0, a: Float = 0
                            var s = row + starts[x] * 4
                            for n in 0..<counts[x] {
                                let weight = weights[x * stride + n]
                                b += Float(input[s]) * weight
                                g += Float(input[s + 1]) * weight
                                r += Float(input[s + 2]) * weight
                                a += Float(input[s + 3]) * weight
                                s += 4
                            }
                            let o = (y * outputWidth + x) * 4
                            out[o] = b; out[o + 1] = g; out[o + 2] = r; out[o + 3] = a
                        }
                    }
                }
            }
        }
        // Vertical pass into bytes; a colour never exceeds its alpha (premultiplied invariant).
        var output = [UInt8](repeating: 0, count: outputWidth * outputHeight * 4)
        let rowLength = outputWidth * 4
        middle.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                rows.withTables { starts, counts, weights, stride in
                    var sum = [Float](repeating: 0, count: rowLength)
                    sum.withUnsafeMutableBufferPointer { sum in
                        for y in 0..<outputHeight {
                            for i in 0..<rowLength { sum[i] = 0 }
                            for n in 0..<counts[y] {
                                let weight = weights[y * stride + n]
                                let base = (starts[y] + n) * rowLength
                                for i in 0..<rowLength { sum[i] += input[base + i] * weight }
                            }
                            let o = y * rowLength
                            for i in Swift.stride(from: 0, to: rowLength, by: 4) {
                                let alpha = min(255, max(0, sum[i + 3].rounded()))
                                out[o + i] = UInt8(min(alpha, max(0, sum[i].rounded())))
                                out[o + i + 1] = UInt8(min(alpha, max(0, sum[i + 1].rounded())))
                                out[o + i + 2] = UInt8(min(alpha, max(0, sum[i + 2].rounded())))
                                out[o + i + 3] = UInt8(alpha)
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// For each output index, the source indices it reads and their weights (summing to 1 over the
    /// tent, part of which may fall outside the picture: transparent).
    private struct Taps {
        let starts: [Int]
        let counts: [Int]
        let maximumCount: Int
        let weights: [Float]

        init(from sourceCount: Int, to outputCount: Int) {
            let ratio = Double(sourceCount) / Double(outputCount)
            let support = max(1, ratio)
            let maximumCount = Int((2 * support).rounded(.up)) + 1
            var starts = [Int](repeating: 0, count: outputCount)
            var counts = [Int](repeating: 0, count: outputCount)
            var weights = [Float](repeating: 0, count: outputCount * maximumCount)
            for o in 0..<outputCount {
                let center = (Double(o) + 0.5) * ratio - 0.5
                let first = Int((center - support).rounded(.down)) + 1
                let last = Int((center + support).rounded(.up)) - 1
                var total = 0.0
                var kept: [(Int, Double)] = []
                for i in first...max(first, last) {
                    let weight = max(0, 1 - abs(Double(i) - center) / support)
                    total += weight
                    if weight > 0 && i >= 0 && i < sourceCount { kept.append((i, weight)) }
                }
                starts[o] = kept.first?.0 ?? 0
                counts[o] = min(kept.count, maximumCount)
                for (n, tap) in kept.enumerated() where n < maximumCount {
                    weights[o * maximumCount + n] = Float(total > 0 ? tap.1 / total : 0)
                }
            }
            self.starts = starts
            self.counts = counts
            self.maximumCount = maximumCount
            self.weights = weights
        }

        /// The tables as buffers for the inner loops; `stride` is the weights per output index.
        func withTables<T>(_ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<Float>, Int) -> T) -> T {
            starts.withUnsafeBufferPointer { starts in
                counts.withUnsafeBufferPointer { counts in
                    weights.withUnsafeBufferPointer { body(starts, counts, $0, maximumCount) }
                }
            }
        }
    }
}
