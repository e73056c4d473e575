/// The gapless switch between playlist items: the queued next item, when the sound device goes to
/// it, and the item a switch replaced until the switch has settled.
///
/// The queued item opens and decodes its first frames while the current one plays. Once the current
/// item's sound is all queued, the engine's sound device goes to the queued item's writer
/// (`tendSound`), so the next item's samples follow in the same ring. At the current item's end the
/// engine promotes the queued item (`promote`); the replaced item keeps its threads until the switch
/// has *settled* (`settleIfDue`). Replaced and dropped items stop on the retirer's thread, not the
/// engine's. The engine owns the items' roles (current, last) and everything the user sees; this
/// type owns the switch's state. Engine thread only.
final class ItemSwitch {
    /// How long after a switch the replaced item's pipeline is left alone: the new item's first
    /// frame is presented and drawn by then (measured from outside, a join right after the present
    /// lengthened the switch by 2–4 ms on two cores).
    static let settlingTime = 0.02

    /// The next item: opened and decoding its first frames while the current one plays.
    private(set) var queued: PlaybackItem?
    /// The item the last switch replaced, stopped once the switch has settled.
    private var retired: PlaybackItem?
    /// When the last switch settles: its first frame is out and the display has drawn it. Work that
    /// would compete with that for the CPU (joining the old item's threads, opening the next item)
    /// waits until then.
    private(set) var settlesAt: Double?
    /// Stops replaced items off the engine's thread.
    private let retirer = PipelineRetirer()
    private let sound: SoundOutput
    private let clock: PlaybackClock
    private let outbox: EngineOutbox

    init(clock: PlaybackClock, sound: SoundOutput, outbox: EngineOutbox) {
        self.clock = clock
        self.sound = sound
        self.outbox = outbox
    }

    /// The current item seeks or changes track after the sound device went to the queued item: that
    /// one is dropped (its sound was queued after the current one's end) and queued again (`queueDropped`).
    func takeBackSound() {
        guard queuedHasSound else { return }
        dropQueued()
        outbox.report(.queueDropped)
    }

    /// The queued item is the new content of the current one (its file was replaced), not a
    /// playlist's next.
    private var queuedIsReplacement = false
    /// The queued item's place in a shared timeline's schedule: current from the switch on, before
    /// the playlist hears of it.
    private var queuedScheduleItem: Int?

    /// Queues `item` to follow the current one (`isReplacement`: the current item's new content);
    /// a queued item must have been dropped first.
    func queue(_ item: PlaybackItem, isReplacement: Bool = false) {
        precondition(queued == nil, "drop the queued item before queueing another")
        queued = item
        queuedIsReplacement = isReplacement
    }

    /// The queued item is item `index` of the schedule.
    func queueOnSchedule(_ index: Int?) { queuedScheduleItem = index }

    /// Whether the sound device went to the queued item (the current item's sound is all queued):
    /// a seek in the current item must take it back.
    var queuedHasSound: Bool { queued?.pipeline.sound.hasDevice == true }

    /// Forgets the queued item and its place in the schedule; its threads stop (off this thread). If
    /// the sound device went to it, it comes back to the item before, and what the dropped item
    /// queued is dropped.
    func dropQueued() {
        dropQueuedItem()
        queuedScheduleItem = nil
    }

    private func dropQueuedItem() {
        guard let dropped = queued else { return }
        queued = nil
        sound.reclaim(from: dropped.pipeline.sound)
        retirer.retire(dropped.pipeline)
    }

    /// Every iteration while both items exist: once `current`'s sound is all queued, the sound
    /// device goes to the queued item, so its samples follow in the same ring (no gap, no second
    /// device); after a current item without sound, at once, held until the queued one plays.
    /// Returns the queued item if it failed (it is dropped: the engine reports it).
    func tendSound(current: PlaybackItem?) -> (item: PlaybackItem, error: PlayerError)? {
        guard let next = queued, let current else { return nil }
        if case let .failed(error) = next.pipeline.status.phase {
            dropQueuedItem()  // its place in the schedule stays for the item queued instead
            return (next, error)
        }
        guard !next.pipeline.sound.hasDevice, next.pipeline.status.audioTrack != nil,
              case .ready = next.pipeline.status.phase, case .ready = current.pipeline.status.phase else { return nil }
        if current.pipeline.status.audioTrack == nil {
            sound.handOver(to: next.pipeline.sound, held: true)
        } else if current.pipeline.sound.isFinished {
            // Whatever its rate and channels: the sound stage converts to the device's format
            // (reopening it would stop the sound between the items).
            sound.handOver(to: next.pipeline.sound, held: false)
        }
        return nil
    }

    /// Whether the queued item can take over at the current item's end.
    enum Readiness {
        case nothingQueued
        /// Opening, or its first frame is not decoded yet.
        case notYet
        case failed(PlaybackItem, PlayerError)
        case ready(PlaybackItem, VideoStreamInfo)
    }

    /// Whether the queued item's first frame is decoded (it would take over at once).
    var queuedIsReady: Bool {
        if case .ready = readiness { return true }
        return false
    }

    var readiness: Readiness {
        guard let next = queued else { return .nothingQueued }
        switch next.pipeline.status.phase {
        case .opening: return .notYet
        case let .failed(error): return .failed(next, error)
        case let .ready(info): return next.pipeline.frames.peek() == nil ? .notYet : .ready(next, info)
        }
    }

    /// Takes the queued item to make it current (`retire` the current one next). The sound device
    /// is its writer's for good: taken over now if the hand-over has not happened (a skip, or an item
    /// without sound: what the item before queued fades out over one buffer).
    func promote() -> Promotion? {
        guard let next = queued else { return nil }
        queued = nil
        sound.commit(next.pipeline.sound)
        defer { queuedScheduleItem = nil }
        return Promotion(item: next, isReplacement: queuedIsReplacement, scheduleItem: queuedScheduleItem)
    }

    /// The queued item, made current: whether it is the current one's new content, and its place in
    /// the schedule.
    struct Promotion {
        let item: PlaybackItem
        let isReplacement: Bool
        let scheduleItem: Int?
    }

    /// The item a switch replaced: it stops once the switch has settled (joining its threads takes a
    /// few milliseconds that would lengthen the switch).
    func retire(_ item: PlaybackItem?) {
        retireNow()
        retired = item
        settlesAt = clock.isVirtual ? clock.now : clock.now + Self.settlingTime
    }

    /// Settles the last switch now (an item shorter than the settling time has ended).
    func settleNow() {
        guard settlesAt != nil else { return }
        settlesAt = clock.now
    }

    /// Once the last switch is due to settle, the item it replaced stops on the retirer's thread,
    /// and the playlist queues the next (`switchSettled`).
    func settleIfDue() {
        guard let due = settlesAt, clock.now >= due else { return }
        settlesAt = nil
        retireNow()
        outbox.report(.switchSettled)
    }

    /// A new source, or the end: the queued item is dropped, the last switch needs no settling;
    /// everything they kept stops now.
    func forget() {
        dropQueued()
        settlesAt = nil
        retireNow()
        retirer.finish()
    }

    /// The replaced item stops on the retirer's thread.
    private func retireNow() {
        guard let retired else { return }
        retirer.retire(retired.pipeline)
        self.retired = nil
    }
}
