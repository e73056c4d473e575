/// Collects events and hands them over as one array per second, on a fixed grid that starts when
/// the player starts: events of second *k* are delivered together once second *k* is over; seconds
/// without events deliver nothing. Pure: time comes from the caller's clock.
package struct EventBatcher {
    package let interval: Double
    package var selection: EventSelection
    package private(set) var origin: Double?
    private var pending: [(time: Double, event: PlayerEvent)] = []

    package init(interval: Double = 1, selection: EventSelection) {
        self.interval = interval
        self.selection = selection
    }

    /// Fixes the grid's origin (the first call wins).
    package mutating func start(at time: Double) {
        if origin == nil { origin = time }
    }

    package mutating func record(_ event: PlayerEvent, at time: Double) {
        guard selection.admits(event) else { return }
        start(at: time)
        pending.append((time, event))
    }

    /// The batches of every second that has ended by `now`, oldest first.
    package mutating func flush(at now: Double) -> [[PlayerEvent]] {
        guard let origin, !pending.isEmpty else { return [] }
        var batches: [[PlayerEvent]] = []
        var lastSlot: Int?
        var kept: [(time: Double, event: PlayerEvent)] = []
        for entry in pending {
            let slot = self.slot(of: entry.time, origin: origin)
            guard origin + Double(slot + 1) * interval <= now + 1e-9 else {
                kept.append(entry)
                continue
            }
            if slot != lastSlot { batches.append([]) }
            batches[batches.count - 1].append(entry.event)
            lastSlot = slot
        }
        pending = kept
        return batches
    }

    /// Everything still pending, as one last batch (when the player stops).
    package mutating func drain() -> [PlayerEvent] {
        defer { pending.removeAll() }
        return pending.map(\.event)
    }

    /// When the oldest pending batch is due.
    package var nextDeadline: Double? {
        guard let origin, let first = pending.first else { return nil }
        return origin + Double(slot(of: first.time, origin: origin) + 1) * interval
    }

    private func slot(of time: Double, origin: Double) -> Int {
        Int(((time - origin) / interval + 1e-9).rounded(.down))
    }
}
