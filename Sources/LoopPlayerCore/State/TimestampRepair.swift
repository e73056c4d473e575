/// Gives every decoded picture a usable presentation timestamp (in the stream's ticks):
/// - FFmpeg's best-effort timestamp when there is one: it copes with containers whose pts ignore
///   B-frame reordering (pts = dts, common in phone and webcam exports), as ffplay does by default;
/// - the previous picture's time plus its duration when there is none;
/// - for containers that may jump in time (MPEG-TS, `jumpLimit` set), continuity across a jump
///   larger than the limit: later pictures keep the shift (ffplay's `max_frame_duration` rule).
/// Small steps backwards are passed on: the presenter shows such a picture late rather than dropping it.
/// Pure: table-tested.
package struct TimestampRepair: Equatable {
    /// Beyond this (ticks), a jump forward or backward is a discontinuity; nil honours every timestamp.
    package let jumpLimit: Int64?
    private var last: (timestamp: Int64, duration: Int64)?
    /// Added to incoming timestamps since the last discontinuity.
    package private(set) var offset: Int64 = 0

    package init(jumpLimit: Int64?) { self.jumpLimit = jumpLimit }

    /// The timestamp for a picture whose best-effort timestamp is `candidate` (nil: none) and whose
    /// duration is `duration`; `start` is used when the very first picture has none.
    package mutating func timestamp(for candidate: Int64?, duration: Int64, start: Int64) -> Int64 {
        let expected = last.map { $0.timestamp + $0.duration }
        var result: Int64
        if let candidate {
            result = candidate + offset
            if let jumpLimit, let expected, let last,
               result > expected + jumpLimit || result < last.timestamp - jumpLimit {
                offset += expected - result
                result = expected
            }
        } else {
            result = expected ?? start
        }
        last = (result, duration)
        return result
    }

    /// Forgets the past (after a seek): the next timestamp is taken as it comes.
    package mutating func reset() {
        last = nil
        offset = 0
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.jumpLimit == b.jumpLimit && a.offset == b.offset && a.last?.timestamp == b.last?.timestamp
            && a.last?.duration == b.last?.duration
    }
}
