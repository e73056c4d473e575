import CSDL
import Foundation

/// SDL's audio subsystem, initialised on the engine's thread before a device is opened elsewhere.
enum SDLAudio {
    private static let state = NSLock()
    nonisolated(unsafe) private static var driver: String?

    /// Starts SDL audio with `requested` (nil: `SDL_AUDIODRIVER` or SDL's own choice). A different
    /// driver than the running one restarts the subsystem (tests switch to `disk`). Returns the
    /// driver's name, or throws `audioUnavailable` with SDL's reason.
    static func start(driver requested: String?) throws(PlayerError) -> String {
        state.lock()
        defer { state.unlock() }
        if let driver, requested == nil || requested == driver { return driver }
        if driver != nil {
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            driver = nil
        }
        if let requested { SDL_SetHint(SDL_HINT_AUDIODRIVER, requested) }
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0, let name = SDL_GetCurrentAudioDriver() else {
            throw .audioUnavailable(reason: String(cString: SDL_GetError()))
        }
        let started = String(cString: name)
        driver = started
        return started
    }

    /// Drivers that play nothing and pace their callback with a millisecond sleep: the output keeps
    /// their time itself (see `AudioOutput`).
    static func isSimulated(_ driver: String) -> Bool { driver == "dummy" || driver == "disk" }
}
