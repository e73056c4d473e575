/// The loop's single monotonic presentation timeline, in stream time-base ticks.
///
/// Pass *k* of the file is shown at `pts + k·loopDuration`. The loop duration is measured while the
/// first pass is read: from the stream's start time (edit lists and container start times already
/// applied by the demuxer) to the end of the last packet, so it is exact for any container and
/// independent of how long other tracks are.
package struct LoopTimeline: Sendable, Equatable {
    /// Seconds per tick.
    package let tick: Double
    /// Start of pass 0, in ticks.
    package let origin: Int64
    /// Used for a packet that carries no duration (MPEG-TS video, some Matroska).
    package let nominalFrameTicks: Int64
    /// End of the last packet seen in pass 0, in ticks.
    private var firstPassEnd: Int64?
    /// Length of one pass in ticks, known once pass 0 has been read to its end.
    package private(set) var loopDuration: Int64?
    /// How many times the input has been rewound.
    package private(set) var wraps = 0

    package init(tick: Double, origin: Int64, nominalFrameInterval: Double) {
        self.tick = tick
        self.origin = origin
        nominalFrameTicks = max(1, Int64((nominalFrameInterval / tick).rounded()))
    }

    /// Records a pass-0 packet so the pass length can be measured. A packet without any timestamp
    /// (a raw elementary stream) follows the previous one.
    package mutating func observeFirstPass(pts: Int64?, duration: Int64) {
        guard loopDuration == nil else { return }
        let start = pts ?? firstPassEnd ?? origin
        let end = start + (duration > 0 ? duration : nominalFrameTicks)
        firstPassEnd = max(firstPassEnd ?? end, end)
    }

    /// The length pass 0 has if it ends now (what `wrap` would record).
    package var measuredLength: Int64? { firstPassEnd.map { max(nominalFrameTicks, $0 - origin) } }

    /// Called when the input reached its end and is rewound. Returns the offset for the next pass.
    package mutating func wrap() -> Int64 {
        if loopDuration == nil {
            loopDuration = max(nominalFrameTicks, (firstPassEnd ?? origin + nominalFrameTicks) - origin)
        }
        wraps += 1
        return offset(forPass: wraps)
    }

    /// A decode stage's copy learns the length the demuxer measured (from a `passEnded` marker).
    package mutating func learn(loopDuration ticks: Int64) {
        if loopDuration == nil { loopDuration = ticks }
    }

    /// Sets the pass the demuxer continues in (after a user seek inside pass `pass`).
    package mutating func resume(inPass pass: Int) {
        if loopDuration != nil { wraps = pass }
    }

    package func offset(forPass pass: Int) -> Int64 { Int64(pass) * (loopDuration ?? 0) }

    /// The pass a timeline timestamp belongs to.
    package func pass(of timestamp: Int64) -> Int {
        guard let loopDuration, loopDuration > 0 else { return 0 }
        let elapsed = timestamp - origin
        return elapsed <= 0 ? 0 : Int(elapsed / loopDuration)
    }

    /// Seconds from the start of pass 0.
    package func seconds(_ timestamp: Int64) -> Double { Double(timestamp - origin) * tick }

    package var loopDurationSeconds: Double? { loopDuration.map { Double($0) * tick } }
    /// How far pass 0's packets reach so far, in seconds from its start.
    package var firstPassEndSeconds: Double? { firstPassEnd.map(seconds) }
    package var nominalFrameInterval: Double { Double(nominalFrameTicks) * tick }
}
