/// Which events a player delivers.
public enum EventSelection: Sendable, Equatable {
    /// No `Events` setting: nothing is delivered (the model's rule).
    case none
    /// Every event.
    case all
    /// The events that match one of these filters.
    case only(Set<PlayerEventFilter>)

    package func admits(_ event: PlayerEvent) -> Bool {
        switch self {
        case .none: false
        case .all: true
        case let .only(filters): filters.contains(event.filter)
        }
    }
}
