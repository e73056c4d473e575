@testable import LoopPlayer

/// Drives an engine in a test as a session would: `tick` before every iteration, `deadline` as the
/// host's wake time, and everything the engine reports kept (and passed to `onEvent`).
final class TestController: EngineController {
    var tick: (() -> Void)?
    var deadline: (() -> Double?)?
    var onEvent: ((EngineEvent) -> Void)?
    private(set) var events: [EngineEvent] = []

    /// The user-facing events among them.
    var playerEvents: [PlayerEvent] {
        events.compactMap { if case let .player(event) = $0 { event } else { nil } }
    }

    func prepareIteration() { tick?() }

    var runContext: RunContext { RunContext(deadline: deadline?()) }

    func handle(_ events: [EngineEvent]) {
        for event in events {
            self.events.append(event)
            onEvent?(event)
        }
    }
}
