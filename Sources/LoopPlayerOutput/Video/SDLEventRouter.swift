import CSDL
import Synchronization
import LoopPlayerCore

/// SDL has one event queue per process. It is read here (on the main thread) and each event goes to
/// the inbox of the player it concerns — by its window (a player's main window, or a second window it
/// shows, such as picture-in-picture) or by its own wake event — so several players in one process
/// never take each other's input. Events for no window (SDL_QUIT) go to every inbox.
///
/// An inbox is named by its player's main window id.
package final class SDLEventRouter: Sendable {
    package static let shared = SDLEventRouter()

    private struct Routes {
        /// Inbox → events waiting for it.
        var inboxes: [UInt32: [SDL_Event]] = [:]
        /// Window id → the inbox its events go to.
        var windows: [UInt32: UInt32] = [:]
        /// Registered wake event type → inbox.
        var wakeTypes: [UInt32: UInt32] = [:]
    }

    private let routes = Mutex(Routes())

    /// Opens the inbox of a player whose main window is `window`, woken by events of `wakeType`.
    package func register(window: UInt32, wakeType: UInt32) {
        routes.withLock {
            $0.inboxes[window] = $0.inboxes[window] ?? []
            $0.windows[window] = window
            $0.wakeTypes[wakeType] = window
        }
    }

    /// Closes `inbox` and forgets every window and wake event that fed it.
    package func unregister(window inbox: UInt32) {
        routes.withLock { routes in
            routes.inboxes[inbox] = nil
            routes.windows = routes.windows.filter { $0.value != inbox }
            routes.wakeTypes = routes.wakeTypes.filter { $0.value != inbox }
        }
    }

    /// Events of `window` (a player's second window) go to `inbox` from now on.
    package func attach(window: UInt32, to inbox: UInt32) {
        routes.withLock { $0.windows[window] = inbox }
    }

    package func detach(window: UInt32) {
        _ = routes.withLock { $0.windows.removeValue(forKey: window) }
    }

    /// Files every queued SDL event, then hands over (and forgets) those of `inbox`.
    package func take(for inbox: UInt32) -> [SDL_Event] {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 { file(event) }
        return routes.withLock { routes in
            defer { routes.inboxes[inbox] = [] }
            return routes.inboxes[inbox] ?? []
        }
    }

    /// Sleeps until an event arrives or `deadline` (monotonic seconds; nil: no limit), unless `inbox`
    /// already holds events, then returns them (possibly none: the event was another player's).
    package func wait(for inbox: UInt32, until deadline: Double?) -> [SDL_Event] {
        waitForAny(of: [inbox], until: deadline)
        return take(for: inbox)
    }

    /// One wait for several players (`PlayerGroup`): sleeps until an event arrives or `deadline`,
    /// unless one of `inboxes` already holds events. What arrived is filed; each player takes its own.
    package func waitForAny(of inboxes: [UInt32], until deadline: Double?) {
        let pending = routes.withLock { routes in inboxes.contains { !(routes.inboxes[$0]?.isEmpty ?? true) } }
        guard !pending else { return }
        var event = SDL_Event()
        guard let deadline else {
            if SDL_WaitEvent(&event) != 0 { file(event) }
            return
        }
        // SDL's wait has millisecond granularity: the last stretch before a deadline is slept
        // precisely on the monotonic clock.
        let remaining = deadline - MonotonicCondition.now
        guard remaining > fineSleepWindow else {
            sleep(untilMonotonic: deadline)
            return
        }
        // Past SDL's 24.8 days of milliseconds (a huge --duration): wait for an event, as for none.
        let milliseconds = ((remaining - fineSleepWindow) * 1000).rounded(.down)
        guard milliseconds < Double(Int32.max) else {
            if SDL_WaitEvent(&event) != 0 { file(event) }
            return
        }
        if SDL_WaitEventTimeout(&event, max(0, Int32(milliseconds))) != 0 { file(event) }
    }

    private func file(_ event: SDL_Event) {
        routes.withLock { routes in
            if let inbox = routes.wakeTypes[event.type] {
                routes.inboxes[inbox, default: []].append(event)
            } else if let window = Self.windowID(of: event) {
                if let inbox = routes.windows[window], routes.inboxes[inbox] != nil {
                    routes.inboxes[inbox, default: []].append(event)
                }
            } else if event.type == SDL_QUIT.rawValue {
                for inbox in routes.inboxes.keys { routes.inboxes[inbox, default: []].append(event) }
            }
        }
    }

    package static func windowID(of event: SDL_Event) -> UInt32? {
        switch event.type {
        case SDL_WINDOWEVENT.rawValue: event.window.windowID
        case SDL_KEYDOWN.rawValue, SDL_KEYUP.rawValue: event.key.windowID
        case SDL_TEXTINPUT.rawValue: event.text.windowID
        case SDL_MOUSEMOTION.rawValue: event.motion.windowID
        case SDL_MOUSEBUTTONDOWN.rawValue, SDL_MOUSEBUTTONUP.rawValue: event.button.windowID
        case SDL_MOUSEWHEEL.rawValue: event.wheel.windowID
        default: nil
        }
    }
}
