/// What the engine and its owners said since the controller last took it (`runOnce` returns it),
/// and the errors counted by kind. One per engine, handed to each owner that speaks (`Screen`,
/// `SoundControl`, `TimelineSync`), as an event loop's channel is: they append, the engine drains.
/// Engine thread only.
package final class EngineOutbox {
    private(set) var events: [EngineEvent] = []
    /// The errors noted or recorded, by kind (`PlaybackStatistics.errors`).
    package private(set) var errorCounts: [String: Int] = [:]
    /// Something was reported that the controller answers with engine calls (a playlist queues
    /// the next item after a switch settled or the queued item failed).
    private(set) var awaitsController = false

    var isEmpty: Bool { events.isEmpty }

    func emit(_ event: PlayerEvent) { events.append(.player(event)) }

    func report(_ event: EngineEvent) {
        events.append(event)
        switch event {
        case .switchSettled, .queuedItemFailed, .queueDropped: awaitsController = true
        default: break
        }
    }

    /// Counts `error` (said by the state machine, or not at all).
    package func record(_ error: PlayerError) {
        errorCounts[error.kind, default: 0] += 1
        logger.debug("\(error.description)")
    }

    /// Counts `error` and tells the controller (an error event).
    func note(_ error: PlayerError) {
        record(error)
        emit(.error(error))
    }

    /// What an owner decided, or its refusal, noted and thrown.
    func noting<Value>(_ decision: Result<Value, PlayerError>) throws(PlayerError) -> Value {
        switch decision {
        case let .success(value): return value
        case let .failure(error):
            note(error)
            throw error
        }
    }

    /// Everything said so far; the controller has it now.
    package func take() -> [EngineEvent] {
        defer {
            events.removeAll(keepingCapacity: true)
            awaitsController = false
        }
        return events
    }
}
