/// When a playback run ends by itself. Absent limits never trigger.
public struct StopCondition: Sendable, Equatable {
    /// Seconds from the start of the run (`run()`, `runHeadless()`, the first `pump()`), whatever
    /// plays meanwhile: a source loading, failing or replaced takes from it. On a virtual clock
    /// (untimed), seconds of the media shown.
    public var duration: Double?
    /// Frames presented.
    public var frames: Int?
    /// Complete passes played (wraps).
    public var loops: Int?
    /// Stop when non-looping media ends instead of holding the last frame.
    public var exitAtEnd: Bool
    /// Return `.failed` when the source fails; false keeps running (show the error, wait for a
    /// retry or a new source), as a long-running embedded player should.
    public var exitOnFailure: Bool

    /// A condition from any mix of limits; the first one met ends the run.
    public init(duration: Double? = nil, frames: Int? = nil, loops: Int? = nil, exitAtEnd: Bool = false,
                exitOnFailure: Bool = true) {
        self.duration = duration
        self.frames = frames
        self.loops = loops
        self.exitAtEnd = exitAtEnd
        self.exitOnFailure = exitOnFailure
    }

    /// Runs until told to stop, surviving failures.
    public static let never = StopCondition(exitOnFailure: false)
}
