/// An EBML element of a Matroska or WebM file.
struct EBMLElement {
    var id: UInt32
    var offset: Int
    var sizeOffset: Int
    var sizeLength: Int
    var dataOffset: Int
    var size: Int  // -1: unknown
}

/// Damage to Matroska/WebM element sizes and the values that describe the video.
enum EBMLMutations {
    static let all: [Mutation] = [sizeTricks, sizeTricks, videoFields, timing, blockTrack]

    /// Elements made of elements.
    static let masters: Set<UInt32> = [0x1A45_DFA3, 0x1853_8067, 0x114D_9B74, 0x4DBB, 0x1549_A966, 0x1654_AE6B, 0xAE, 0xE0,
                                       0xE1, 0x1F43_B675, 0xA0, 0x1C53_BB6B, 0xBB, 0xB7, 0x1254_C367, 0x7373, 0x63C0, 0x67C8,
                                       0x6D80, 0x1043_A770]

    /// A variable-length integer at `offset`: (value with the marker bit removed, length).
    static func vint(_ bytes: [UInt8], _ offset: Int) -> (value: UInt64, length: Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard offset + length <= bytes.count else { return nil }
        var value = UInt64(bytes[offset] & (0xFF >> UInt8(length)))
        for index in 1..<length { value = value << 8 | UInt64(bytes[offset + index]) }
        return (value, length)
    }

    static func parse(_ bytes: [UInt8]) -> [EBMLElement] { parse(bytes, from: 0, to: bytes.count) }

    private static func parse(_ bytes: [UInt8], from start: Int, to end: Int) -> [EBMLElement] {
        var elements: [EBMLElement] = []
        var offset = start
        while offset < end {
            guard let id = vint(bytes, offset), id.length <= 4, let size = vint(bytes, offset + id.length) else { break }
            let rawID = (0..<id.length).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) }
            let unknown = size.value == (UInt64(1) << (7 * UInt64(size.length))) - 1
            let dataOffset = offset + id.length + size.length
            let length = unknown ? end - dataOffset : Int(clamping: size.value)
            guard dataOffset + length <= end else { break }
            let element = EBMLElement(id: rawID, offset: offset, sizeOffset: offset + id.length, sizeLength: size.length,
                                      dataOffset: dataOffset, size: unknown ? -1 : length)
            elements.append(element)
            if masters.contains(rawID) { elements += parse(bytes, from: dataOffset, to: dataOffset + length) }
            offset = dataOffset + length
        }
        return elements
    }

    /// Writes `value` as a size of the element's own size length (all ones: unknown).
    static func setSize(_ element: EBMLElement, _ value: UInt64, in bytes: inout [UInt8]) {
        let length = element.sizeLength
        let limit = (UInt64(1) << (7 * UInt64(length))) - 1
        let encoded = min(value, limit) | (UInt64(1) << (7 * UInt64(length)))
        for index in 0..<length {
            bytes[element.sizeOffset + index] = UInt8(truncatingIfNeeded: encoded >> (8 * UInt64(length - 1 - index)))
        }
    }

    /// Overwrites an unsigned integer element's value with `value` (in its own width).
    static func setUInt(_ element: EBMLElement, _ value: UInt64, in bytes: inout [UInt8]) {
        guard element.size > 0 else { return }
        for index in 0..<element.size {
            bytes[element.dataOffset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(element.size - 1 - index)))
        }
    }

    /// The size of a master element (Segment, Cluster, Tracks, a BlockGroup…) or of any element
    /// becomes unknown, 0, huge, or one off.
    static let sizeTricks = Mutation("ebml-size") { bytes, random in
        let elements = parse(bytes)
        let preferMaster = Bool.random(using: &random)
        let candidates = preferMaster ? elements.filter { masters.contains($0.id) } : elements
        guard let element = candidates.randomElement(using: &random) else { return nil }
        let choice = Int.random(in: 0..<5, using: &random)
        let unknown = (UInt64(1) << (7 * UInt64(element.sizeLength))) - 1  // all ones
        let value: UInt64 = switch choice {
        case 0: unknown
        case 1: 0
        case 2: unknown - 1                     // the largest known size of that length
        case 3: UInt64(max(element.size, 0) + 1)
        default: UInt64(max(element.size - 1, 0))
        }
        setSize(element, value, in: &bytes)
        return String(element.id, radix: 16) + "-" + ["unknown", "zero", "huge", "plus1", "minus1"][choice]
    }

    /// PixelWidth/PixelHeight/DisplayWidth/DisplayHeight absurd or zero.
    static let videoFields = Mutation("ebml-video") { bytes, random in
        let fields = parse(bytes).filter { [0xB0, 0xBA, 0x54B0, 0x54BA].contains($0.id) }
        guard !fields.isEmpty else { return nil }
        let value: UInt64 = [0, 100_000, 0xFFFF_FFFF, 65_536].randomElement(using: &random)!
        for field in fields where Bool.random(using: &random) || field.id == 0xB0 { setUInt(field, value, in: &bytes) }
        return "dims\(value)"
    }

    /// TimestampScale (TimecodeScale) or a track's DefaultDuration zero or absurd, the Duration NaN.
    static let timing = Mutation("ebml-time") { bytes, random in
        let elements = parse(bytes)
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            guard let scale = elements.first(where: { $0.id == 0x2A_D7B1 }) else { return nil }
            let value: UInt64 = [0, 1, 0xFFFF_FFFF].randomElement(using: &random)!
            setUInt(scale, value, in: &bytes)
            return "timescale\(value)"
        case 1:
            guard let duration = elements.first(where: { $0.id == 0x23_E383 }) else { return nil }
            let value: UInt64 = [0, 0xFFFF_FFFF].randomElement(using: &random)!
            setUInt(duration, value, in: &bytes)
            return "default-duration\(value)"
        default:
            guard let duration = elements.first(where: { $0.id == 0x4489 }), duration.size == 8 || duration.size == 4 else { return nil }
            let pattern: [UInt8] = duration.size == 8 ? [0x7F, 0xF8, 0, 0, 0, 0, 0, 0] : [0x7F, 0xC0, 0, 0]  // NaN
            bytes.replaceSubrange(duration.dataOffset..<(duration.dataOffset + duration.size), with: pattern)
            return "duration-nan"
        }
    }

    /// SimpleBlocks name a track that does not exist, or carry absurd relative timestamps.
    static let blockTrack = Mutation("ebml-block") { bytes, random in
        let blocks = parse(bytes).filter { $0.id == 0xA3 && $0.size > 4 }
        guard !blocks.isEmpty else { return nil }
        let timestamps = Bool.random(using: &random)
        for block in blocks where Bool.random(using: &random) {
            if timestamps {
                bytes[block.dataOffset + 1] = UInt8.random(in: 0...255, using: &random)
                bytes[block.dataOffset + 2] = UInt8.random(in: 0...255, using: &random)
            } else {
                bytes[block.dataOffset] = 0x80 | UInt8.random(in: 3...127, using: &random)
            }
        }
        return timestamps ? "timestamps" : "track"
    }
}
