import Foundation
import LoopPlayer

/// The `--stats-json` object: the engine's statistics plus what the CLI knows.
struct StatsReport: Encodable {
    let source: String
    let outcome: String
    let statistics: PlaybackStatistics
    /// On a schedule: the entry playing at the end and the changes made (nil: no schedule).
    var schedule: (entry: String, transitions: Int)?

    private enum Keys: String, CodingKey {
        case source, outcome, scheduleEntry, scheduleTransitions, loopDurationMs, firstFrameMs, audioDevice, avOffsetMeanMs, avOffsetMaxMs, subtitleTrack
        case syncOffsetMeanMs, syncOffsetMaxMs, syncSoundOffsetMeanMs, syncSoundOffsetMaxMs, syncSoundCorrectionPpm
    }

    /// The statistics' own keys plus `source` and `outcome`; fields not known yet are `null`,
    /// never missing, so scripts can rely on every key.
    func encode(to encoder: Encoder) throws {
        try statistics.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(source, forKey: .source)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(schedule?.entry, forKey: .scheduleEntry)
        try container.encode(schedule?.transitions, forKey: .scheduleTransitions)
        if statistics.loopDurationMs == nil { try container.encodeNil(forKey: .loopDurationMs) }
        if statistics.firstFrameMs == nil { try container.encodeNil(forKey: .firstFrameMs) }
        if statistics.audioDevice == nil { try container.encodeNil(forKey: .audioDevice) }
        if statistics.avOffsetMeanMs == nil { try container.encodeNil(forKey: .avOffsetMeanMs) }
        if statistics.avOffsetMaxMs == nil { try container.encodeNil(forKey: .avOffsetMaxMs) }
        if statistics.subtitleTrack == nil { try container.encodeNil(forKey: .subtitleTrack) }
        if statistics.syncOffsetMeanMs == nil { try container.encodeNil(forKey: .syncOffsetMeanMs) }
        if statistics.syncOffsetMaxMs == nil { try container.encodeNil(forKey: .syncOffsetMaxMs) }
        if statistics.syncSoundOffsetMeanMs == nil { try container.encodeNil(forKey: .syncSoundOffsetMeanMs) }
        if statistics.syncSoundOffsetMaxMs == nil { try container.encodeNil(forKey: .syncSoundOffsetMaxMs) }
        if statistics.syncSoundCorrectionPpm == nil { try container.encodeNil(forKey: .syncSoundCorrectionPpm) }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    /// One line to `destination` (`-`: stdout); a failure says what and why (`OutputFile`).
    func write(to destination: String) throws(PlayerError) {
        var data = encoded()
        data.append(0x0A)
        try OutputFile.write(data, to: destination)
    }
}
