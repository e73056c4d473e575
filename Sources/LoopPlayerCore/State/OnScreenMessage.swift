/// A short text over the picture, as mpv's OSD shows one: after a key (`Volume: 50 %`) or asked for
/// (`show-text`). It stays `duration` seconds at full opacity, then fades out over `fadeDuration`.
package struct OnScreenMessage: Sendable, Equatable {
    /// How long the fade-out takes, after the message's duration.
    package static let fadeDuration = 0.25
    /// Fade steps: the message is drawn again this often while it fades, and not otherwise.
    package static let fadeSteps = 8
    /// The longest a message may stay (a day): longer asks are clamped.
    package static let longestDuration = 86_400.0

    package let text: String
    package let shownAt: Double
    package let duration: Double

    package init(_ text: String, shownAt: Double, duration: Double) {
        self.text = text
        self.shownAt = shownAt
        self.duration = duration.isFinite ? min(max(duration, 0), Self.longestDuration) : 1
    }

    /// When the message has gone.
    package var endsAt: Double { fadeStart + Self.fadeDuration }

    private var fadeStart: Double { shownAt + duration }

    /// The fade step at `now`: 0 before the fade, 1…`fadeSteps` during it, nil once gone. Both
    /// `opacity` and `nextChange` read this one number, so they never disagree.
    private func step(at now: Double) -> Int? {
        guard now < endsAt else { return nil }
        guard now >= fadeStart else { return 0 }
        let step = Int(((now - fadeStart) / Self.fadeDuration * Double(Self.fadeSteps)).rounded(.down)) + 1
        return min(step, Self.fadeSteps)
    }

    /// When fade step `step` (1…`fadeSteps`) begins.
    private func startOfStep(_ step: Int) -> Double {
        fadeStart + Double(step - 1) * Self.fadeDuration / Double(Self.fadeSteps)
    }

    /// Its opacity at `now`, in `1 / (fadeSteps + 1)` steps (each step drawn once); nil once gone.
    package func opacity(at now: Double) -> Double? {
        step(at: now).map { 1 - Double($0) / Double(Self.fadeSteps + 1) }
    }

    /// When it must be drawn again after `now` (always later than `now`): its next fade step, or its end.
    package func nextChange(after now: Double) -> Double? {
        guard let step = step(at: now) else { return nil }
        let next = step < Self.fadeSteps ? startOfStep(step + 1) : endsAt
        return max(next, now.nextUp)
    }
}
