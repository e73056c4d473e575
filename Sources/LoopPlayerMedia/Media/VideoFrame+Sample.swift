import CFFmpeg
import LoopPlayerCore

extension VideoFrame {
    /// Rows and samples per row read for `sample` (about a thousand values: cheap at every frame).
    static let sampledRows = 9, samplesPerRow = 112

    /// A few rows of the picture's luma, sampled (`PictureSample`): for the picture alerts. Planar or
    /// semi-planar YUV and grey (little-endian, 8 to 16 bits) are read from the luma plane, packed
    /// 8-bit RGB from its brightest channel. Nil for anything else (palettes, bitstreams, Bayer, floats,
    /// big-endian, hardware frames): the watch does not judge a picture it cannot read.
    package var sample: PictureSample? {
        let picture = pointer.pointee
        let width = Int(picture.width), height = Int(picture.height)
        guard width > 0, height > 0, let plane = picture.data.0, let reader = LumaReader(pixelFormat),
              picture.linesize.0 != 0 else { return nil }
        // A negative line size (a flipped picture) walks up from the first row: the arithmetic holds.
        let stride = Int(picture.linesize.0)
        var lumas: [UInt8] = []
        lumas.reserveCapacity(Self.sampledRows * Self.samplesPerRow)
        let columns = min(width, Self.samplesPerRow)
        for row in 0..<Self.sampledRows {
            let line = plane + (2 * row + 1) * height / (2 * Self.sampledRows) * stride
            for column in 0..<columns {
                lumas.append(reader.luma(at: line + (2 * column + 1) * width / (2 * columns) * reader.step))
            }
        }
        return PictureSample(lumas: lumas)
    }
}

/// How one pixel's luma is read from the first plane of a pixel format, when it can be.
private struct LumaReader {
    enum Kind {
        /// The luma's byte at this offset.
        case byte(offset: Int)
        /// A little-endian 16-bit word at this offset; the value sits `shift` bits up and is `depth` wide.
        case word(offset: Int, shift: Int, depth: Int)
        /// 8-bit R, G and B at these offsets: the brightest stands for the luma.
        case rgb(Int, Int, Int)
    }

    let kind: Kind
    /// Bytes from one pixel to the next.
    let step: Int

    init?(_ format: AVPixelFormat) {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return nil }
        let layout = descriptor.pointee
        let refused = UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM) | UInt64(AV_PIX_FMT_FLAG_HWACCEL)
            | UInt64(AV_PIX_FMT_FLAG_BE) | UInt64(AV_PIX_FMT_FLAG_FLOAT) | UInt64(AV_PIX_FMT_FLAG_BAYER)
        guard layout.flags & refused == 0, layout.nb_components >= 1 else { return nil }
        let first = layout.comp.0
        step = Int(first.step)
        guard first.plane == 0, step > 0 else { return nil }
        if layout.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 {
            let (red, green, blue) = (layout.comp.0, layout.comp.1, layout.comp.2)
            guard layout.nb_components >= 3, [red, green, blue].allSatisfy({ $0.plane == 0 && $0.depth == 8 && $0.shift == 0 }),
                  step >= 3 else { return nil }
            kind = .rgb(Int(red.offset), Int(green.offset), Int(blue.offset))
        } else if first.depth == 8, first.shift == 0 {
            kind = .byte(offset: Int(first.offset))
        } else if first.depth > 8, first.depth + first.shift <= 16, step >= 2 {
            kind = .word(offset: Int(first.offset), shift: Int(first.shift), depth: Int(first.depth))
        } else {
            return nil
        }
    }

    func luma(at pixel: UnsafeMutablePointer<UInt8>) -> UInt8 {
        switch kind {
        case let .byte(offset): return pixel[offset]
        case let .word(offset, shift, depth):
            let value = UInt16(pixel[offset]) | UInt16(pixel[offset + 1]) << 8
            return UInt8(truncatingIfNeeded: value >> UInt16(shift + depth - 8))
        case let .rgb(red, green, blue): return max(pixel[red], pixel[green], pixel[blue])
        }
    }
}
