import CSDL

/// What a player can be asked to do from its window. The engine knows actions, not keys: which key
/// does what is the host's `InputMap` (loopplay uses mpv's bindings).
public enum PlayerAction: Sendable, Equatable {
    /// Pauses a playing player, plays a paused one.
    case togglePause
    /// Seeks this many seconds forward (negative: back) from the current position.
    case seek(by: Double)
    /// Turns looping on or off.
    case toggleLoop
    /// Switches the window between fullscreen and windowed.
    case toggleFullscreen
    /// Writes the frame on screen as PNG (to `WindowOptions.snapshotPath()`).
    case snapshot
    /// Ends the player's run, as closing the window does.
    case quit
    /// Adds this to the contrast (clamped to 0…4).
    case adjustContrast(Float)
    /// Adds this to the brightness (clamped to −1…1).
    case adjustBrightness(Float)
    /// Removes the filter stack; brightness and contrast stay.
    case clearFilters
    /// Mutes or unmutes the sound.
    case toggleMute
    /// Adds this to the volume (clamped to 0…1).
    case adjustVolume(Float)
    /// Multiplies the playback speed by this (rounded to hundredths, clamped to 0…16).
    case scaleSpeed(Double)
    /// Plays at normal speed again.
    case resetSpeed
    /// The next audio track; after the last one none, then the first again (mpv's `#`).
    case cycleAudioTrack
    /// The next subtitle track; after the last one none (mpv's `j`).
    case cycleSubtitles
    /// Shows or hides the subtitles (mpv's `v`).
    case toggleSubtitles
    /// A playlist's next or previous item (mpv's `>` and `<`).
    case nextItem
    /// A playlist's previous item.
    case previousItem
}

/// A key as SDL names it (`SDL_Keycode`), with or without shift.
public struct KeyPress: Sendable, Hashable {
    /// The SDL keycode (`SDL_Keycode`); for printable keys, the unshifted character's code point.
    public var key: Int32
    /// Shift is held with the key.
    public var shift: Bool

    /// The key with this SDL keycode (`SDLK_LEFT`…), with or without shift.
    public init(key: Int32, shift: Bool = false) {
        self.key = key
        self.shift = shift
    }

    /// A printable key, e.g. `KeyPress("f", shift: true)`.
    public init(_ character: Character, shift: Bool = false) {
        self.init(key: Int32(character.unicodeScalars.first?.value ?? 0), shift: shift)
    }

    /// A key by mpv's name (its input.conf's and `keypress`'s): `SPACE`, `LEFT`, `BS`, `ENTER`, `SHARP`,
    /// `PLAY`…, or one character (`L` is shift+l); nil for a name with no key here.
    package init?(mpvName name: String) {
        if let key = Self.namedKeys[name] {
            self.init(key: key)
        } else if name.count == 1, let character = name.first {
            let lower = Character(character.lowercased())
            self.init(lower, shift: character.isUppercase)
        } else {
            return nil
        }
    }

    private static let namedKeys: [String: Int32] = [
        "SPACE": 32, "SHARP": 35, "ENTER": Int32(SDLK_RETURN.rawValue), "BS": Int32(SDLK_BACKSPACE.rawValue),
        "ESC": Int32(SDLK_ESCAPE.rawValue), "LEFT": Int32(SDLK_LEFT.rawValue), "RIGHT": Int32(SDLK_RIGHT.rawValue),
        "UP": Int32(SDLK_UP.rawValue), "DOWN": Int32(SDLK_DOWN.rawValue), "PLAY": Int32(SDLK_AUDIOPLAY.rawValue),
        "PAUSE": Int32(SDLK_AUDIOPLAY.rawValue),  // SDL has one play/pause media key
    ]
}

