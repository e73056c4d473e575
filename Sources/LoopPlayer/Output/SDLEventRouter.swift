import CSDL
import Synchronization

/// SDL has one event queue per process. It is read here (on the main thread) and each event goes to
/// the inbox of the window it concerns, or of the output whose wake event it is, so several outputs
/// in one process never take each other's input. Events for no window (SDL_QUIT) go to every inbox.
final class SDLEventRouter: Sendable {
    static let shared = SDLEventRouter()

    private struct Routes {
        /// Window id → events waiting for it.
        var inboxes: [UInt32: [SDL_Event]] = [:]
        /// Registered wake event type → window id.
        var wakeTypes: [UInt32: UInt32] = [:]
    }

    private let routes = Mutex(Routes())

    func register(window: UInt32, wakeType: UInt32) {
        routes.withLock {
            $0.inboxes[window] = $0.inboxes[window] ?? []
            $0.wakeTypes[wakeType] = window
        }
    }

    func unregister(window: UInt32) {
        routes.withLock { routes in
            routes.inboxes[window] = nil
            routes.wakeTypes = routes.wakeTypes.filter { $0.value != window }
        }
    }

    /// Files every queued SDL event, then hands over (and forgets) those of `window`.
    func take(for window: UInt32) -> [SDL_Event] {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 { file(event) }
        return routes.withLock { routes in
            defer { routes.inboxes[window] = [] }
            return routes.inboxes[window] ?? []
        }
    }

    /// Sleeps in SDL's queue until an event arrives or `timeoutMs` passes (nil: no limit), then
    /// returns `window`'s events (possibly none: the event was another window's).
    func wait(for window: UInt32, timeoutMs: Int32?) -> [SDL_Event] {
        let pending = routes.withLock { !($0.inboxes[window]?.isEmpty ?? true) }
        if !pending {
            var event = SDL_Event()
            let got = timeoutMs.map { SDL_WaitEventTimeout(&event, max(0, $0)) } ?? SDL_WaitEvent(&event)
            if got != 0 { file(event) }
        }
        return take(for: window)
    }

    private func file(_ event: SDL_Event) {
        routes.withLock { routes in
            if let window = routes.wakeTypes[event.type] {
                routes.inboxes[window, default: []].append(event)
            } else if let window = Self.windowID(of: event) {
                if routes.inboxes[window] != nil { routes.inboxes[window, default: []].append(event) }
            } else if event.type == SDL_QUIT.rawValue {
                for window in routes.inboxes.keys { routes.inboxes[window, default: []].append(event) }
            }
        }
    }

    private static func windowID(of event: SDL_Event) -> UInt32? {
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
