import CSDL
import Foundation
import Synchronization
import LoopPlayerCore

/// Settings every SDL subsystem must see before it starts: the library must not take the host's
/// signals (SDL turns SIGINT/SIGTERM into SDL_QUIT unless told not to, whichever subsystem starts first).
package enum SDLProcessSettings {
    package static let apply: Void = {
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
    }()
}

/// SDL's video subsystem, initialised on the main thread when the first window output needs it.
package enum SDLVideo {
    private static let started = Mutex(false)

    /// Initialises SDL video and events. Throws `displayUnavailable` if no display can be opened.
    package static func start() throws(PlayerError) {
        try started.withLock { started throws(PlayerError) in
            guard !started else { return }
            try initialise()
            started = true
        }
    }

    /// Pauses between tries to reach the display. An X server refuses a connection now and then
    /// while other clients connect (Xvfb: about 1 in 10 of rapid connections, EAGAIN or
    /// ECONNRESET), and a kiosk's player may start a moment before its server does.
    private static let retryDelaySeconds = [0.05, 0.1, 0.2, 0.4, 0.8]

    private static func initialise() throws(PlayerError) {
        // Probing X11/Wayland with nothing configured only prints SDL noise before failing.
        guard displayConfigured else { throw .displayUnavailable(reason: "DISPLAY and WAYLAND_DISPLAY are not set") }
        SDLProcessSettings.apply
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // On X11 SDL otherwise backs a window surface with an OpenGL texture, which without a GPU
        // means Mesa's software rasteriser: 3–4× the CPU of a plain shared-memory XPutImage.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        let environment = ProcessInfo.processInfo.environment
        // Only X11 is configured: a failed X connection should not go on to probe Wayland (which
        // prints its own complaint about XDG_RUNTIME_DIR) before the invisible offscreen driver.
        if environment["SDL_VIDEODRIVER"].map({ $0.isEmpty }) ?? true, environment["WAYLAND_DISPLAY"].map({ $0.isEmpty }) ?? true {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
        }
        var delays = retryDelaySeconds[...]
        while let failure = startDriver() {
            guard let delay = delays.popFirst() else { throw .displayUnavailable(reason: failure) }
            Thread.sleep(forTimeInterval: delay)
        }
    }

    /// One try at starting SDL's video: nil once a real display driver runs, otherwise why not.
    private static func startDriver() -> String? {
        guard SDL_InitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
            return "cannot connect to the display \(displayName) (\(String(cString: SDL_GetError())))"
        }
        // Without a display SDL quietly picks its invisible "offscreen" driver; that is only
        // wanted when asked for by name (SDL_VIDEODRIVER=offscreen or dummy, e.g. in tests).
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        let requested = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] ?? ""
        if ["offscreen", "dummy"].contains(driver) && !requested.lowercased().contains(driver) {
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            return "cannot connect to the display \(displayName)"
        }
        return nil
    }

    /// The display the environment names, for messages.
    private static var displayName: String {
        let environment = ProcessInfo.processInfo.environment
        return [environment["WAYLAND_DISPLAY"], environment["DISPLAY"]].compactMap { $0 }.first { !$0.isEmpty } ?? "(none set)"
    }

    /// A user event type of the caller's own: each output wakes its loop with its own, so outputs
    /// in one process never mistake each other's wakeups.
    package static func registerWakeEvent() -> UInt32 { SDL_RegisterEvents(1) }

    /// Whether a display is likely reachable without touching SDL (for a one-line fallback message).
    private static var displayConfigured: Bool {
        let environment = ProcessInfo.processInfo.environment
        if let driver = environment["SDL_VIDEODRIVER"], !driver.isEmpty { return true }
        return environment["DISPLAY"].map { !$0.isEmpty } == true
            || environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true
    }

    /// Whether a GPU device node exists; without one an "accelerated" renderer is software GL.
    package static var hasGPUDevice: Bool {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.contains { $0.hasPrefix("renderD") || $0.hasPrefix("card") }
    }
}
