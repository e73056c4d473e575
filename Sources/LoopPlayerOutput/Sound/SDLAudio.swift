import CSDL
import Foundation
import Synchronization
import LoopPlayerCore
import LoopPlayerMedia

/// SDL's audio subsystem, initialised on the engine's thread before a device is opened elsewhere.
package enum SDLAudio {
    private struct State {
        var driver: String?
        /// Devices open now, any player's. The subsystem restarts for another driver only when none
        /// is: a player asking for another driver must not close the devices other players in the
        /// process play through.
        var openDevices = 0
    }

    private static let state = Mutex(State())

    /// Starts SDL audio with `requested` (nil: `SDL_AUDIODRIVER` or SDL's own choice). A different
    /// driver than the running one restarts the subsystem when no device is open (tests switch to
    /// `disk`); with devices open it throws `audioUnavailable`. Returns the
    /// driver's name, or throws `audioUnavailable` with SDL's reason.
    package static func start(driver requested: String?) throws(PlayerError) -> String {
        try state.withLock { state throws(PlayerError) in try start(requested, &state) }
    }

    private static func start(_ requested: String?, _ state: inout State) throws(PlayerError) -> String {
        if let driver = state.driver, requested == nil || requested == driver { return driver }
        if let running = state.driver {
            guard state.openDevices == 0 else {
                throw .audioUnavailable(reason: "another player in this process plays through SDL's '\(running)' driver"
                                        + " (one audio driver at a time)")
            }
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            state.driver = nil
        }
        // Over SDL_AUDIODRIVER too: an explicit choice wins over the environment.
        SDLProcessSettings.apply  // the host keeps its signals even when sound starts before any window
        ALSALogBridge.install
        if let requested { SDL_SetHintWithPriority(SDL_HINT_AUDIODRIVER, requested, SDL_HINT_OVERRIDE) }
        // The disk driver sleeps a whole number of milliseconds per buffer (up to 5 % slow); the
        // output keeps its time instead (see `SoundOutput`). A user's own setting stays.
        setenv("SDL_DISKAUDIODELAY", "0", 0)
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0, let name = SDL_GetCurrentAudioDriver() else {
            let reason = String(cString: SDL_GetError())
            if requested != nil { SDL_ResetHint(SDL_HINT_AUDIODRIVER) }  // a bad name must not stick
            throw .audioUnavailable(reason: reason)
        }
        let started = String(cString: name)
        state.driver = started
        return started
    }

    /// Opens a device (`open` calls `SDL_OpenAudioDevice`) if `expected` is still the running
    /// driver, and counts it, in one step: another player cannot restart the subsystem between the
    /// check and the open (the engine starts the driver; the sound stage opens the device later, on
    /// its own thread). `deviceClosed()` when it is closed.
    package static func openDevice(driver expected: String, _ open: () -> SDL_AudioDeviceID) throws(PlayerError) -> SDL_AudioDeviceID {
        try state.withLock { state throws(PlayerError) in try openDevice(expected, open, &state) }
    }

    private static func openDevice(_ expected: String, _ open: () -> SDL_AudioDeviceID,
                                   _ state: inout State) throws(PlayerError) -> SDL_AudioDeviceID {
        guard state.driver == expected else {
            let running = state.driver ?? "none"
            throw .audioUnavailable(reason: "SDL's audio driver changed to '\(running)' before the '\(expected)' device opened")
        }
        let id = open()
        guard id != 0 else { throw .audioUnavailable(reason: String(cString: SDL_GetError())) }
        state.openDevices += 1
        return id
    }

    package static func deviceClosed() {
        state.withLock { $0.openDevices -= 1 }
    }

    /// Closes are under way longer than `closeLimit`: a process ending now must end with `_exit`
    /// (stdio's cleanup at `exit` would wait for the same blocked write).
    package static var hasStuckClose: Bool { stuckCloses.load(ordering: .acquiring) > 0 }
    private static let stuckCloses = Atomic<Int>(0)

    /// How long a close may join SDL's audio thread before the caller goes on without it.
    package static let closeLimit = 2.0

    /// Closes `id` (SDL joins its audio thread), waiting at most `closeLimit`: a driver blocked in a
    /// write — the disk driver into a FIFO whose reader stopped reading — would hold the caller, and
    /// a stop, forever. `owner`, whose callback the device calls, is kept alive until SDL has closed
    /// it, however long that takes. Returns false if the caller went on without it.
    @discardableResult
    package static func close(_ id: SDL_AudioDeviceID, owner: AnyObject & Sendable) -> Bool {
        let done = AbortFlag()
        Thread.detachNewThread {
            withExtendedLifetime(owner) {
                SDL_CloseAudioDevice(id)
                deviceClosed()
            }
            done.raise()
        }
        guard done.sleep(until: MonotonicCondition.now + closeLimit) else { return true }
        stuckCloses.add(1, ordering: .releasing)
        logger.warning("the sound device did not close in \(closeLimit) s (its driver is blocked writing): going on without it")
        return false
    }

    /// How a driver's callbacks relate to real time.
    package enum Timing {
        /// Called as the hardware consumes: its time is the master clock.
        case hardware
        /// `disk`: writes a file and, with `SDL_DISKAUDIODELAY=0`, does not wait at all; the
        /// callback waits for an exact schedule, so the file is written in real time and its time
        /// is still a clock (tests measure the sound this way).
        case pacedByCallback
        /// `dummy`: plays nothing and sleeps whole milliseconds, so it is no clock at all; the
        /// picture's clock leads and the callback keeps the sound in step by skipping.
        case none
    }

    package static func timing(of driver: String) -> Timing {
        switch driver {
        case "disk": .pacedByCallback
        case "dummy": .none
        default: .hardware
        }
    }
}
