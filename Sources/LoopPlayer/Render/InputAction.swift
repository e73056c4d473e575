import CSDL

/// What a key or window event asks of the player (mpv's default bindings).
enum InputAction: Equatable {
    case togglePause
    case seekRelative(Double)
    case toggleLoop
    case toggleFullscreen
    case snapshot
    case quit
    case redraw
    case adjustContrast(Float)
    case adjustBrightness(Float)
    case clearFilters
    case toggleMute
    case adjustVolume(Float)
    case scaleSpeed(Double)
    case resetSpeed
    case cycleAudioTrack

    /// Maps an SDL event to an action, if it is one we handle.
    init?(_ event: SDL_Event) {
        switch event.type {
        case SDL_QUIT.rawValue:
            self = .quit
        case SDL_WINDOWEVENT.rawValue:
            let kind = SDL_WindowEventID(UInt32(event.window.event))
            guard kind == SDL_WINDOWEVENT_EXPOSED || kind == SDL_WINDOWEVENT_SIZE_CHANGED else { return nil }
            self = .redraw
        case SDL_KEYDOWN.rawValue:
            let shifted = event.key.keysym.mod & UInt16(KMOD_SHIFT.rawValue) != 0
            switch Int(event.key.keysym.sym) {
            case Int(SDLK_SPACE.rawValue), Int(SDLK_p.rawValue): self = .togglePause
            case Int(SDLK_LEFT.rawValue): self = .seekRelative(-5)
            case Int(SDLK_RIGHT.rawValue): self = .seekRelative(5)
            case Int(SDLK_UP.rawValue): self = .seekRelative(60)
            case Int(SDLK_DOWN.rawValue): self = .seekRelative(-60)
            case Int(SDLK_l.rawValue): self = .toggleLoop
            case Int(SDLK_f.rawValue) where !shifted: self = .toggleFullscreen
            case Int(SDLK_s.rawValue): self = .snapshot
            case Int(SDLK_q.rawValue), Int(SDLK_ESCAPE.rawValue): self = .quit
            case Int(SDLK_1.rawValue): self = .adjustContrast(-0.1)
            case Int(SDLK_2.rawValue): self = .adjustContrast(0.1)
            // `#` is shift+3 on most layouts; SDL reports the unshifted key.
            case Int(SDLK_HASH.rawValue): self = .cycleAudioTrack
            case Int(SDLK_3.rawValue) where shifted: self = .cycleAudioTrack
            case Int(SDLK_3.rawValue): self = .adjustBrightness(-0.05)
            case Int(SDLK_4.rawValue): self = .adjustBrightness(0.05)
            case Int(SDLK_f.rawValue) where shifted: self = .clearFilters
            case Int(SDLK_m.rawValue): self = .toggleMute
            case Int(SDLK_9.rawValue): self = .adjustVolume(-0.02)
            case Int(SDLK_0.rawValue): self = .adjustVolume(0.02)
            // mpv's steps: ×1.1 and ÷1.1.
            case Int(SDLK_LEFTBRACKET.rawValue): self = .scaleSpeed(1 / 1.1)
            case Int(SDLK_RIGHTBRACKET.rawValue): self = .scaleSpeed(1.1)
            case Int(SDLK_BACKSPACE.rawValue): self = .resetSpeed
            default: return nil
            }
        default:
            return nil
        }
    }
}
