/// When a playback run ends by itself. Absent limits never trigger.
public struct StopCondition: Sendable, Equatable {
    /// Seconds of playback (clock time since the first frame).
    public var duration: Double?
    /// Frames presented.
    public var frames: Int?
    /// Complete passes played (wraps).
    public var loops: Int?
    /// Stop when non-looping media ends instead of holding the last frame.
    public var exitAtEnd: Bool

    public init(duration: Double? = nil, frames: Int? = nil, loops: Int? = nil, exitAtEnd: Bool = false) {
        self.duration = duration
        self.frames = frames
        self.loops = loops
        self.exitAtEnd = exitAtEnd
    }

    public static let never = StopCondition()
}
