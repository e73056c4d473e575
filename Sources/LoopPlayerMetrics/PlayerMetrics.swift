import Foundation
import LoopPlayer
import LoopPlayerCore
import Prometheus
import Synchronization

/// A player's statistics and status as Prometheus metrics (`loopplay_…`), in a registry a host
/// may share with its own metrics. `update()` brings them up to date; `MetricsServer` calls it
/// before each scrape.
///
/// The counters follow `PlaybackStatistics.sinceStart` (every source the player loaded), so they
/// only ever rise, as Prometheus expects; a new player's counts starting again are added on.
public final class PlayerMetrics: Sendable {
    /// The registry the metrics are in.
    public let registry: PrometheusCollectorRegistry
    private let player: ExtVideoPlayer
    private let recorder: Mutex<MetricsRecorder>

    /// Registers the player's metrics in `registry`.
    public init(player: ExtVideoPlayer, registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.player = player
        self.registry = registry
        recorder = Mutex(MetricsRecorder(registry: registry))
    }

    /// Reads the player now and sets the metrics from what it says.
    public func update() {
        let (status, statistics) = player.statusAndStatistics
        recorder.withLock { $0.record(statistics, status, process: ProcessReading.now()) }
    }

    /// The metrics in Prometheus's text format (version 0.0.4), brought up to date first.
    public func exposition() -> [UInt8] {
        update()
        return registry.emitToBuffer()
    }
}

/// Turns readings into metric values; owned by `PlayerMetrics`'s lock.
struct MetricsRecorder: ~Copyable {
    private let registry: PrometheusCollectorRegistry
    private var counters: [RisingCounter]
    private var errorCounters: [String: RisingCounter] = [:]
    private var cpu: RisingCounter
    private let gauges: Gauges
    private let stateGauges: [String: Gauge]
    private var sourceInfo: (source: String, gauge: Gauge)?
    /// On a schedule: the entry playing (its gauge is 1), the changes, the time to the next.
    private var scheduleInfo: (entry: String, gauge: Gauge)?
    private var scheduleTransitions: RisingCounter
    private let scheduleNextChange: Gauge
    private let seamDeviation: ValueHistogram
    /// Per picture alert (`PictureAlerts`): 1 while it holds, and how often it began.
    private let alertGauges: [DisplayAlert: Gauge]
    private var alertCounters: [DisplayAlert: RisingCounter]
    private var seamsRecorded = 0

    /// The engine's cumulative counts and where each is read from.
    private static let counted: [(name: String, help: String, value: @Sendable (PlaybackStatistics.Totals) -> Int)] = [
        ("loopplay_frames_presented_total", "Frames shown on screen.", { $0.framesPresented }),
        ("loopplay_frames_dropped_total", "Frames skipped because they were late by more than one frame.", { $0.framesDropped }),
        ("loopplay_frames_decoded_total", "Video frames the decoder produced.", { $0.framesDecoded }),
        ("loopplay_frames_replayed_total", "Frames given again from the loop's frame cache instead of decoded.", { $0.framesReplayed }),
        ("loopplay_loops_completed_total", "Wraps from the end of a pass to the start of the next.", { $0.loopsCompleted }),
        ("loopplay_decode_errors_total", "Packets or frames the decoder rejected or flagged as damaged.", { $0.decodeErrors }),
        ("loopplay_audio_underruns_total", "Times the sound device found nothing to play while playing.", { $0.audioUnderruns }),
    ]

