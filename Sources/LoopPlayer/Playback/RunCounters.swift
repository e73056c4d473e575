/// The run's counters that outlive a source: what the items before the current one decoded (a
/// playlist's, a replaced file's), the counts of the sources loaded before this one, the sound
/// device's underruns before it (the device counts across sources), the delay to the load's first
/// frame. `statistics` adds the source's own counters to them. Engine thread only.
final class RunCounters {
    private var earlierItems = (decoded: 0, replayed: 0, errors: 0)
    private var earlierLoads = PlaybackStatistics.Totals()
    private var underrunsBeforeLoad = 0
    /// From the last load to its first frame (a queued item was opened long before it plays).
    private var firstFrameMsOfLoad: Double?

    /// A new source: its counters start again, as the presenter's do; `sinceStart` (the statistics
    /// until now) keeps the run's totals.
    func sourceLoaded(sinceStart: PlaybackStatistics.Totals, underruns: Int) {
        earlierLoads = sinceStart
        earlierItems = (0, 0, 0)
        underrunsBeforeLoad = underruns
        firstFrameMsOfLoad = nil
    }

    /// A switch replaced the item whose pipeline reports `status`: the run counts what it decoded.
    func itemReplaced(_ status: PipelineStatus) {
        earlierItems.decoded += status.framesDecoded
        earlierItems.replayed += status.framesReplayed
        earlierItems.errors += status.decodeErrors
    }

    /// An item showed its first frame `ms` after it was opened; the first since the load counts.
    func firstFrameShown(ms: Double) {
        if firstFrameMsOfLoad == nil { firstFrameMsOfLoad = ms }
    }

    /// The run's statistics: `source`'s (the current item, or the last one once it is gone) on top of
    /// these counters; `current`'s read-ahead; `soundDrift` is the shared timeline's sound correction;
    /// `errors` counted by kind.
    func statistics(source: PlaybackItem?, current: PlaybackItem?, sound: SoundOutput, soundDrift: Double,
                    errors: [String: Int]) -> PlaybackStatistics {
        var statistics = source?.presenter?.statistics ?? PlaybackStatistics()
        let status = source?.pipeline.status
        if let info = source?.info { statistics.nominalFrameIntervalMs = info.nominalFrameInterval * 1000 }
        statistics.framesDecoded = earlierItems.decoded + (status?.framesDecoded ?? 0)
        statistics.framesReplayed = earlierItems.replayed + (status?.framesReplayed ?? 0)
        statistics.decodeErrors = earlierItems.errors + (status?.decodeErrors ?? 0)
        statistics.loopDurationMs = status?.loopDuration.map { $0 * 1000 }
        statistics.firstFrameMs = firstFrameMsOfLoad
        statistics.peakRSSBytes = ProcessUsage.peakRSSBytes
        statistics.cpuSeconds = ProcessUsage.cpuSeconds
        statistics.errors = errors
        statistics.audioDevice = sound.format
        statistics.audioUnderruns = sound.underruns - underrunsBeforeLoad
        // Once the sound was measured against the timeline (a driver that is no clock never is).
        if statistics.syncSoundOffsetSamples > 0, sound.rateCorrection != nil {
            statistics.syncSoundCorrectionPpm = soundDrift * 1e6
        }
        statistics.subtitleTrack = source?.subtitles.currentTrack?.label
        statistics.sinceStart = earlierLoads + PlaybackStatistics.Totals(of: statistics)
        if let readAhead = current?.pipeline.readAhead {
            (statistics.readAheadPackets, statistics.readAheadBytes) = readAhead
        }
        return statistics
    }
}
