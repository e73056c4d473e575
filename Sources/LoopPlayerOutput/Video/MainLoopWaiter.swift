import CSDL
import Synchronization
import LoopPlayerCore

/// What a window tells its player.
package enum WindowInput: Equatable {
    case key(KeyPress)
    /// The window's size changed (a resize, fullscreen, or the window manager's doing), as SDL
    /// reports it once the window system did it: what the layout follows.
    case resized(PixelSize)
    /// The window must be drawn again (uncovered).
    case exposed
    /// The user closed the window.
    case close
    /// The user closed the picture-in-picture window.
    case closePictureInPicture
}

/// How the run loop sleeps until a deadline or a wakeup from a pipeline thread.
package protocol MainLoopWaiter: AnyObject {
    /// Callable from any thread.
    var wake: @Sendable () -> Void { get }
    /// Sleeps until `deadline` (monotonic seconds; nil: until woken) and returns the input received.
    func wait(until deadline: Double?) -> [WindowInput]
    /// Returns pending input without sleeping.
    func poll() -> [WindowInput]
}

/// The event waits have millisecond granularity: the last stretch before a frame is due is slept
/// precisely on the monotonic clock.
package let fineSleepWindow = 0.002

/// Waits on a condition (headless modes: no window, no SDL events).
package final class ConditionWaiter: MainLoopWaiter {
    private let signal = WakeSignal()

    package var wake: @Sendable () -> Void {
        let signal = self.signal
        return { signal.raise() }
    }

    package func wait(until deadline: Double?) -> [WindowInput] {
        if let deadline, deadline - MonotonicCondition.now <= fineSleepWindow {
            sleep(untilMonotonic: deadline)
        } else {
            signal.wait(until: deadline.map { $0 - fineSleepWindow } ?? .infinity)
        }
        return []
    }

    package func poll() -> [WindowInput] { [] }
}

/// A flag with a condition: `raise` from any thread, `wait` consumes it.
package final class WakeSignal: Sendable {
    private let condition = MonotonicCondition()
    private let raised = Mutex(false)

    package func raise() {
        condition.withLock {
            raised.withLock { $0 = true }
            condition.broadcast()
        }
    }

    /// Returns at once if raised since the last wait; otherwise sleeps until raised or `deadline`.
    package func wait(until deadline: Double) {
        condition.withLock {
            if !raised.withLock({ $0 }) { condition.wait(until: deadline) }
            raised.withLock { $0 = false }
        }
    }
}

/// Waits in SDL's event queue for one player's events (its windows' and its wakeups); pipeline
/// threads wake it with the output's own user event.
package final class SDLWindowWaiter: MainLoopWaiter {
    /// The player's inbox in `SDLEventRouter`: its main window's id.
    package let inbox: UInt32
    /// A wall's panel windows: they stand for the main window (closing one closes the player).
    package var panels: Set<UInt32> = []
    package let wake: @Sendable () -> Void

    package init(window: UInt32, wakeType: UInt32) {
        inbox = window
        wake = {
            var event = SDL_Event()
            event.type = wakeType
            event.user.windowID = window
            SDL_PushEvent(&event)
        }
        SDLEventRouter.shared.register(window: window, wakeType: wakeType)
    }

    deinit { close() }

    /// Stops filing events for this player (its window is gone). Idempotent.
    package func close() { SDLEventRouter.shared.unregister(window: inbox) }

    package func wait(until deadline: Double?) -> [WindowInput] { inputs(SDLEventRouter.shared.wait(for: inbox, until: deadline)) }

    package func poll() -> [WindowInput] { inputs(SDLEventRouter.shared.take(for: inbox)) }

    private func inputs(_ events: [SDL_Event]) -> [WindowInput] {
        events.compactMap { WindowInput($0, mainWindow: inbox, panels: panels) }
    }
}

/// The host runs the loop (embedding): nothing here sleeps; pipeline threads wake the host's own
/// SDL event wait with the output's user event.
package final class HostLoopWaiter: MainLoopWaiter {
    package let wake: @Sendable () -> Void

    package init(wakeType: UInt32) {
        wake = {
            var event = SDL_Event()
            event.type = wakeType
            SDL_PushEvent(&event)
        }
    }

    package func wait(until deadline: Double?) -> [WindowInput] { [] }
    package func poll() -> [WindowInput] { [] }
}

extension WindowInput {
    /// The input an event of a player's windows means: its main window's, or another of its windows'
    /// (picture-in-picture: closing it closes only it; keys act on the player as in the main window;
    /// closing a wall's panel closes the player).
    package init?(_ event: SDL_Event, mainWindow: UInt32, panels: Set<UInt32> = []) {
        if let window = SDLEventRouter.windowID(of: event), window != mainWindow, event.type == SDL_WINDOWEVENT.rawValue {
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_CLOSE: self = panels.contains(window) ? .close : .closePictureInPicture
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_EXPOSED: self = .exposed
            default: return nil
            }
            return
        }
        self.init(event)
    }

    /// The input an SDL event means, if any.
    package init?(_ event: SDL_Event) {
        switch event.type {
        case SDL_QUIT.rawValue:
            self = .close
        case SDL_WINDOWEVENT.rawValue:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_CLOSE: self = .close
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                self = .resized(PixelSize(width: Int(event.window.data1), height: Int(event.window.data2)))
            case SDL_WINDOWEVENT_EXPOSED: self = .exposed
            default: return nil
            }
        case SDL_KEYDOWN.rawValue:
            let modifiers = event.key.keysym.mod
            self = .key(KeyPress(key: event.key.keysym.sym, shift: modifiers & UInt16(KMOD_SHIFT.rawValue) != 0))
        default:
            return nil
        }
    }
}
