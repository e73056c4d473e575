/// Damage to MPEG transport streams, packet by packet (188 bytes, sync byte 0x47).
enum TSMutations {
    static let all: [Mutation] = [syncBytes, continuity, pids, adaptationFields, droppedPackets, duplicatedPackets,
                                  shuffledPackets, tables, timestamps]
    static let packetSize = 188

    private static func packetCount(_ bytes: [UInt8]) -> Int { bytes.count / packetSize }

    /// A random share (1/`oneIn`) of the packets.
    private static func somePackets(_ bytes: [UInt8], oneIn: Int, _ random: inout SeededGenerator) -> [Int] {
        (0..<packetCount(bytes)).filter { _ in Int.random(in: 0..<oneIn, using: &random) == 0 }
    }

    static let syncBytes = Mutation("ts-sync") { bytes, random in
        let oneIn = [2, 10, 50].randomElement(using: &random)!
        let packets = somePackets(bytes, oneIn: oneIn, &random)
        for packet in packets { bytes[packet * packetSize] = UInt8.random(in: 0...0x46, using: &random) }
        return "1in\(oneIn)"
    }

    static let continuity = Mutation("ts-cc") { bytes, random in
        let oneIn = [1, 3, 20].randomElement(using: &random)!
        for packet in somePackets(bytes, oneIn: oneIn, &random) {
            let offset = packet * packetSize + 3
            bytes[offset] = bytes[offset] & 0xF0 | UInt8.random(in: 0...15, using: &random)
        }
        return "1in\(oneIn)"
    }

    /// Packets moved to other PIDs, including the PAT's (0) and the null PID.
    static let pids = Mutation("ts-pid") { bytes, random in
        let oneIn = [3, 20].randomElement(using: &random)!
        for packet in somePackets(bytes, oneIn: oneIn, &random) {
            let pid: UInt16 = [0, 0x1FFF, 0x100, 0x101, UInt16.random(in: 0...0x1FFF, using: &random)].randomElement(using: &random)!
            let offset = packet * packetSize + 1
            bytes[offset] = bytes[offset] & 0xE0 | UInt8(pid >> 8)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: pid)
        }
        return "1in\(oneIn)"
    }

    /// Adaptation fields claiming more bytes than the packet has, or appearing where there were none.
    static let adaptationFields = Mutation("ts-af") { bytes, random in
        let oneIn = [2, 10].randomElement(using: &random)!
        for packet in somePackets(bytes, oneIn: oneIn, &random) {
            let offset = packet * packetSize
            bytes[offset + 3] |= 0x20
            bytes[offset + 4] = [183, 184, 255, 0].randomElement(using: &random)!
        }
        return "1in\(oneIn)"
    }

    static let droppedPackets = Mutation("ts-drop") { bytes, random in
        let oneIn = [2, 5, 30].randomElement(using: &random)!
        let dropped = Set(somePackets(bytes, oneIn: oneIn, &random))
        var kept: [UInt8] = []
        for packet in 0..<packetCount(bytes) where !dropped.contains(packet) {
            kept += bytes[(packet * packetSize)..<((packet + 1) * packetSize)]
        }
        bytes = kept
        return "1in\(oneIn)"
    }

    static let duplicatedPackets = Mutation("ts-dup") { bytes, random in
        let oneIn = [3, 20].randomElement(using: &random)!
        let doubled = Set(somePackets(bytes, oneIn: oneIn, &random))
        var result: [UInt8] = []
        for packet in 0..<packetCount(bytes) {
            let slice = bytes[(packet * packetSize)..<((packet + 1) * packetSize)]
            result += slice
            if doubled.contains(packet) { result += slice }
        }
        bytes = result
        return "1in\(oneIn)"
    }

    static let shuffledPackets = Mutation("ts-shuffle") { bytes, random in
        let window = [4, 32].randomElement(using: &random)!
        let count = packetCount(bytes)
        var order = Array(0..<count)
        for start in stride(from: 0, to: count, by: window) {
            order[start..<min(count, start + window)].shuffle(using: &random)
        }
        bytes = order.flatMap { bytes[($0 * packetSize)..<(($0 + 1) * packetSize)] }
        return "window\(window)"
    }

    /// The PAT and PMT: section lengths, the PMT's PID, stream types.
    static let tables = Mutation("ts-psi") { bytes, random in
        let tablePackets = (0..<packetCount(bytes)).filter { packet in
            let pid = UInt16(bytes[packet * packetSize + 1] & 0x1F) << 8 | UInt16(bytes[packet * packetSize + 2])
            return pid == 0 || pid == 0x1000  // PAT, and the PMT where FFmpeg puts it
        }
        guard !tablePackets.isEmpty else { return nil }
        let choice = Int.random(in: 0..<3, using: &random)
        for packet in tablePackets {
            let section = packet * packetSize + 5  // after the header and the pointer field
            switch choice {
            case 0: bytes[section + 1] |= 0x0F; bytes[section + 2] = 0xFF                   // section_length huge
            case 1: for index in (section + 8)..<(section + 16) { bytes[index] = UInt8.random(in: 0...255, using: &random) }
            default: bytes[section + 1] &= 0xF0; bytes[section + 2] = 1                       // section_length 1
            }
        }
        return ["length-huge", "scribbled", "length1"][choice]
    }

    /// PES timestamps (PTS/DTS) that jump backwards, far forward, or are all the same.
    static let timestamps = Mutation("ts-pts") { bytes, random in
        let starts = Bytes.occurrences(of: [0, 0, 1, 0xE0], in: bytes) + Bytes.occurrences(of: [0, 0, 1, 0xC0], in: bytes)
        guard !starts.isEmpty else { return nil }
        let choice = Int.random(in: 0..<3, using: &random)
        for start in starts where start + 14 <= bytes.count && bytes[start + 7] & 0x80 != 0 {
            let pts = start + 9
            switch choice {
            case 0: for index in pts..<(pts + 5) { bytes[index] = UInt8.random(in: 0...255, using: &random) | (index == pts ? 0x21 : 0x01) }
            case 1: bytes[pts] = 0x21; bytes[pts + 1] = 0; bytes[pts + 2] = 1; bytes[pts + 3] = 0; bytes[pts + 4] = 1
            default: if Bool.random(using: &random) { bytes[pts] = 0x2F; bytes[pts + 1] = 0xFF }
            }
        }
        return ["random", "all-zero", "jumps"][choice]
    }
}