    /// Seam deviations are a frame interval's fraction when all is well: buckets from 1 ms to 1 s.
    static let seamBuckets = [0.001, 0.002, 0.004, 0.008, 0.016, 0.033, 0.05, 0.1, 0.25, 0.5, 1]

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        counters = Self.counted.map { RisingCounter(registry.makeCounter(descriptor: .named($0.name, $0.help))) }
        cpu = RisingCounter(registry.makeCounter(
            descriptor: .named("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.")))
        gauges = Gauges(registry)
        scheduleTransitions = RisingCounter(registry.makeCounter(
            descriptor: .named("loopplay_schedule_transitions_total", "Changes of the schedule's entry since the start.")))
        scheduleNextChange = registry.makeGauge(descriptor: .named(
            "loopplay_schedule_next_change_seconds", "Seconds to the schedule's next change (NaN: none planned, or no schedule)."))
        stateGauges = Dictionary(uniqueKeysWithValues: PlayerState.names.map { name in
            (name, registry.makeGauge(descriptor: .named("loopplay_state",
                "1 for the state the player is in (idle, loading, ready, playing, paused, buffering, ended, failed)."),
                labels: [("state", name)]))
        })
        alertGauges = Dictionary(uniqueKeysWithValues: DisplayAlert.allCases.map { alert in
            (alert, registry.makeGauge(descriptor: .named("loopplay_display_alert",
                "1 while the picture alert of this kind holds (black, frozen; loopplay --alert-black, --alert-frozen)."),
                labels: [("kind", alert.rawValue)]))
        })
        alertCounters = Dictionary(uniqueKeysWithValues: DisplayAlert.allCases.map { alert in
            (alert, RisingCounter(registry.makeCounter(descriptor: .named("loopplay_display_alerts_total",
                "Picture alerts of this kind that began since the start."), labels: [("kind", alert.rawValue)])))
        })
        seamDeviation = registry.makeValueHistogram(
            descriptor: .named("loopplay_seam_deviation_seconds",
                               "How far each loop seam's presentation interval was from one frame interval."),
            buckets: Self.seamBuckets)
    }

    mutating func record(_ statistics: PlaybackStatistics, _ status: PlayerStatus, process: ProcessReading) {
        for index in counters.indices { counters[index].follow(Double(Self.counted[index].value(statistics.sinceStart))) }
        for (kind, count) in statistics.errors {
            if errorCounters[kind] == nil {
                errorCounters[kind] = RisingCounter(registry.makeCounter(
                    descriptor: .named("loopplay_errors_total", "Errors seen, by kind."), labels: [("kind", kind)]))
            }
            errorCounters[kind]?.follow(Double(count))
        }
        cpu.follow(process.cpuSeconds)
        recordSeams(statistics)
        gauges.set(statistics, status, process: process)
        for (name, gauge) in stateGauges { gauge.set(to: name == status.state.name ? 1 : 0) }
        recordSource(status.source)
        recordSchedule(status.schedule)
        for (alert, gauge) in alertGauges { gauge.set(to: status.displayAlerts.contains(alert) ? 1 : 0) }
        for alert in DisplayAlert.allCases { alertCounters[alert]?.follow(Double(status.displayAlertsRaised[alert] ?? 0)) }
    }

    private mutating func recordSchedule(_ schedule: ScheduleStatus?) {
        scheduleTransitions.follow(Double(schedule?.transitions ?? 0))
        scheduleNextChange.set(to: schedule?.nextChange.map { max(0, $0 - Date().timeIntervalSince1970) } ?? .nan)
        guard scheduleInfo?.entry != schedule?.entry else { return }
        if let old = scheduleInfo { registry.unregisterGauge(old.gauge) }
        scheduleInfo = schedule.map { schedule in
            let gauge = registry.makeGauge(
                descriptor: .named("loopplay_schedule_entry_info", "1, labelled with the schedule's entry playing (default: the default)."),
                labels: [("entry", schedule.entry)])
            gauge.set(to: 1)
            return (schedule.entry, gauge)
        }
    }

    /// The seams measured since the last reading (those still kept: the current source's), into
    /// the histogram.
    private mutating func recordSeams(_ statistics: PlaybackStatistics) {
        let measured = statistics.sinceStart.seamsMeasured
        if measured < seamsRecorded { seamsRecorded = 0 }  // another player's counts
        let new = min(measured - seamsRecorded, statistics.seamIntervalsMs.count)
        for intervalMs in statistics.seamIntervalsMs.suffix(new) {
            seamDeviation.record(abs(intervalMs - statistics.nominalFrameIntervalMs) / 1000)
        }
        seamsRecorded = measured
    }

    /// `loopplay_source_info{source="…"} 1` for the source playing: one series, replaced when it changes.
    private mutating func recordSource(_ source: String?) {
        // Control characters (a NUL or newline a remote control's loadfile may carry) escaped as elsewhere.
        let source = source.map { String(PrintableText.escaping(Self.publishable($0)).prefix(1024)) } ?? ""
        guard sourceInfo?.source != source else { return }
        if let old = sourceInfo { registry.unregisterGauge(old.gauge) }
        let gauge = registry.makeGauge(
            descriptor: .named("loopplay_source_info", "1, labelled with the source playing (empty before one is given)."),
            labels: [("source", source)])
        gauge.set(to: 1)
        sourceInfo = (source, gauge)
    }
}

