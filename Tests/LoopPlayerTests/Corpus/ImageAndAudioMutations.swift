/// Damage to PNG chunks: absurd sizes (with a correct CRC, so the decoder believes them), lying lengths.
enum PNGMutations {
    static let all: [Mutation] = [headerSize, headerSize, chunkLength, imageData, chunkOrder]

    /// (offset of the length field, type, data length) of every chunk after the signature.
    static func chunks(_ bytes: [UInt8]) -> [(offset: Int, type: String, length: Int)] {
        var result: [(Int, String, Int)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(Bytes.uint32(bytes, offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { break }
            result.append((offset, type, length))
            offset += 12 + length
        }
        return result
    }

    static func fixCRC(_ bytes: inout [UInt8], chunk offset: Int, length: Int) {
        Bytes.put32(&bytes, offset + 8 + length, CRC32.checksum(bytes[(offset + 4)..<(offset + 8 + length)]))
    }

    static let headerSize = Mutation("png-ihdr") { bytes, random in
        guard let ihdr = chunks(bytes).first(where: { $0.type == "IHDR" }), ihdr.length >= 13 else { return nil }
        let (width, height): (UInt32, UInt32) = [(100_000, 2), (0, 0), (0x7FFF_FFFF, 1), (65_535, 65_535), (1, 0x7FFF_FFFF)]
            .randomElement(using: &random)!
        Bytes.put32(&bytes, ihdr.offset + 8, width)
        Bytes.put32(&bytes, ihdr.offset + 12, height)
        if Int.random(in: 0..<4, using: &random) == 0 { bytes[ihdr.offset + 16] = [0, 3, 7, 64].randomElement(using: &random)! }  // bit depth
        let fixed = Int.random(in: 0..<4, using: &random) != 0
        if fixed { fixCRC(&bytes, chunk: ihdr.offset, length: ihdr.length) }
        return "\(width)x\(height)\(fixed ? "" : "-badcrc")"
    }

    static let chunkLength = Mutation("png-length") { bytes, random in
        guard let chunk = chunks(bytes).randomElement(using: &random) else { return nil }
        let value: UInt32 = [0x7FFF_FFFF, 0xFFFF_FFFF, 0, UInt32(chunk.length + 1)].randomElement(using: &random)!
        Bytes.put32(&bytes, chunk.offset, value)
        return "\(chunk.type)\(value)"
    }

    /// The compressed picture scribbled on (CRC corrected) or cut short.
    static let imageData = Mutation("png-idat") { bytes, random in
        guard let idat = chunks(bytes).first(where: { $0.type == "IDAT" }), idat.length > 8 else { return nil }
        if Bool.random(using: &random) {
            for _ in 0..<8 { bytes[idat.offset + 8 + Int.random(in: 0..<idat.length, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            fixCRC(&bytes, chunk: idat.offset, length: idat.length)
            return "scribbled"
        }
        let keep = Int.random(in: 1..<idat.length, using: &random)
        bytes.removeSubrange((idat.offset + 8 + keep)..<(idat.offset + 8 + idat.length))
        Bytes.put32(&bytes, idat.offset, UInt32(keep))
        fixCRC(&bytes, chunk: idat.offset, length: keep)
        return "cut\(keep)"
    }

    /// IHDR twice, IEND first, or IHDR gone.
    static let chunkOrder = Mutation("png-order") { bytes, random in
        let all = chunks(bytes)
        guard let ihdr = all.first(where: { $0.type == "IHDR" }), let iend = all.last(where: { $0.type == "IEND" }) else { return nil }
        let ihdrBytes = Array(bytes[ihdr.offset..<(ihdr.offset + 12 + ihdr.length)])
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes.insert(contentsOf: ihdrBytes, at: ihdr.offset); return "ihdr-twice"
        case 1: bytes.insert(contentsOf: Array(bytes[iend.offset..<(iend.offset + 12)]), at: 8); return "iend-first"
        default: bytes.removeSubrange(ihdr.offset..<(ihdr.offset + 12 + ihdr.length)); return "no-ihdr"
        }
    }
}

/// Damage to MP3 frame headers and tags.
enum MP3Mutations {
    static let all: [Mutation] = [frameHeaders, tagSize, xingHeader]

    private static func frames(_ bytes: [UInt8]) -> [Int] {
        (0..<max(0, bytes.count - 4)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] & 0xE0 == 0xE0 && bytes[$0 + 2] & 0xF0 != 0xF0 }
    }

    /// Bitrate index 15 (forbidden), sample rate index 3 (reserved), layer 0, or the sync broken.
    static let frameHeaders = Mutation("mp3-header") { bytes, random in
        let headers = frames(bytes)
        guard !headers.isEmpty else { return nil }
        let choice = Int.random(in: 0..<4, using: &random)
        for header in headers where Int.random(in: 0..<3, using: &random) == 0 {
            switch choice {
            case 0: bytes[header + 2] |= 0xF0
            case 1: bytes[header + 2] |= 0x0C
            case 2: bytes[header + 1] &= 0xF9
            default: bytes[header + 1] &= 0x1F
            }
        }
        return ["bitrate15", "rate3", "layer0", "sync"][choice]
    }

    /// An ID3v2 tag whose (syncsafe) size is huge or zero, put in front.
    static let tagSize = Mutation("mp3-id3") { bytes, random in
        let size: [UInt8] = [[0x7F, 0x7F, 0x7F, 0x7F], [0, 0, 0, 0], [0, 0, 0x7F, 0x7F]].randomElement(using: &random)!
        if bytes.starts(with: Array("ID3".utf8)), bytes.count > 10 {
            bytes.replaceSubrange(6..<10, with: size)
        } else {
            bytes.insert(contentsOf: Array("ID3".utf8) + [4, 0, 0] + size, at: 0)
        }
        return "size\(size.map(String.init).joined(separator: "-"))"
    }

    /// The Xing/Info header's frame count zero or huge.
    static let xingHeader = Mutation("mp3-xing") { bytes, random in
        guard let xing = (Bytes.occurrences(of: Array("Xing".utf8), in: bytes) + Bytes.occurrences(of: Array("Info".utf8), in: bytes)).first,
              xing + 12 <= bytes.count else { return nil }
        let value: UInt32 = [0, 0xFFFF_FFFF, 0x7FFF_FFFF].randomElement(using: &random)!
        Bytes.put32(&bytes, xing + 8, value)
        return "frames\(value)"
    }
}

/// CRC-32 (ISO 3309, as PNG uses it).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        ~bytes.reduce(0xFFFF_FFFF) { table[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }
}
