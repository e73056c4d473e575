/// Lays decoded audio on the loop's timeline, sample-exactly, so that every pass of the audio lasts
/// exactly one loop duration (the video's): samples past the end of their pass are cut (audio longer
/// than the video), silence fills what a pass lacks (audio shorter), overlaps are dropped and gaps
/// filled. Pass *k* starts at sample `round(k · loopDuration · rate)`, so passes never accumulate
/// rounding. Priming samples are already gone: libavcodec trims them (`AV_PKT_DATA_SKIP_SAMPLES`).
struct AudioPassPlacer: Equatable {
    /// What to do with one decoded frame.
    struct Placement: Equatable {
        /// Silence to play before the frame's samples.
        var silence: Int
        /// Samples to drop from the frame's start.
        var skip: Int
        /// Samples of the frame to play after `skip`.
        var keep: Int
        /// Timeline sample index of the first sample played (silence included).
        var start: Int64
    }

    let sampleRate: Int
    /// Length of one pass in seconds; nil while unknown (or not looping): nothing is cut then.
    var loopDuration: Double?
    /// Timeline sample index (from the start of pass 0) the output has reached.
    private(set) var cursor: Int64
    /// Two timestamps this close (in samples) are contiguous: container rounding (Matroska stamps
    /// in milliseconds, 48 samples), not a gap.
    private let tolerance: Int64
    /// Without a loop length, a gap longer than this is a jump in the source: start again there.
    private let longestFill: Int64

    /// `timestampPrecision`: seconds per tick of the stream's time base.
    init(sampleRate: Int, startingAt seconds: Double = 0, timestampPrecision: Double = 0) {
        self.sampleRate = sampleRate
        tolerance = max(1, Int64((Double(sampleRate) * timestampPrecision).rounded(.up)) + 1)
        cursor = Int64((seconds * Double(sampleRate)).rounded())
        longestFill = Int64(sampleRate) * 10
    }

    /// Starts again at `seconds` (after a seek): earlier samples are dropped, a later start is padded.
    mutating func restart(at seconds: Double) {
        cursor = Int64((seconds * Double(sampleRate)).rounded())
    }

    /// Silence toward the end of the pass the cursor is in (at most `limit` samples; nil: all of
    /// it): what a pass whose sound ended early still needs. Nil on a pass boundary or while the
    /// loop length is unknown.
    mutating func fillTowardPassEnd(atMost limit: Int? = nil) -> Placement? {
        guard let loopDuration, loopDuration > 0 else { return nil }
        let pass = pass(containing: cursor)
        guard cursor != passStart(pass) else { return nil }
        let passEnd = passStart(pass + 1)
        let end = limit.map { min(cursor + Int64($0), passEnd) } ?? passEnd
        guard end > cursor else { return nil }
        defer { cursor = end }
        return Placement(silence: Int(end - cursor), skip: 0, keep: 0, start: cursor)
    }

    /// The pass a timeline sample index falls in.
    func pass(containing index: Int64) -> Int {
        guard let loopDuration, loopDuration > 0 else { return 0 }
        var pass = max(0, Int((Double(index) / (loopDuration * Double(sampleRate))).rounded(.down)))
        while passStart(pass + 1) <= index { pass += 1 }
        while pass > 0 && passStart(pass) > index { pass -= 1 }
        return pass
    }

    /// The sample where pass `pass` starts.
    func passStart(_ pass: Int) -> Int64 {
        guard let loopDuration else { return 0 }
        return Int64((Double(pass) * loopDuration * Double(sampleRate)).rounded())
    }

    /// Places a frame of `count` samples starting at `seconds` on the timeline (pass offset included)
    /// read in pass `pass` (the demuxer knows it: audio longer than the video has timestamps past
    /// the pass's end that only the pass tells apart from the next pass). Nil if none of it plays.
    mutating func place(startingAt seconds: Double, count: Int, pass readPass: Int? = nil) -> Placement? {
        let rate = Double(sampleRate)
        var index: Int64
        var passEnd = Int64.max
        if let loopDuration, loopDuration > 0 {
            // Half a sample of slack: a frame that starts a pass must not count as the previous one's end.
            let pass = readPass ?? max(0, Int(((seconds + 0.5 / rate) / loopDuration).rounded(.down)))
            index = passStart(pass) + Int64(((seconds - Double(pass) * loopDuration) * rate).rounded())
            passEnd = passStart(pass + 1)
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