extension MetricsRecorder {
    /// A source as it may be shown to whoever scrapes: a URL without its user, password, query and
    /// fragment (signed tokens, credentials); a path as it is.
    static func publishable(_ source: String) -> String {
        guard var parts = URLComponents(string: source), parts.scheme != nil, parts.host != nil else { return source }
        (parts.user, parts.password, parts.query, parts.fragment) = (nil, nil, nil, nil)
        return parts.string ?? source
    }
}

/// A counter that mirrors a cumulative count which may start again from 0 (a new item, a new run):
/// it rises by what the count rose, or by the whole count after it went back.
struct RisingCounter {
    let counter: Counter
    private var last = 0.0

    init(_ counter: Counter) { self.counter = counter }

    mutating func follow(_ value: Double) {
        let rise = value >= last ? value - last : value
        // Whole counts stay integers in the output (`13`, not `13.0`).
        if rise > 0, rise < 1e15, rise == rise.rounded() {
            counter.increment(by: Int64(rise))
        } else if rise > 0, rise.isFinite {
            counter.increment(by: rise)
        }
        last = value
    }
}

/// The gauges: values that go up and down.
private struct Gauges {
    let position, duration, frameInterval, loopDuration, firstFrame, seamMax, avOffsetMax: Gauge
    let readAheadPackets, readAheadBytes, playlistPosition, playlistCount: Gauge
    let residentMemory, peakResidentMemory, startTime: Gauge
    /// The properties the table gives a gauge (`PlayerProperty.metric`): pause, mute, volume, speed, the turn.
    let properties: [(property: PlayerProperty, gauge: Gauge)]
    let syncOffsetMean, syncOffsetMax, syncSoundOffsetMax, syncSoundCorrection, waitingForEpoch: Gauge

