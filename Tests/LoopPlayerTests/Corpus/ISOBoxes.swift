/// A box of an ISO base media file (mp4, m4a): where it is and what it holds.
struct ISOBox {
    var type: String
    var offset: Int
    var size: Int
    var headerSize: Int
    var children: [ISOBox]

    var payload: Int { offset + headerSize }
    var end: Int { offset + size }
}

/// Just enough of ISO BMFF to find boxes and their fields in the corpus's own clips, and to replace a
/// box while keeping its ancestors' sizes right.
enum ISOBoxes {
    /// Boxes made only of boxes.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "mvex", "moof", "traf", "udta"]
    /// Sample entries: their child boxes follow fixed fields of this many bytes.
    static let sampleEntryFields: [String: Int] = ["avc1": 78, "avc3": 78, "hvc1": 78, "mp4v": 78, "mp4a": 28]

    static func parse(_ bytes: [UInt8]) -> [ISOBox] { parse(bytes, from: 0, to: bytes.count) }

    private static func parse(_ bytes: [UInt8], from start: Int, to end: Int) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var offset = start
        while offset + 8 <= end {
            var size = Int(Bytes.uint32(bytes, offset))
            var header = 8
            if size == 1, offset + 16 <= end {
                size = Int(clamping: Bytes.uint64(bytes, offset + 8))
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= header, offset + size <= end else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var box = ISOBox(type: type, offset: offset, size: size, headerSize: header, children: [])
            if containers.contains(type) {
                box.children = parse(bytes, from: box.payload, to: box.end)
            } else if type == "stsd" {
                box.children = parse(bytes, from: box.payload + 8, to: box.end)
            } else if let fields = sampleEntryFields[type] {
                box.children = parse(bytes, from: box.payload + fields, to: box.end)
            }
            boxes.append(box)
            offset += size
        }
        return boxes
    }

    /// Every box of `type`, each with its ancestors (outermost first).
    static func find(_ type: String, in boxes: [ISOBox], ancestors: [ISOBox] = []) -> [(box: ISOBox, ancestors: [ISOBox])] {
        var found: [(ISOBox, [ISOBox])] = []
        for box in boxes {
            if box.type == type { found.append((box, ancestors)) }
            found += find(type, in: box.children, ancestors: ancestors + [box])
        }
        return found
    }

    /// Every box with its ancestors, depth first.
    static func all(in boxes: [ISOBox], ancestors: [ISOBox] = []) -> [(box: ISOBox, ancestors: [ISOBox])] {
        boxes.flatMap { [($0, ancestors)] + all(in: $0.children, ancestors: ancestors + [$0]) }
    }

    /// Replaces `box` (its header included) with `replacement` and corrects the sizes of its
    /// ancestors. Chunk offsets are not moved: the clips keep their index after the samples.
    static func replace(_ box: ISOBox, ancestors: [ISOBox], with replacement: [UInt8], in bytes: inout [UInt8]) {
        let delta = replacement.count - box.size
        bytes.replaceSubrange(box.offset..<box.end, with: replacement)
        for ancestor in ancestors {
            if ancestor.headerSize == 16 {
                Bytes.put64(&bytes, ancestor.offset + 8, UInt64(ancestor.size + delta))
            } else {
                Bytes.put32(&bytes, ancestor.offset, UInt32(truncatingIfNeeded: ancestor.size + delta))
            }
        }
    }

    /// A whole box: size, type, payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4) + Array(type.utf8) + payload
        Bytes.put32(&bytes, 0, UInt32(bytes.count))
        return bytes
    }

    /// The full box's version (first payload byte).
    static func version(_ box: ISOBox, _ bytes: [UInt8]) -> UInt8 { bytes[box.payload] }
}

/// Big-endian reads and writes (and a few little-endian ones) on byte arrays, bounds-checked by the caller.
enum Bytes {
    static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 { UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    static func uint64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }

    static func put16(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt16) {
        guard offset + 2 <= bytes.count else { return }
        bytes[offset] = UInt8(value >> 8)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value)
    }

    static func put32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        guard offset + 4 <= bytes.count else { return }
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }

    static func put64(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt64) {
        guard offset + 8 <= bytes.count else { return }
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64(index))) }
    }

    static func uint32LE(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    static func put32LE(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        guard offset + 4 <= bytes.count else { return }
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    /// Offsets where `pattern` starts.
    static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard bytes.count >= pattern.count, let first = pattern.first else { return [] }
        return (0...(bytes.count - pattern.count)).filter { bytes[$0] == first && bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}
