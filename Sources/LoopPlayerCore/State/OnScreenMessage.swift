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
    package var endsAt: Double { shownAt + duration + Self.fadeDuration }

    /// Its opacity at `now`, in `1 / fadeSteps` steps (so each step is drawn once); nil once gone.
    package func opacity(at now: Double) -> Double? {
        let fading = now - shownAt - duration
        guard fading < Self.fadeDuration else { return nil }
        guard fading > 0 else { return 1 }
        let step = (fading / Self.fadeDuration * Double(Self.fadeSteps)).rounded(.down)
        return 1 - (step + 1) / Double(Self.fadeSteps + 1)
    }

    /// When it must be drawn again after `now`: its next fade step, or its end.
    package func nextChange(after now: Double) -> Double? {
        let fadeStart = shownAt + duration
        guard now < endsAt else { return nil }
        guard now >= fadeStart else { return fadeStart }
        let stepLength = Self.fadeDuration / Double(Self.fadeSteps)
        let stepsDone = ((now - fadeStart) / stepLength).rounded(.down)
        return min(fadeStart + (stepsDone + 1) * stepLength, endsAt)
    }
}
