/// The policy of the sound device's callback, as a pure decision on the feed's state (table-tested
/// like `FrameScheduler`): when sound starts (a prefill, so it does not underrun at once), how it
/// fades in and out instead of clicking, what a realign delays, when an empty ring is an underrun.
/// `SoundOutput` carries the plan out on its ring, under its lock.
package struct AudioFeed: Equatable {
    /// Frames buffered before sound starts (again).
    package var prefill: Int
    /// Enough was buffered to start; false again after an underrun.
    package var started = false
    /// The gain at the end of the last buffer: 0 after silence, so sound fades in over one buffer.
    package var gain: Float = 0
    /// Frames of stale sound (before a seek) at the head of the ring, played fading to silence.
    package var fading = 0
    /// Frames of silence to play before the ring's sound (a realign of sound that ran ahead).
    package var delay = 0
    package var paused = true
    /// Kept silent for a queued item while the current one, without sound, plays.
    package var held = false
    package var muted = false
    package var volume: Float = 1
    /// The writer queued all its sound: an empty ring is its end, not an underrun.
    package var ended = false
    package var closed = false

    package init(prefill: Int) {
        self.prefill = prefill
    }

    /// What one buffer of `frames` plays.
    package struct Plan: Equatable {
        /// Nothing plays: the buffer is silence and the feed's clock stops.
        package var idle = false
        /// Frames of stale sound moved fading from `gainFrom` to 0; the rest of the buffer is silent.
        package var fadeOut = 0
        /// Frames of silence before the sound.
        package var leadingSilence = 0
        /// Frames of sound taken from the ring, ramped from `gainFrom` to `gainTo`.
        package var take = 0
        package var gainFrom: Float = 0
        package var gainTo: Float = 0
        /// The ring ran dry while playing: counted, and the sound buffers up again.
        package var underrun = false
        /// What is taken is heard: the clock may read this buffer.
        package var heard = false

        package init(idle: Bool = false, fadeOut: Int = 0, leadingSilence: Int = 0, take: Int = 0, gainFrom: Float = 0,
                     gainTo: Float = 0, underrun: Bool = false, heard: Bool = false) {
            self.idle = idle
            self.fadeOut = fadeOut
            self.leadingSilence = leadingSilence
            self.take = take
            self.gainFrom = gainFrom
            self.gainTo = gainTo
            self.underrun = underrun
            self.heard = heard
        }
    }

    /// Whether sound is playing (started, not paused, held or closed).
    package var isPlaying: Bool { started && !paused && !held && !closed }

    /// Decides the next buffer of `frames`, with `buffered` frames in a ring of `capacity`.
    package mutating func plan(frames: Int, buffered: Int, capacity: Int) -> Plan {
        if fading > 0 {
            defer {
                fading = 0
                gain = 0
            }
            return Plan(fadeOut: min(frames, fading), gainFrom: gain)
        }
        if !started && !paused && !held && (buffered >= min(prefill, capacity) || (ended && buffered > 0)) {
            started = true
        }
        let playing = isPlaying
        // Sound that stops (a pause) fades out over this buffer instead of clicking.
        let target: Float = playing && !muted ? volume : 0
        guard playing || (gain > 0 && buffered > 0) else {
            gain = 0
            return Plan(idle: true)
        }
        let lead = playing ? min(delay, frames) : 0
        delay -= lead
        let take = min(frames - lead, buffered)
        var plan = Plan(leadingSilence: lead, take: take, gainFrom: gain, gainTo: target, heard: playing && take > 0)
        if lead < frames { gain = target }
        if lead + take < frames && playing && !ended && lead < frames {
            plan.underrun = true
            started = false  // buffer up again before playing on
            gain = 0
        }
        return plan
    }
}
