/// SplitMix64: a small, fast generator whose whole sequence follows from its seed, so a corpus
/// (and any failure in it) is made again byte for byte from the seed alone.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one input of the corpus: independent of how many numbers the others used.
    static func forInput(_ index: Int, seed: UInt64) -> SeededGenerator {
        var mixer = SeededGenerator(seed: seed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        return SeededGenerator(seed: mixer.next())
    }
}
