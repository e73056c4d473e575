import Synchronization

/// Players that share an `ExclusivePlayback(group:)`: when one starts playing, the others pause.
enum ExclusivePlaybackRegistry {
    private struct Member {
        weak var player: ExtVideoPlayer?
        let group: String
    }

    private static let members = Mutex<[ObjectIdentifier: Member]>([:])

    static func join(_ player: ExtVideoPlayer, group: String?) {
        members.withLock { table in
            table = table.filter { $0.value.player != nil }
            if let group { table[ObjectIdentifier(player)] = Member(player: player, group: group) }
            else { table[ObjectIdentifier(player)] = nil }
        }
    }

    /// `player` started playing: pause the rest of its group.
    static func claim(by player: ExtVideoPlayer) {
        let others = members.withLock { table -> [ExtVideoPlayer] in
            guard let group = table[ObjectIdentifier(player)]?.group else { return [] }
            return table.values.filter { $0.group == group }.compactMap(\.player).filter { $0 !== player }
        }
        others.forEach { $0.send(.pause) }
    }
}
