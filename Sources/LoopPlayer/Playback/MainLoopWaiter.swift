import CSDL
import Foundation

/// How the main loop sleeps until a deadline or a wakeup from a pipeline thread.
protocol MainLoopWaiter: AnyObject {
    /// Callable from any thread.
    var wake: @Sendable () -> Void { get }
    /// Sleeps until `deadline` (monotonic seconds; nil = until woken) and returns the input received.
    func wait(until deadline: Double?, clock: PlaybackClock) -> [InputAction]
    /// Returns pending input without sleeping.
    func poll() -> [InputAction]
}

/// Sub-millisecond sleeps: the event waits have millisecond granularity, so the last stretch
/// before a frame is due is slept precisely.
private let fineSleepWindow = 0.002

func sleepPrecisely(until deadline: Double, clock: PlaybackClock) {
    let remaining = deadline - clock.now
    guard remaining > 0 else { return }
    var spec = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Double(Int(remaining))) * 1e9))
    nanosleep(&spec, nil)
}

/// Waits on a condition variable (headless modes, no SDL events).
final class ConditionWaiter: MainLoopWaiter {
    private let signal = WakeSignal()

    var wake: @Sendable () -> Void {
        let signal = self.signal
        return { signal.raise() }
    }

    func wait(until deadline: Double?, clock: PlaybackClock) -> [InputAction] {
        if let deadline {
            let remaining = deadline - clock.now
            if remaining > fineSleepWindow {
                signal.wait(timeout: remaining - fineSleepWindow)
            } else {
                sleepPrecisely(until: deadline, clock: clock)
            }
        } else {
            signal.wait(timeout: nil)
        }
        return []
    }

    func poll() -> [InputAction] { [] }
}

/// A flag with a condition: `raise` from any thread, `wait` consumes it.
final class WakeSignal: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var raised = false

    func raise() {
        condition.withLock {
            raised = true
            condition.signal()
        }
    }

    func wait(timeout: Double?) {
        condition.withLock {
            if !raised {
                if let timeout {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: timeout))
                } else {
                    condition.wait()
                }
            }
            raised = false
        }
    }
}

/// Waits in SDL's event queue; pipeline threads wake it with a user event.
final class SDLEventWaiter: MainLoopWaiter {
    let wake: @Sendable () -> Void = SDLVideo.waker

    func wait(until deadline: Double?, clock: PlaybackClock) -> [InputAction] {
        var event = SDL_Event()
        var got: Int32
        if let deadline {
            let remaining = deadline - clock.now
            guard remaining > fineSleepWindow else {
                sleepPrecisely(until: deadline, clock: clock)
                return poll()
            }
            got = SDL_WaitEventTimeout(&event, Int32(((remaining - fineSleepWindow) * 1000).rounded(.down)))
        } else {
            got = SDL_WaitEventTimeout(&event, 500)
        }
        var actions: [InputAction] = []
        if got != 0, let action = InputAction(event) { actions.append(action) }
        return actions + poll()
    }

    func poll() -> [InputAction] {
        var event = SDL_Event()
        var actions: [InputAction] = []
        while SDL_PollEvent(&event) != 0 {
            if let action = InputAction(event) { actions.append(action) }
        }
        return actions
    }
}

/// The host application runs the loop (embedding): nothing here ever sleeps; pipeline threads wake
/// the host's SDL event wait with our user event.
final class HostLoopWaiter: MainLoopWaiter {
    let wake: @Sendable () -> Void = SDLVideo.waker
    func wait(until deadline: Double?, clock: PlaybackClock) -> [InputAction] { [] }
    func poll() -> [InputAction] { [] }
}
