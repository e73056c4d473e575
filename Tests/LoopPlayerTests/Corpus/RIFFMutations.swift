/// Damage to AVI (RIFF) headers, index and chunks. Fields are little-endian; each chunk is a fourcc,
/// a 32-bit size and its data.
enum RIFFMutations {
    static let all: [Mutation] = [rates, pictureSize, lengths, index, chunkSizes, audioFormat, fourcc]

    /// Data offsets of every chunk named `fourcc` (after its 8-byte header).
    private static func chunks(_ fourcc: String, _ bytes: [UInt8]) -> [Int] {
        Bytes.occurrences(of: Array(fourcc.utf8), in: bytes).map { $0 + 8 }.filter { $0 <= bytes.count }
    }

    /// Video and audio stream headers (strh), told apart by their fccType.
    private static func streamHeaders(_ bytes: [UInt8], type: String? = nil) -> [Int] {
        chunks("strh", bytes).filter { $0 + 56 <= bytes.count && (type == nil || bytes[$0..<($0 + 4)].elementsEqual(type!.utf8)) }
    }

    /// Zero frame rates: dwScale or dwRate 0 in a stream header, dwMicroSecPerFrame 0.
    static let rates = Mutation("avi-rate") { bytes, random in
        let headers = streamHeaders(bytes)
        guard let header = headers.randomElement(using: &random) else { return nil }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: Bytes.put32LE(&bytes, header + 20, 0); return "scale0"
        case 1: Bytes.put32LE(&bytes, header + 24, 0); return "rate0"
        case 2: Bytes.put32LE(&bytes, header + 20, 0xFFFF_FFFF); Bytes.put32LE(&bytes, header + 24, 1); return "rate-tiny"
        default:
            guard let avih = chunks("avih", bytes).first else { return nil }
            Bytes.put32LE(&bytes, avih, 0)
            return "usec-per-frame0"
        }
    }

    static let pictureSize = Mutation("avi-size") { bytes, random in
        guard let header = streamHeaders(bytes, type: "vids").first else { return nil }
        // The video's strf follows its strh.
        guard let format = chunks("strf", bytes).first(where: { $0 > header }), format + 16 <= bytes.count else { return nil }
        let (width, height): (UInt32, UInt32) = [(100_000, 2), (0, 0), (128, 0xFFFF_FFB8), (0x7FFF_FFFF, 0x7FFF_FFFF),
                                                 (2, 100_000)].randomElement(using: &random)!
        Bytes.put32LE(&bytes, format + 4, width)
        Bytes.put32LE(&bytes, format + 8, height)
        if Bool.random(using: &random), let avih = chunks("avih", bytes).first {
            Bytes.put32LE(&bytes, avih + 32, width)
            Bytes.put32LE(&bytes, avih + 36, height)
        }
        return "\(width)x\(Int32(bitPattern: height))"
    }

    static let lengths = Mutation("avi-length") { bytes, random in
        guard let header = streamHeaders(bytes).randomElement(using: &random), let avih = chunks("avih", bytes).first else { return nil }
        let value: UInt32 = [0, 0xFFFF_FFFF, 0x7FFF_FFFF].randomElement(using: &random)!
        switch Int.random(in: 0..<3, using: &random) {
        case 0: Bytes.put32LE(&bytes, header + 32, value); return "length\(value)"
        case 1: Bytes.put32LE(&bytes, avih + 16, value); return "total-frames\(value)"
        default: Bytes.put32LE(&bytes, header + 36, value); return "buffer\(value)"
        }
    }

    /// The idx1 index: offsets and sizes wrong, no keyframe flags.
    static let index = Mutation("avi-idx1") { bytes, random in
        guard let index = chunks("idx1", bytes).last else { return nil }
        let count = min(Int(Bytes.uint32LE(bytes, index - 4)), bytes.count - index) / 16
        guard count > 0 else { return nil }
        let choice = Int.random(in: 0..<4, using: &random)
        for entry in 0..<count {
            let offset = index + 16 * entry
            switch choice {
            case 0: Bytes.put32LE(&bytes, offset + 8, UInt32.random(in: 0...UInt32.max, using: &random))
            case 1: Bytes.put32LE(&bytes, offset + 12, 0x7FFF_FFFF)
            case 2: Bytes.put32LE(&bytes, offset + 4, 0)
            default: Bytes.put32LE(&bytes, offset + 8, 0)
            }
        }
        return ["offsets-random", "sizes-huge", "no-keyframes", "offsets0"][choice]
    }

    /// Frame chunks in movi whose sizes lie.
    static let chunkSizes = Mutation("avi-chunk") { bytes, random in
        let frames = chunks("00dc", bytes) + chunks("01wb", bytes)
        guard !frames.isEmpty else { return nil }
        let value: UInt32 = [0xFFFF_FFF0, 0, 1, 0x0100_0000].randomElement(using: &random)!
        for frame in frames where Int.random(in: 0..<4, using: &random) == 0 { Bytes.put32LE(&bytes, frame - 4, value) }
        return "size\(value)"
    }

    /// The audio's WAVEFORMATEX: no channels, 255 channels, no sample rate, block align 0.
    static let audioFormat = Mutation("avi-wave") { bytes, random in
        guard let header = streamHeaders(bytes, type: "auds").first,
              let format = chunks("strf", bytes).first(where: { $0 > header }), format + 16 <= bytes.count else { return nil }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: Bytes.put16LE(&bytes, format + 2, 0); return "channels0"
        case 1: Bytes.put16LE(&bytes, format + 2, 255); return "channels255"
        case 2: Bytes.put32LE(&bytes, format + 4, 0); return "rate0"
        default: Bytes.put16LE(&bytes, format + 12, 0); return "block-align0"
        }
    }

    /// A codec tag FFmpeg does not know (the error must name it).
    static let fourcc = Mutation("avi-fourcc") { bytes, random in
        let tag = ["QZX9", "\u{1}\u{2}\u{3}\u{4}", "    "].randomElement(using: &random)!
        let old = Bytes.occurrences(of: Array("FMP4".utf8), in: bytes) + Bytes.occurrences(of: Array("XVID".utf8), in: bytes)
        guard !old.isEmpty else { return nil }
        for offset in old { bytes.replaceSubrange(offset..<(offset + 4), with: Array(tag.utf8)) }
        return tag == "QZX9" ? "QZX9" : tag == "    " ? "spaces" : "binary"
    }
}

extension Bytes {
    static func put16LE(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt16) {
        guard offset + 2 <= bytes.count else { return }
        bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes[offset + 1] = UInt8(value >> 8)
    }
}
