/// When the engine's loop comes back after an iteration: at once, at a time, when something wakes
/// it, or never (the run is over). On a virtual clock nothing waits for time: a still player jumps
/// the clock to its next deadline instead. Pure; the engine performs the decision.
package struct WakePlan: Equatable {
    /// What the presenter did or waits for this iteration.
    package enum Step: Equatable {
        case shown
        case waitUntil(Double)
        case waitForFrames
        case idle
        /// Non-looping media ended.
        case ended
        /// A stop condition was met.
        case finished
        /// No presenter yet (loading), or the source failed.
        case nothing
    }

    package enum Decision: Equatable {
        /// Go again at once.
        case again
        /// Sleep until this time (nil: until woken).
        case wait(Double?)
        /// Move the virtual clock to this time, then go again.
        case advanceClock(to: Double)
        case finished
    }

    package var step: Step
    /// Other times the loop must wake at (event batches, animated overlays, a switch settling).
    package var deadlines: [Double?] = []
    /// When the stop condition is met (a duration), if it is a time.
    package var stopDeadline: Double?
    /// When an empty queue turns into buffering.
    package var starvationDeadline: Double?
    /// The run ends when the media does.
    package var exitAtEnd = false
    package var virtualClock = false
    /// The source is still opening.
    package var loading = false

    package var decision: Decision {
        var deadline = deadlines.compactMap { $0 }.min()
        switch step {
        case .shown: return .again
        case .finished: return .finished
        case let .waitUntil(time): deadline = earliest(deadline, time)
        case .waitForFrames: deadline = earliest(deadline, earliest(stopDeadline, starvationDeadline))
        case .idle, .ended, .nothing: deadline = earliest(deadline, stopDeadline)
        }
        if step == .ended && exitAtEnd { return .finished }
        guard virtualClock else { return .wait(deadline) }
        // Waiting for the source or the decoder sleeps until they wake the loop.
        if step == .waitForFrames || loading { return .wait(nil) }
        guard let deadline else { return .wait(nil) }
        return .advanceClock(to: deadline)
    }

    package init(step: Step, deadlines: [Double?] = [], stopDeadline: Double? = nil, starvationDeadline: Double? = nil,
                 exitAtEnd: Bool = false, virtualClock: Bool = false, loading: Bool = false) {
        self.step = step
        self.deadlines = deadlines
        self.stopDeadline = stopDeadline
        self.starvationDeadline = starvationDeadline
        self.exitAtEnd = exitAtEnd
        self.virtualClock = virtualClock
        self.loading = loading
    }
}

/// The earlier of two optional times (nil: no time).
package func earliest(_ a: Double?, _ b: Double?) -> Double? {
    switch (a, b) {
    case let (a?, b?): min(a, b)
    case let (a?, nil): a
    case let (nil, b): b
    }
}
