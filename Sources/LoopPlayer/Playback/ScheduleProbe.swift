import Foundation
import Synchronization

/// Reads each item's length for a playlist on a shared timeline (`TimelineSchedule`) before the
/// first item plays, on a thread of its own (opening files blocks): every screen reads the same
/// files, so every screen computes the same schedule. The items must be local files (a network
/// item's length is known only once it is read). The run loop picks the outcome up when woken.
final class ScheduleProbe: Sendable {
    enum Outcome: Sendable {
        case schedule(TimelineSchedule)
        case failed(PlayerError)
    }

    private let probe: BackgroundProbe<Outcome>

    init(items: [String], ext: String, wake: @escaping @Sendable () -> Void) {
        probe = BackgroundProbe(name: "lp-schedule", noThread: .failed(.invalidSetting(name: "SyncTimeline", value: "",
                                reason: "no thread to read the playlist's lengths")), wake: wake) { abort in
            Self.probe(items, ext: ext, abort: abort)
        }
    }

    /// The schedule, or why there is none; nil while the files are read.
    var result: Outcome? { probe.result }

    /// Stops reading (the run ends), without waiting for the thread.
    func cancel() { probe.cancel() }

    private static func probe(_ items: [String], ext: String, abort: AbortFlag) -> Outcome {
        var lengths: [Double] = []
        for item in items {
            guard !abort.isRaised else { return .failed(.invalidSetting(name: "SyncTimeline", value: "", reason: "stopped")) }
            let location: MediaLocation
            do { location = try SourceResolver.standard().resolve(item, ext: ext) } catch { return .failed(error) }
            guard case .file = location else {
                return .failed(.invalidSetting(name: "SyncTimeline", value: item,
                                               reason: "a playlist on a shared timeline plays local files (each one's length is read before playing)"))
            }
            let input: MediaInput
            do { input = try MediaInput.open(location, interrupt: InputInterrupt(abort: abort), access: .localFile) } catch {
                return .failed(error.error)
            }
            guard let length = SourceOpener.fileLength(of: input), length.isFinite, length > 0 else {
                return .failed(.invalidSetting(name: "SyncTimeline", value: item, reason: "its length is not known"))
            }
            lengths.append(length)
        }
        guard let schedule = TimelineSchedule(lengths: lengths) else {
            return .failed(.invalidSetting(name: "SyncTimeline", value: "", reason: "the playlist has no items"))
        }
        return .schedule(schedule)
    }
}