/// Which key does what in a player's window. Replace it in `WindowOptions.inputMap`.
///
/// ```swift
/// var keys = InputMap.mpv
/// keys.bindings[KeyPress("x")] = .quit
/// ```
public struct InputMap: Sendable, Equatable {
    /// The action of each key press; a press not found here with shift falls back to the key alone.
    public var bindings: [KeyPress: PlayerAction]

    /// A map with exactly these bindings (none by default: use `mpv` for the usual keys).
    public init(bindings: [KeyPress: PlayerAction] = [:]) { self.bindings = bindings }

    /// No keys (closing the window still quits).
    public static let none = InputMap()

    /// mpv's default bindings for what the player can do: space/p pause, ←/→ seek ∓5 s, ↑/↓ ±60 s,
    /// L loop, f fullscreen, s snapshot, q/Esc quit, 1/2 contrast, 3/4 brightness, F clear filters,
    /// m mute, 9/0 and / and * volume, [/] speed ÷/× 1.1, backspace speed 1, # next audio track, j next
    /// subtitle track, v subtitles on/off, >/< and Enter next/previous playlist item, the play media key pause.
    public static let mpv: InputMap = {
        var map: [KeyPress: PlayerAction] = [
            KeyPress(" "): .togglePause, KeyPress("p"): .togglePause,
            KeyPress(key: Int32(SDLK_LEFT.rawValue)): .seek(by: -5), KeyPress(key: Int32(SDLK_RIGHT.rawValue)): .seek(by: 5),
            KeyPress(key: Int32(SDLK_UP.rawValue)): .seek(by: 60), KeyPress(key: Int32(SDLK_DOWN.rawValue)): .seek(by: -60),
            KeyPress("f"): .toggleFullscreen,
            KeyPress("s"): .snapshot, KeyPress("q"): .quit, KeyPress(key: Int32(SDLK_ESCAPE.rawValue)): .quit,
            KeyPress("1"): .adjustContrast(-0.1), KeyPress("2"): .adjustContrast(0.1),
            KeyPress("3"): .adjustBrightness(-0.05), KeyPress("4"): .adjustBrightness(0.05),
            // `#` is shift+3 on most layouts; SDL reports the unshifted key.
            KeyPress("#"): .cycleAudioTrack, KeyPress("3", shift: true): .cycleAudioTrack,
            KeyPress("m"): .toggleMute, KeyPress("9"): .adjustVolume(-0.02), KeyPress("0"): .adjustVolume(0.02),
            KeyPress("/"): .adjustVolume(-0.02), KeyPress("*"): .adjustVolume(0.02),
            KeyPress(key: Int32(SDLK_AUDIOPLAY.rawValue)): .togglePause, KeyPress(key: Int32(SDLK_RETURN.rawValue)): .nextItem,
            // mpv's steps: ×1.1 and ÷1.1.
            KeyPress("["): .scaleSpeed(1 / 1.1), KeyPress("]"): .scaleSpeed(1.1),
            KeyPress(key: Int32(SDLK_BACKSPACE.rawValue)): .resetSpeed,
            KeyPress("j"): .cycleSubtitles, KeyPress("v"): .toggleSubtitles,
            KeyPress(">"): .nextItem, KeyPress("<"): .previousItem,
            // On US layouts `>` and `<` are shift+. and shift+, (SDL reports the unshifted key).
            KeyPress(".", shift: true): .nextItem, KeyPress(",", shift: true): .previousItem,
        ]
        // L (loop) with or without shift, as mpv's `L`; SDL reports the lower-case key.
        map[KeyPress("l")] = .toggleLoop
        map[KeyPress("l", shift: true)] = .toggleLoop
        map[KeyPress("f", shift: true)] = .clearFilters
        return InputMap(bindings: map)
    }()

    /// The action bound to `press`: with its shift state, or else the key alone (shift+space pauses).
    package func action(for press: KeyPress) -> PlayerAction? {
        bindings[press] ?? (press.shift ? bindings[KeyPress(key: press.key)] : nil)
    }
}
