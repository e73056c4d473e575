/// Rewrites the picture size an H.264 sequence parameter set declares, so a corpus input can claim
/// an absurd size in the bitstream itself (what the decoder believes), not only in the container.
enum H264ParameterSet {
    /// `nal` (an SPS NAL unit, header byte first, with emulation prevention bytes) declaring
    /// `widthInMacroblocks` × `heightInMapUnits` instead; nil if it uses what this does not parse
    /// (scaling matrices).
    static func resized(_ nal: [UInt8], widthInMacroblocks: UInt32, heightInMapUnits: UInt32) -> [UInt8]? {
        guard nal.count > 4, nal[0] & 0x1F == 7 else { return nil }
        var reader = BitReader(removingEmulationPrevention(Array(nal.dropFirst())))
        var writer = BitWriter()
        guard let profile = reader.bits(8) else { return nil }
        writer.put(profile, 8)
        guard let constraintsAndLevel = reader.bits(16) else { return nil }
        writer.put(constraintsAndLevel, 16)
        func copyExpGolomb() -> UInt32? {
            guard let value = reader.expGolomb() else { return nil }
            writer.putExpGolomb(value)
            return value
        }
        func copyBits(_ count: Int) -> UInt32? {
            guard let value = reader.bits(count) else { return nil }
            writer.put(value, count)
            return value
        }
        guard copyExpGolomb() != nil else { return nil }                        // seq_parameter_set_id
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let chroma = copyExpGolomb() else { return nil }               // chroma_format_idc
            if chroma == 3 { guard copyBits(1) != nil else { return nil } }      // separate_colour_plane_flag
            guard copyExpGolomb() != nil, copyExpGolomb() != nil,                // bit depths
                  copyBits(1) != nil,                                           // qpprime_y_zero_transform_bypass
                  let scaling = copyBits(1), scaling == 0 else { return nil }   // seq_scaling_matrix_present
        }
        guard copyExpGolomb() != nil, let pocType = copyExpGolomb() else { return nil }  // log2_max_frame_num, poc type
        if pocType == 0 {
            guard copyExpGolomb() != nil else { return nil }
        } else if pocType == 1 {
            guard copyBits(1) != nil, copyExpGolomb() != nil, copyExpGolomb() != nil, let cycle = copyExpGolomb(),
                  cycle < 256 else { return nil }
            for _ in 0..<cycle { guard copyExpGolomb() != nil else { return nil } }
        }
        guard copyExpGolomb() != nil, copyBits(1) != nil,                        // max_num_ref_frames, gaps
              reader.expGolomb() != nil, reader.expGolomb() != nil else { return nil }  // the old size
        writer.putExpGolomb(widthInMacroblocks - 1)
        writer.putExpGolomb(heightInMapUnits - 1)
        // The rest up to and including the stop bit, then zeros to the byte boundary.
        let rest = reader.remainingBits()
        guard let stop = rest.lastIndex(of: 1) else { return nil }
        for bit in rest[...stop] { writer.put(UInt32(bit), 1) }
        return [nal[0]] + addingEmulationPrevention(writer.bytes())
    }

    static func removingEmulationPrevention(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            result.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return result
    }

    static func addingEmulationPrevention(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte <= 3 { result.append(3); zeros = 0 }
            result.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return result
    }
}

struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bit() -> UInt32? {
        guard position < bytes.count * 8 else { return nil }
        defer { position += 1 }
        return UInt32(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
    }

    mutating func bits(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let bit = bit() else { return nil }
            value = value << 1 | bit
        }
        return value
    }

    /// ue(v).
    mutating func expGolomb() -> UInt32? {
        var zeros = 0
        while true {
            guard let bit = bit() else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let suffix = bits(zeros) else { return nil }
        return (UInt32(1) << zeros) - 1 + suffix
    }

    mutating func remainingBits() -> [UInt8] {
        var result: [UInt8] = []
        while let bit = bit() { result.append(UInt8(bit)) }
        return result
    }
}

struct BitWriter {
    private var bits: [UInt8] = []

    mutating func put(_ value: UInt32, _ count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) { bits.append(UInt8(value >> UInt32(index) & 1)) }
    }

    mutating func putExpGolomb(_ value: UInt32) {
        let code = UInt64(value) + 1
        let length = 64 - code.leadingZeroBitCount
        put(0, length - 1)
        for index in stride(from: length - 1, through: 0, by: -1) { bits.append(UInt8(code >> UInt64(index) & 1)) }
    }

    func bytes() -> [UInt8] {
        var padded = bits
        while padded.count % 8 != 0 { padded.append(0) }
        return stride(from: 0, to: padded.count, by: 8).map { start in padded[start..<(start + 8)].reduce(0) { $0 << 1 | $1 } }
    }
}
