/// Keeps the picture on the sound's clock. After every frame shown, the presenter compares the media
/// time it is at with the time being heard and moves its anchor toward it by a tenth of the
/// difference, at most 1 ms per frame (the motion stays even: device clocks differ from the
/// monotonic clock by parts per million), or joins it at once when it (re)starts following —
/// after a start, a pause, a seek, a speed change — or when they are more than 200 ms apart.
/// Pure: table-tested.
package struct MasterClockFollower: Equatable {
    /// Differences below this are left alone (half a millisecond).
    package static let deadBand = 0.0005
    private static let largestStep = 0.001
    private static let joinBeyond = 0.2

    /// Following the sound (false until the first reading after a start, pause or seek).
    package private(set) var locked = false

    /// What to do after a frame was shown.
    package struct Correction: Equatable {
        /// Clock seconds to move the anchor by (positive: the picture waits).
        package var anchorShift: Double
        /// Picture minus sound when this frame was shown (ms), while following.
        package var offsetMs: Double?
    }

    /// `picture`: the media time the picture is at now; `frameTime`: the time of the frame just
    /// shown; `heard`: the media time being heard now (nil: nothing is heard, the picture leads).
    package mutating func follow(picture: Double, frameTime: Double, heard: Double?, speed: Double) -> Correction {
        guard let heard, speed > 0 else {
            locked = false
            return Correction(anchorShift: 0, offsetMs: nil)
        }
        let drift = picture - heard  // > 0: the picture is ahead of the sound
        let offset = locked ? (frameTime - heard) * 1000 : nil
        if !locked || abs(drift) > Self.joinBeyond {
            locked = true
            return Correction(anchorShift: drift / speed, offsetMs: offset)
        }
        guard abs(drift) > Self.deadBand else { return Correction(anchorShift: 0, offsetMs: offset) }
        let step = (drift * 0.1).clamped(to: -Self.largestStep...Self.largestStep)
        return Correction(anchorShift: step / speed, offsetMs: offset)
    }

    /// Stop following until the next reading (a pause, a seek, a speed change).
    package mutating func release() { locked = false }

    package init() {}
}
