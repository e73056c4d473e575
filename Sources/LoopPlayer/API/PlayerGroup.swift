/// Several players, each in its own window, driven by one loop on the main thread.
///
/// ```swift
/// let group = PlayerGroup([lobby, entrance, bar], windows: [
///     WindowOptions(title: "Lobby", size: (640, 360), position: (0, 0)),
///     WindowOptions(title: "Entrance", size: (640, 360), position: (650, 0)),
/// ])                                    // a player without options gets `WindowOptions()`
/// group.run()                           // on the main thread; `group.stop()` from any thread
/// ```
/// Each window has its own keys, resize and close: closing one (or its quit key, or `stop()` on its
/// player) ends that player only. `run` returns when every player has ended. Commands, settings and
/// events work as with `run()`; `ExclusivePlayback` groups work across the players.
public struct PlayerGroup: Sendable {
    /// The players, each run in its own window.
    public let players: [ExtVideoPlayer]
    /// The window of each player, by position in `players`.
    public let windows: [WindowOptions]

    /// A group of `players`; `windows[i]` is the window of `players[i]`, `WindowOptions()` where missing.
    public init(_ players: [ExtVideoPlayer], windows: [WindowOptions] = []) {
        self.players = players
        self.windows = windows
    }

    /// Ends every player's run (from any thread, e.g. on SIGTERM).
    public func stop() { players.forEach { $0.stop() } }

    /// Plays every player in its own window until all have ended; returns each one's outcome, in
    /// the order of `players`. A player that cannot start (invalid settings, no display) fails alone.
    /// Call on the main thread.
    @discardableResult
    public func run(timing: ExtVideoPlayer.Timing = .realTime,
                    until stop: StopCondition = .never) -> [RunOutcome] {
        var outcomes = [RunOutcome?](repeating: nil, count: players.count)
        var loop = GroupLoop()
        var seen = Set<ObjectIdentifier>()
        for (index, player) in players.enumerated() {
            guard seen.insert(ObjectIdentifier(player)).inserted else {
                outcomes[index] = .failed(.invalidSetting(name: "PlayerGroup", value: "player \(index)",
                                                          reason: "the same player is in the group twice"))
                continue
            }
            let window = index < windows.count ? windows[index] : WindowOptions()
            do {
                let session = try PlayerSession(player: player, output: .window(window), timing: timing, stop: stop)
                player.session = session
                loop.add(session, index: index)
            } catch {
                outcomes[index] = .failed(error)
            }
        }
        for (index, outcome) in loop.run() { outcomes[index] = outcome }
        return outcomes.map { $0 ?? .finished }
    }
}

extension ExtVideoPlayer {
    /// Plays `players` in a window each, driven by one loop on the main thread, until all have ended
    /// (`PlayerGroup(players, windows:).run(…)`). Returns each player's outcome, in order.
    ///
    /// ```swift
    /// ExtVideoPlayer.runAll([a, b, c], windows: [WindowOptions(title: "A", position: (0, 0)), …])
    /// ```
    @discardableResult
    public static func runAll(_ players: [ExtVideoPlayer], windows: [WindowOptions] = [], timing: Timing = .realTime,
                              until stop: StopCondition = .never) -> [RunOutcome] {
        PlayerGroup(players, windows: windows).run(timing: timing, until: stop)
    }
}

/// The loop of a `PlayerGroup`: one iteration of every running engine, then one wait in SDL's queue
/// until the earliest deadline among them, woken by any of their windows or wake events. Main thread.
private struct GroupLoop {
    private struct Member {
        let index: Int
        let session: PlayerSession
        let inbox: UInt32
    }

    private var members: [Member] = []

    mutating func add(_ session: PlayerSession, index: Int) {
        guard let window = session.engine.output as? WindowOutput else { return }
        members.append(Member(index: index, session: session, inbox: window.inbox))
    }

    /// Runs until every engine has finished; returns (index, outcome) as they finish.
    mutating func run() -> [(Int, RunOutcome)] {
        var finished: [(Int, RunOutcome)] = []
        members.forEach { $0.session.start() }
        while !members.isEmpty {
            var again = false
            var deadline: Double?
            for member in members {
                switch member.session.runOnce() {
                case .again:
                    again = true
                case let .wait(until):
                    if let until { deadline = min(deadline ?? until, until) }
                case let .finished(outcome):
                    member.session.finish()  // closes its window; the others play on
                    finished.append((member.index, outcome))
                    members.removeAll { $0.index == member.index }
                }
            }
            if !again, !members.isEmpty {
                SDLEventRouter.shared.waitForAny(of: members.map(\.inbox), until: deadline)
            }
        }
        return finished
    }
}
