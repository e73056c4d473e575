/// What the engine saw while playing: the counters behind `loopplay --stats-json`.
public struct PlaybackStatistics: Sendable, Equatable, Codable {
    /// Video frames the decoder produced, over every playlist item.
    public var framesDecoded = 0
    /// Frames given again from the loop's frame cache (`FrameCache`) instead of decoded.
    public var framesReplayed = 0
    /// Frames shown on screen.
    public var framesPresented = 0
    /// Frames skipped because they were late by more than one frame.
    public var framesDropped = 0
    /// Wraps from the end of a pass to the start of the next.
    public var loopsCompleted = 0
    /// Video packets or frames the decoder rejected or flagged as damaged (playback goes on).
    public var decodeErrors = 0
    /// The source's frame interval (1 / frame rate), in milliseconds.
    public var nominalFrameIntervalMs: Double = 0
    /// One pass of the loop, measured from the timeline (nil until the first pass was read).
    public var loopDurationMs: Double?
    /// Presentation interval at each wrap (last frame of pass k → first frame of pass k+1), as
    /// measured: the latest 1000 (a loop that runs for weeks does not grow). For measurements
    /// (`--stats-json`, the benchmarks); a user reads `seamMaxDeviationMs`.
    package var seamIntervalsMs: [Double] = []
    /// Seams measured in all (`seamIntervalsMs` keeps the latest only).
    public var seamsMeasured = 0
    /// Largest |seam interval − nominal frame interval|.
    public var seamMaxDeviationMs: Double = 0
    /// Time between the first frames of consecutive passes, as presented (the latest 1000).
    package var loopPeriodsMs: [Double] = []
    /// From the start of opening to the first frame on screen.
    public var firstFrameMs: Double?
    /// The process's peak resident memory (`getrusage`), in bytes.
    public var peakRSSBytes = 0
    /// CPU time the process used, user plus system, in seconds.
    public var cpuSeconds: Double = 0
    /// Errors seen, by `PlayerError.kind`.
    public var errors: [String: Int] = [:]
    /// What the audio device was opened with; nil without sound.
    public var audioDevice: AudioDeviceFormat?
    /// Times the device found nothing to play while playing (each is one gap in the sound).
    public var audioUnderruns = 0
    /// Picture minus sound (frame time − time heard) when each frame was shown, while following
    /// the sound: mean, largest magnitude, and how many frames were measured.
    public var avOffsetMeanMs: Double?
    /// The largest picture-minus-sound offset measured, in milliseconds (nil: none measured).
    public var avOffsetMaxMs: Double?
    /// How many frames the picture-minus-sound offset was measured on.
    public var avOffsetSamples = 0
    /// On a shared timeline (`SyncTimeline`): each frame's time on screen minus its time on the
    /// timeline, mean and largest magnitude, and how many frames were measured.
    public var syncOffsetMeanMs: Double?
    /// The largest |shown − due on the shared timeline|, in milliseconds (nil: not synced).
    public var syncOffsetMaxMs: Double?
    /// How many frames the shared-timeline offset was measured on.
    public var syncOffsetSamples = 0
    /// On a shared timeline with sound: the time heard minus the timeline's, measured as each frame
    /// is shown once the sound was moved to the timeline: mean, largest magnitude, how many.
    public var syncSoundOffsetMeanMs: Double?
    /// The largest |heard − the shared timeline|, in milliseconds (nil: not measured).
    public var syncSoundOffsetMaxMs: Double?
    /// How many frames the sound's offset from the shared timeline was measured on.
    public var syncSoundOffsetSamples = 0
    /// The steady drift learnt on the shared timeline, in parts per million: how much faster
    /// (positive) the sound is resampled to stay on it, the sound card's clock against the system
    /// clock (nil: not resampled, or not measured yet).
    public var syncSoundCorrectionPpm: Double?
    /// The subtitle track shown at the end (its label), if any.
    public var subtitleTrack: String?
    /// Packets read ahead and waiting for the decoders (picture and sound): the source's buffer level.
    public var readAheadPackets = 0
    /// The bytes of those packets.
    public var readAheadBytes = 0

    /// The counts since the player was made, over every source it loaded (the fields above start
    /// again with each new source): what a monitor follows.
    public var sinceStart = Totals()

    /// Counts that only rise over a player's life.
    public struct Totals: Sendable, Equatable, Codable {
        public var framesPresented = 0
        public var framesDropped = 0
        public var framesDecoded = 0
        public var framesReplayed = 0
        public var loopsCompleted = 0
        public var decodeErrors = 0
        public var audioUnderruns = 0
        public var seamsMeasured = 0

        package init() {}

        /// The counts of `statistics`, one source's.
        package init(of statistics: PlaybackStatistics) {
            framesPresented = statistics.framesPresented
            framesDropped = statistics.framesDropped
            framesDecoded = statistics.framesDecoded
            framesReplayed = statistics.framesReplayed
            loopsCompleted = statistics.loopsCompleted
            decodeErrors = statistics.decodeErrors
            audioUnderruns = statistics.audioUnderruns
            seamsMeasured = statistics.seamsMeasured
        }

        package static func + (a: Totals, b: Totals) -> Totals {
            var sum = Totals()
            sum.framesPresented = a.framesPresented + b.framesPresented
            sum.framesDropped = a.framesDropped + b.framesDropped
            sum.framesDecoded = a.framesDecoded + b.framesDecoded
            sum.framesReplayed = a.framesReplayed + b.framesReplayed
            sum.loopsCompleted = a.loopsCompleted + b.loopsCompleted
            sum.decodeErrors = a.decodeErrors + b.decodeErrors
            sum.audioUnderruns = a.audioUnderruns + b.audioUnderruns
            sum.seamsMeasured = a.seamsMeasured + b.seamsMeasured
            return sum
        }
    }

    /// Seam intervals and loop periods kept: the latest thousand.
    package static let keptMeasurements = 1000

    package init() {}

    package mutating func recordAVOffset(ms: Double) {
        Self.tally(ms, mean: &avOffsetMeanMs, largest: &avOffsetMaxMs, count: &avOffsetSamples)
    }

    package mutating func recordSyncOffset(ms: Double) {
        Self.tally(ms, mean: &syncOffsetMeanMs, largest: &syncOffsetMaxMs, count: &syncOffsetSamples)
    }

    package mutating func recordSyncSoundOffset(ms: Double) {
        Self.tally(ms, mean: &syncSoundOffsetMeanMs, largest: &syncSoundOffsetMaxMs, count: &syncSoundOffsetSamples)
    }

    /// A running mean and largest magnitude.
    private static func tally(_ ms: Double, mean: inout Double?, largest: inout Double?, count: inout Int) {
        mean = ((mean ?? 0) * Double(count) + ms) / Double(count + 1)
        largest = max(largest ?? 0, abs(ms))
        count += 1
    }

    package mutating func recordSeam(intervalMs: Double) {
        Self.keepLatest(&seamIntervalsMs, adding: intervalMs)
        seamsMeasured += 1
        seamMaxDeviationMs = max(seamMaxDeviationMs, abs(intervalMs - nominalFrameIntervalMs))
    }

    package mutating func recordLoopPeriod(ms: Double) { Self.keepLatest(&loopPeriodsMs, adding: ms) }

    private static func keepLatest(_ measurements: inout [Double], adding value: Double) {
        if measurements.count >= keptMeasurements { measurements.removeFirst(measurements.count - keptMeasurements + 1) }
        measurements.append(value)
    }
}
