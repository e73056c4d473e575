import LoopPlayer
import XCTest

/// What one headless, untimed run presented.
struct PlaybackRecord {
    var times: [Double] = []
    var passes: [Int] = []
    var positions: [Double] = []
    var outcome: RunOutcome = .finished
    var statistics = PlaybackStatistics()
}

/// Plays `source` offscreen on the virtual clock and records every presented frame.
func playUntimed(_ source: String, looping: Bool = false, stop: StopCondition = StopCondition(exitAtEnd: true),
                 gravity: VideoGravity = .default, frameCacheBytes: Int = 0) throws -> PlaybackRecord {
    var configuration = EngineConfiguration(output: .offscreen, looping: looping, gravity: gravity, untimed: true, stop: stop)
    configuration.frameCacheBytes = frameCacheBytes
    let engine = try PlaybackEngine(configuration: configuration)
    var record = PlaybackRecord()
    engine.onFramePresented = { frame in
        record.times.append(frame.time)
        record.passes.append(frame.pass)
        record.positions.append(frame.positionInPass)
    }
    try engine.load(source)
    record.outcome = engine.run()
    record.statistics = engine.statistics
    return record
}