    init(_ registry: PrometheusCollectorRegistry) {
        func gauge(_ name: String, _ help: String) -> Gauge { registry.makeGauge(descriptor: .named(name, help)) }
        position = gauge("loopplay_position_seconds", "Position of the picture on screen inside the current pass.")
        duration = gauge("loopplay_duration_seconds", "Length of one pass of the source (NaN until known, or live).")
        frameInterval = gauge("loopplay_frame_interval_seconds", "The source's nominal frame interval.")
        loopDuration = gauge("loopplay_loop_duration_seconds", "One pass of the loop as measured from its timeline (NaN until read).")
        firstFrame = gauge("loopplay_first_frame_seconds", "From the start of opening to the first frame on screen (NaN until shown).")
        seamMax = gauge("loopplay_seam_max_deviation_seconds", "Largest deviation of a loop seam's interval from one frame interval.")
        avOffsetMax = gauge("loopplay_av_offset_max_seconds", "Largest picture-minus-sound offset measured (NaN: none measured).")
        readAheadPackets = gauge("loopplay_read_ahead_packets", "Packets read ahead and waiting for the decoders: the buffer level.")
        readAheadBytes = gauge("loopplay_read_ahead_bytes", "Bytes of the packets read ahead and waiting for the decoders.")
        playlistPosition = gauge("loopplay_playlist_position", "The playlist's current item, from 0 (NaN without a playlist).")
        playlistCount = gauge("loopplay_playlist_items", "Items in the playlist (1 for a single source).")
        properties = PlayerProperty.all.compactMap { property in property.metric.map { (property, gauge($0.name, $0.help)) } }
        residentMemory = gauge("process_resident_memory_bytes", "Resident memory size in bytes.")
        peakResidentMemory = gauge("loopplay_peak_resident_memory_bytes", "The process's peak resident memory in bytes.")
        startTime = gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.")
        syncOffsetMean = gauge("loopplay_sync_offset_mean_seconds",
                               "On a shared timeline: mean of each frame's time on screen minus its time on the timeline (NaN: not synced).")
        syncOffsetMax = gauge("loopplay_sync_offset_max_seconds",
                              "On a shared timeline: the largest |frame shown - its time on the timeline| (NaN: not synced).")
        syncSoundOffsetMax = gauge("loopplay_sync_sound_offset_max_seconds",
                                   "On a shared timeline: the largest |sound heard - the timeline| (NaN: not measured).")
        syncSoundCorrection = gauge("loopplay_sync_sound_rate_correction_ratio",
                                    "On a shared timeline: how much faster (positive) the sound is resampled to stay on it (NaN: not resampled).")
        waitingForEpoch = gauge("loopplay_sync_waiting_for_epoch", "1 while the first picture waits for the shared timeline's epoch.")
    }

    func set(_ statistics: PlaybackStatistics, _ status: PlayerStatus, process: ProcessReading) {
        position.set(to: status.position)
        duration.set(to: status.duration ?? .nan)
        frameInterval.set(to: statistics.nominalFrameIntervalMs / 1000)
        loopDuration.set(to: statistics.loopDurationMs.map { $0 / 1000 } ?? .nan)
        firstFrame.set(to: statistics.firstFrameMs.map { $0 / 1000 } ?? .nan)
        seamMax.set(to: statistics.seamMaxDeviationMs / 1000)
        avOffsetMax.set(to: statistics.avOffsetMaxMs.map { $0 / 1000 } ?? .nan)
        readAheadPackets.set(to: Double(statistics.readAheadPackets))
        readAheadBytes.set(to: Double(statistics.readAheadBytes))
        playlistPosition.set(to: status.playlistIndex.map(Double.init) ?? .nan)
        playlistCount.set(to: Double(status.playlistCount))
        for (property, gauge) in properties { gauge.set(to: property.metricValue(status)) }
        residentMemory.set(to: Double(process.residentBytes))
        // The peak read a moment before the current size may be below it: the peak is at least it.
        peakResidentMemory.set(to: Double(max(statistics.peakRSSBytes, process.residentBytes)))
        startTime.set(to: process.startTime)
        syncOffsetMean.set(to: statistics.syncOffsetMeanMs.map { $0 / 1000 } ?? .nan)
        syncOffsetMax.set(to: statistics.syncOffsetMaxMs.map { $0 / 1000 } ?? .nan)
        syncSoundOffsetMax.set(to: statistics.syncSoundOffsetMaxMs.map { $0 / 1000 } ?? .nan)
        syncSoundCorrection.set(to: statistics.syncSoundCorrectionPpm.map { $0 / 1e6 } ?? .nan)
        waitingForEpoch.set(to: status.waitingForEpoch ? 1 : 0)
    }
}

/// The process's own figures at one moment.
struct ProcessReading {
    var cpuSeconds: Double
    var residentBytes: Int
    var startTime: Double

    static func now() -> ProcessReading {
        ProcessReading(cpuSeconds: ProcessUsage.cpuSeconds, residentBytes: ProcessUsage.currentRSSBytes,
                       startTime: ProcessUsage.startTime)
    }
}

extension MetricNameDescriptor {
    /// A metric's whole name (units included, as Prometheus's conventions spell them) and its help.
    static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
