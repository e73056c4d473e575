import Synchronization

/// Players that share an `ExclusivePlayback(group:)`: when one starts playing, the others pause;
/// of players starting at once, the last to start plays.
///
/// A start used to send the others a `pause` command, applied later on each one's thread: two players
/// starting at once each paused the other, and both ended paused. Now the start is decided here,
/// under one lock (`ExclusivePlaybackTable`), and each player takes its answer on its own thread.
enum ExclusivePlaybackRegistry {
    private struct Member {
        weak var player: ExtVideoPlayer?
    }

    private struct Registry {
        var table = ExclusivePlaybackTable<ObjectIdentifier>()
        /// The players of `table`, to wake; a freed one is dropped at the next `join`.
        var members: [ObjectIdentifier: Member] = [:]
    }

    private static let registry = Mutex(Registry())

    /// Puts `player` in `group` (nil: in none), forgetting a pause asked of it before.
    static func join(_ player: ExtVideoPlayer, group: String?) {
        registry.withLock { state in
            let freed = state.members.filter { $0.value.player == nil }.map { $0.key }
            for id in freed {
                state.table.join(id, group: nil)
                state.members[id] = nil
            }
            let id = ObjectIdentifier(player)
            state.table.join(id, group: group)
            state.members[id] = group == nil ? nil : Member(player: player)
        }
    }

    /// `player` started playing: the rest of its group must pause. They are woken to see it
    /// (`mustPause(_:)`).
    static func claim(by player: ExtVideoPlayer) {
        let others = registry.withLock { state -> [ExtVideoPlayer] in
            let asked = state.table.start(ObjectIdentifier(player))
            return asked.compactMap { state.members[$0]?.player }
        }
        others.forEach { $0.wakeRun() }
    }

    /// Whether `player` must pause because a player of its group started after it; answered once.
    static func mustPause(_ player: ExtVideoPlayer) -> Bool {
        registry.withLock { $0.table.takePause(ObjectIdentifier(player)) }
    }
}

/// Who of an exclusive group must pause: the decision behind `ExclusivePlaybackRegistry`, pure.
///
/// ```swift
/// var table = ExclusivePlaybackTable<String>()
/// table.join("a", group: "lobby"); table.join("b", group: "lobby")
/// table.start("a"); table.start("b")   // at once: neither has paused yet
/// table.takePause("a")                 // true: "b" started last
/// table.takePause("b")                 // false: the pause "a" asked of it was withdrawn
/// ```
struct ExclusivePlaybackTable<Member: Hashable> {
    private var groups: [Member: String] = [:]
    /// Members asked to pause by a later start in their group, not told yet.
    private var pausing: Set<Member> = []

    /// Puts `member` in `group` (nil: in none), forgetting a pause asked of it before.
    mutating func join(_ member: Member, group: String?) {
        groups[member] = group
        pausing.remove(member)
    }

    /// `member` started playing: every other member of its group must pause, and a pause an earlier
    /// start asked of `member` is withdrawn, so that the last of simultaneous starters plays.
    /// Returns the members asked to pause.
    @discardableResult
    mutating func start(_ member: Member) -> [Member] {
        pausing.remove(member)
        guard let group = groups[member] else { return [] }
        let others = groups.filter { $0.value == group && $0.key != member }.map { $0.key }
        pausing.formUnion(others)
        return others
    }

    /// Whether `member` must pause; true once per request.
    mutating func takePause(_ member: Member) -> Bool {
        pausing.remove(member) != nil
    }
}
