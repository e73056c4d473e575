import CFFmpeg
import LoopPlayerCore

extension VideoFrame {
    /// Rows and samples per row read for `sample` (about a thousand values: cheap at every frame).
    static let sampledRows = 9, samplesPerRow = 112

    /// A few rows of the picture's luma, sampled (`PictureSample`): for the picture alerts. YUV
    /// pictures are read from their luma plane (8 bits, or the top 8 of deeper ones), packed 8-bit RGB
    /// from its brightest channel.
    package var sample: PictureSample {
        let picture = pointer.pointee
        let width = Int(picture.width), height = Int(picture.height)
        guard width > 0, height > 0, let plane = picture.data.0, let layout = av_pix_fmt_desc_get(pixelFormat) else {
            return PictureSample(isBlack: true, fingerprint: 0)
        }
        let luma = layout.pointee.comp.0
        let step = Int(luma.step), depth = Int(luma.depth), stride = Int(picture.linesize.0)
        let rgb = layout.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 && step >= 3 && depth == 8
        guard step > 0, stride > 0 else { return PictureSample(isBlack: true, fingerprint: 0) }
        var lumas: [UInt8] = []
        lumas.reserveCapacity(Self.sampledRows * Self.samplesPerRow)
        let columns = min(width, Self.samplesPerRow)
        for row in 0..<Self.sampledRows {
            let y = (2 * row + 1) * height / (2 * Self.sampledRows)
            let line = plane + y * stride
            for column in 0..<columns {
                let x = (2 * column + 1) * width / (2 * columns)
                if rgb {
                    // Packed RGB (BGRA, RGB24…): the brightest channel stands for the luma.
                    let pixel = line + x * step
                    lumas.append(max(pixel[0], pixel[1], pixel[2]))
                } else if depth > 8 {
                    let at = line + x * step + Int(luma.offset)
                    let value = UInt16(at[0]) | UInt16(at[1]) << 8
                    lumas.append(UInt8(truncatingIfNeeded: value >> UInt16(depth - 8)))
                } else {
                    lumas.append(line[x * step + Int(luma.offset)])
                }
            }
        }
        return PictureSample(lumas: lumas)
    }
}
