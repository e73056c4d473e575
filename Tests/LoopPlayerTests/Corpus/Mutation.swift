/// One way to damage a file: `apply` changes the bytes and returns what it did, in a few words for
/// the input's name (nil when the file has nothing it applies to).
struct Mutation: Sendable {
    let name: String
    let apply: @Sendable (inout [UInt8], inout SeededGenerator) -> String?

    init(_ name: String, _ apply: @escaping @Sendable (inout [UInt8], inout SeededGenerator) -> String?) {
        self.name = name
        self.apply = apply
    }
}

/// Damage that knows nothing of the format: what a bad disk, a cut download or a bad copy does.
enum ByteMutations {
    static let all: [Mutation] = [bitFlips, truncation, zeroedRange, randomRange, duplicatedRange, removedRange]

    static let bitFlips = Mutation("bitflip") { bytes, random in
        guard !bytes.isEmpty else { return nil }
        let count = Int.random(in: 1...64, using: &random)
        for _ in 0..<count {
            bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
        }
        return "\(count)"
    }

    static let truncation = Mutation("truncate") { bytes, random in
        guard bytes.count > 1 else { return nil }
        let keep = Int.random(in: 0..<bytes.count, using: &random)
        bytes.removeSubrange(keep...)
        return "at\(keep)"
    }

    /// Truncated at `fraction` of the length: the corpus cuts every base at many evenly spread places.
    static func truncation(at fraction: Double) -> Mutation {
        Mutation("truncate") { bytes, random in
            guard bytes.count > 1 else { return nil }
            let jitter = Int.random(in: -7...7, using: &random)
            let keep = min(bytes.count - 1, max(0, Int(Double(bytes.count) * fraction) + jitter))
            bytes.removeSubrange(keep...)
            return "at\(keep)"
        }
    }

    static let zeroedRange = Mutation("zeroed") { bytes, random in
        guard bytes.count > 16 else { return nil }
        let start = Int.random(in: 0..<bytes.count, using: &random)
        let length = min(bytes.count - start, 1 << Int.random(in: 0...12, using: &random))
        for index in start..<(start + length) { bytes[index] = 0 }
        return "\(start)+\(length)"
    }

    static let randomRange = Mutation("scribbled") { bytes, random in
        guard bytes.count > 16 else { return nil }
        let start = Int.random(in: 0..<bytes.count, using: &random)
        let length = min(bytes.count - start, 1 << Int.random(in: 0...12, using: &random))
        for index in start..<(start + length) { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        return "\(start)+\(length)"
    }

    static let duplicatedRange = Mutation("duplicated") { bytes, random in
        guard bytes.count > 16 else { return nil }
        let start = Int.random(in: 0..<bytes.count, using: &random)
        let length = min(bytes.count - start, 1 << Int.random(in: 2...12, using: &random))
        bytes.insert(contentsOf: bytes[start..<(start + length)], at: start + length)
        return "\(start)+\(length)"
    }

    static let removedRange = Mutation("removed") { bytes, random in
        guard bytes.count > 16 else { return nil }
        let start = Int.random(in: 0..<(bytes.count - 1), using: &random)
        let length = min(bytes.count - 1 - start, 1 << Int.random(in: 0...12, using: &random))
        bytes.removeSubrange(start..<(start + length))
        return "\(start)+\(length)"
    }
}
