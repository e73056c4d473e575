/// Keeps the sound on a shared timeline whose clock is not the sound card's (a crystal off by tens
/// of ppm; the system clock slewed by NTP): the sound is resampled a little faster or slower, as
/// mpv's `--video-sync=display-resample` does, so it never jumps. A PI controller on the offset
/// (sound heard minus the timeline): the proportional term takes up an offset within about ten
/// seconds, the integral one learns the clocks' steady drift so that it leaves no lasting offset.
/// Offsets too large to resample away inaudibly are moved at once (`realign`). Pure: table-tested.
package struct SoundDriftCorrector: Equatable {
    /// The largest change of the sound's rate: mpv's `--video-sync-max-audio-change` default
    /// (0.125 %, about two cents of pitch; sound cards are within 0.01 %, NTP slews at most 0.05 %).
    package static let largestCorrection = 0.00125
    /// Offsets beyond this are moved at once (at the largest correction they would take 40 s).
    package static let realignBeyond = 0.05
    /// The loop's natural frequency, per second: critically damped (proportional 2ω, integral ω²).
    private static let omega = 0.1
    /// After a realign, readings wait this long: the ring (200 ms) still holds sound from before it.
    package static let settleAfterRealign = 0.5

    /// The rate the sound is resampled to, relative to its own (1.001: 0.1 % faster).
    package private(set) var rate = 1.0
    /// The integral term: the steady drift learnt (rate units): the sound card against the system clock.
    package private(set) var drift = 0.0
    private var lastUpdate: Double?
    private var settlesAt: Double?

    package init() {}

    /// What to do about an offset.
    package enum Action: Equatable {
        /// Resample at `rate` from now on.
        case resample(rate: Double)
        /// Move the sound by `seconds` of media now (positive: skip ahead, it was behind).
        case realign(seconds: Double)
        /// The reading is not used: the ring still plays sound from before a move.
        case hold
    }

    /// `offset`: the media time heard minus the timeline's at monotonic time `now` (positive: the
    /// sound is ahead and must slow down).
    package mutating func update(offset: Double, at now: Double) -> Action {
        guard offset.isFinite, now.isFinite else { return .hold }
        if let settlesAt, now < settlesAt {
            lastUpdate = nil  // the first reading after it integrates nothing of the wait
            return .hold
        }
        defer { lastUpdate = now }
        if abs(offset) > Self.realignBeyond {
            settlesAt = now + Self.settleAfterRealign
            return .realign(seconds: -offset)
        }
        // Readings come every frame; a gap (a pause, a join) integrates nothing.
        let elapsed = lastUpdate.map { now - $0 } ?? 0
        let limit = Self.largestCorrection
        let proportional = -2 * Self.omega * offset
        // No learning while the rate is at its limit the same way (it would overshoot after).
        let saturated = abs(drift + proportional) >= limit && (drift + proportional) * offset < 0
        if elapsed > 0 && elapsed < 1 && !saturated {
            drift = (drift - Self.omega * Self.omega * offset * elapsed).clamped(to: -limit...limit)
        }
        rate = 1 + (drift + proportional).clamped(to: -limit...limit)
        return .resample(rate: rate)
    }

    /// The drift learnt is kept (it is the clocks', not the source's); the next reading starts a
    /// new interval.
    package mutating func interrupt() { lastUpdate = nil }

    /// The sound was moved at `now` (a join): readings wait for the ring to play out what it held.
    package mutating func moved(at now: Double) {
        lastUpdate = nil
        settlesAt = now + Self.settleAfterRealign
    }
}
