/// Lays decoded audio on the loop's timeline, sample-exactly, so that every pass of the audio lasts
/// exactly one loop duration (the video's): samples past the end of their pass are cut (audio longer
/// than the video), silence fills what a pass lacks (audio shorter), overlaps are dropped and gaps
/// filled. Pass *k* starts at sample `round(k · loopDuration · rate)`, so passes never accumulate
/// rounding. Priming samples are already gone: libavcodec trims them (`AV_PKT_DATA_SKIP_SAMPLES`).
///
/// Sound that starts before the picture's first frame (WebM's Opus, 7 ms early) is cut in pass 0:
/// nothing plays before the first picture. Every later pass starts that early too (its `lead`), in
/// the previous pass's last moments, where the timestamps put it; the sound of each pass then ends
/// and the next begins without a gap.
package struct AudioPassPlacer: Equatable {
    /// What to do with one decoded frame.
    package struct Placement: Equatable {
        /// Silence to play before the frame's samples.
        package var silence: Int
        /// Samples to drop from the frame's start.
        package var skip: Int
        /// Samples of the frame to play after `skip`.
        package var keep: Int
        /// Timeline sample index of the first sample played (silence included).
        package var start: Int64

        package init(silence: Int, skip: Int, keep: Int, start: Int64) {
            self.silence = silence
            self.skip = skip
            self.keep = keep
            self.start = start
        }
    }

    package let sampleRate: Int
    /// Length of one pass in seconds; nil while unknown (or not looping): nothing is cut then.
    package var loopDuration: Double?
    /// Timeline sample index (from the start of pass 0) the output has reached.
    package private(set) var cursor: Int64
    /// Two timestamps this close (in samples) are contiguous: container rounding (Matroska stamps
    /// in milliseconds, 48 samples), not a gap.
    private let tolerance: Int64
    /// Without a loop length, a gap longer than this is a jump in the source: start again there.
    private let longestFill: Int64
    /// Samples the sound of every pass after the first starts before its pass: how far the sound's
    /// first frame starts before the picture (see the type's comment; `measureLead`).
    package private(set) var lead: Int64
    /// A lead longer than this is sound far ahead of the picture, cut at every pass as before.
    private static let longestLead = 0.25

    /// `timestampPrecision`: seconds per tick of the stream's time base.
    /// `lead`: seconds measured earlier in the stream (by another placer: a seek, a new rate).
    package init(sampleRate: Int, startingAt seconds: Double = 0, timestampPrecision: Double = 0, lead: Double = 0) {
        self.sampleRate = sampleRate
        tolerance = max(1, Int64((Double(sampleRate) * timestampPrecision).rounded(.up)) + 1)
        cursor = Int64((seconds * Double(sampleRate)).rounded())
        longestFill = Int64(sampleRate) * 10
        self.lead = Int64((lead * Double(sampleRate)).rounded())
    }

    /// The lead in seconds, for the next placer of the same stream.
    package var leadSeconds: Double { Double(lead) / Double(sampleRate) }

    /// The sound stream's first frame, starting at `seconds` in pass `pass`, says how far the sound
    /// starts before the picture (every pass alike): the lead from now on.
    package mutating func measureLead(startingAt seconds: Double, pass: Int) {
        let passSeconds = loopDuration.map { Double(pass) * $0 } ?? 0
        let early = -Int64(((seconds - passSeconds) * Double(sampleRate)).rounded())
        lead = early > 0 && Double(early) <= Self.longestLead * Double(sampleRate) ? early : 0
    }

    /// The lead passes use: none while the loop's length is unknown, or when it would take more
    /// than a quarter of a pass.
    private var passLead: Int64 {
        guard let loopDuration, Double(lead) * 4 < loopDuration * Double(sampleRate) else { return 0 }
        return lead
    }

    /// Starts again at `seconds` (after a seek): earlier samples are dropped, a later start is padded.
    package mutating func restart(at seconds: Double) {
        cursor = Int64((seconds * Double(sampleRate)).rounded())
    }

    /// Silence toward the end of the pass the cursor is in (at most `limit` samples; nil: all of
    /// it): what a pass whose sound ended early still needs. Nil on a pass boundary or while the
    /// loop length is unknown.
    package mutating func fillTowardPassEnd(atMost limit: Int? = nil) -> Placement? {
        guard let loopDuration, loopDuration > 0 else { return nil }
        let pass = pass(containing: cursor)
        guard cursor != passStart(pass) - passLead else { return nil }
        let passEnd = passStart(pass + 1) - passLead
        let end = limit.map { min(cursor + Int64($0), passEnd) } ?? passEnd
        guard end > cursor else { return nil }
        defer { cursor = end }
        return Placement(silence: Int(end - cursor), skip: 0, keep: 0, start: cursor)
    }

    /// The pass a timeline sample index falls in (the lead included: a pass's sound ends `lead`
    /// samples before the next pass's picture starts).
    package func pass(containing timelineIndex: Int64) -> Int {
        guard let loopDuration, loopDuration > 0 else { return 0 }
        let index = timelineIndex + passLead
        var pass = max(0, Int((Double(index) / (loopDuration * Double(sampleRate))).rounded(.down)))
        while passStart(pass + 1) <= index { pass += 1 }
        while pass > 0 && passStart(pass) > index { pass -= 1 }
        return pass
    }

    /// Samples from the start of the sound of the pass `index` falls in (the start of its picture
    /// less the lead), counted as in pass 0, whose cut lead still counts.
    package func offsetInPass(_ index: Int64) -> Int64 {
        index + passLead - passStart(pass(containing: index))
    }

    /// The sample where the picture of pass `pass` starts.
    private func passStart(_ pass: Int) -> Int64 {
        guard let loopDuration else { return 0 }
        return Int64((Double(pass) * loopDuration * Double(sampleRate)).rounded())
    }

    /// Places a frame of `count` samples starting at `seconds` on the timeline (pass offset included)
    /// read in pass `pass` (the demuxer knows it: audio longer than the video has timestamps past
    /// the pass's end that only the pass tells apart from the next pass). Nil if none of it plays.
    package mutating func place(startingAt seconds: Double, count: Int, pass readPass: Int? = nil) -> Placement? {
        let rate = Double(sampleRate)
        var index: Int64
        var passEnd = Int64.max
        if let loopDuration, loopDuration > 0 {
            // Half a sample of slack: a frame that starts a pass must not count as the previous one's end.
            let early = Double(passLead) / rate
            let pass = readPass ?? max(0, Int(((seconds + early + 0.5 / rate) / loopDuration).rounded(.down)))
            index = passStart(pass) + Int64(((seconds - Double(pass) * loopDuration) * rate).rounded())
            passEnd = passStart(pass + 1) - passLead
        } else {
            index = Int64((seconds * rate).rounded())
        }
        if abs(index - cursor) <= tolerance { index = cursor }
        // Without passes a long gap is a jump in the source; inside a pass it is sound that starts
        // late (or a short pass) and is filled, whatever its length (the silence is paced by the ring).
        if loopDuration == nil && index - cursor > longestFill { cursor = index }
        let end = min(index + Int64(count), passEnd)
        guard end > cursor else { return nil }
        let silence = max(0, min(index, end) - cursor)  // never past the pass's end
        let skip = max(0, cursor - index)
        let placement = Placement(silence: Int(silence), skip: Int(skip), keep: Int(max(0, end - max(index, cursor))),
                                  start: cursor)
        cursor = end
        return placement
    }
}
