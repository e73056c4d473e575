import CSDL

/// What a player can be asked to do from its window. The engine knows actions, not keys: which key
/// does what is the host's `InputMap` (loopplay uses mpv's bindings).
public enum PlayerAction: Sendable, Equatable {
    case togglePause
    case seek(by: Double)
    case toggleLoop
    case toggleFullscreen
    /// Writes the frame on screen as PNG (to `WindowOptions.snapshotPath()`).
    case snapshot
    case quit
    case adjustContrast(Float)
    case adjustBrightness(Float)
    case clearFilters
    case toggleMute
    case adjustVolume(Float)
    case scaleSpeed(Double)
    case resetSpeed
    /// The next audio track; after the last one none, then the first again (mpv's `#`).
    case cycleAudioTrack
    /// The next subtitle track; after the last one none (mpv's `j`).
    case cycleSubtitles
    /// Shows or hides the subtitles (mpv's `v`).
    case toggleSubtitles
    /// A playlist's next or previous item (mpv's `>` and `<`).
    case nextItem
    case previousItem
}

/// A key as SDL names it (`SDL_Keycode`), with or without shift.
public struct KeyPress: Sendable, Hashable {
    public var key: Int32
    public var shift: Bool

    public init(key: Int32, shift: Bool = false) {
        self.key = key
        self.shift = shift
    }

    /// A printable key, e.g. `KeyPress("f", shift: true)`.
    public init(_ character: Character, shift: Bool = false) {
        self.init(key: Int32(character.unicodeScalars.first?.value ?? 0), shift: shift)
    }
}

/// Which key does what in a player's window. Replace it in `WindowOptions.inputMap`.
///
/// ```swift
/// var keys = InputMap.mpv
/// keys.bindings[KeyPress("x")] = .quit
/// ```
public struct InputMap: Sendable, Equatable {
    public var bindings: [KeyPress: PlayerAction]

    public init(bindings: [KeyPress: PlayerAction] = [:]) { self.bindings = bindings }

    /// No keys (closing the window still quits).
    public static let none = InputMap()

    /// mpv's default bindings for what the player can do: space/p pause, ←/→ seek ∓5 s, ↑/↓ ±60 s,
    /// L loop, f fullscreen, s snapshot, q/Esc quit, 1/2 contrast, 3/4 brightness, F clear filters,
    /// m mute, 9/0 volume, [/] speed ÷/× 1.1, backspace speed 1, # next audio track, j next subtitle
    /// track, v subtitles on/off, >/< next/previous playlist item.
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
