import Foundation
import LoopPlayerCore

/// How the player's own window looks and reacts. The window opens when the player starts running
/// (before its source opens) and stays open across sources and failures.
public struct WindowOptions: Sendable, Equatable {
    /// The window's title; nil: the source's file name.
    public var title: String?
    /// Initial size; nil: 640×360 until the first source opens, then its display size (shrunk to fit
    /// the screen). A window the user resized keeps its size.
    public var size: (width: Int, height: Int)?
    /// Where the window's top-left corner goes on the screen; nil: the screen's top-left corner.
    /// (A window manager may place it elsewhere.) Several players' windows need their own places.
    public var position: (x: Int, y: Int)?
    /// Opens the window fullscreen on its display (the desktop's resolution, no mode change).
    public var fullscreen: Bool
    /// `screen`: the display the window opens on (0: the first, mpv's `--screen`): `position` counts
    /// from its top-left corner. Nil, or a display that is not there (said in the log): the first.
    /// `fullscreenScreen`: the display fullscreen fills (mpv's `--fs-screen`); nil: `screen`'s.
    public var screen, fullscreenScreen: Int?
    /// The displays accepted (mpv's `--screen` range).
    package static let screens = 0...31
    /// A wall driven by one decoder: each panel a borderless window showing its part of the picture
    /// (and of the overlays). With panels the player's own window stays hidden.
    public var panels: [WindowPanel] = []
    /// How pictures reach the window: GPU textures or the software surface.
    public var output: VideoOutputKind
    /// Which key does what.
    public var inputMap: InputMap
    /// Where the snapshot key writes (asked each time).
    public var snapshotPath: @Sendable () -> String
    /// The title for a source without a fixed `title`, from the source's file name.
    public var titleForSource: @Sendable (String) -> String = { $0 }
    /// Which messages show over the picture (mpv's `--osd-level`): 0 only texts asked for at level
    /// 0, 1 (the default) also what a key did and texts at level 1; up to 3 for texts at higher levels.
    public var osdLevel = 1 {
        didSet { osdLevel = osdLevel.clamped(to: Self.osdLevels) }
    }
    /// How long a message stays before it fades out, in seconds (mpv's `--osd-duration`, 1 s).
    public var osdDuration = WindowOptions.defaultOSDDuration {
        didSet { osdDuration = osdDuration.isFinite ? osdDuration.clamped(to: Self.osdDurations) : Self.defaultOSDDuration }
    }
    /// The OSD levels there are.
    package static let osdLevels = 0...3
    /// The message durations accepted (longer or shorter ones are clamped).
    package static let osdDurations = 0.0...3600.0
    /// A message's duration unless one is chosen.
    public static let defaultOSDDuration = 1.0
    /// No title bar or frame (a wall's panels, a kiosk).
    package var borderless = false

    /// Options for the player's window; each default is the usual choice (mpv's keys, snapshots named by time).
    public init(title: String? = nil, size: (width: Int, height: Int)? = nil, position: (x: Int, y: Int)? = nil,
                fullscreen: Bool = false,
                output: VideoOutputKind = .automatic, inputMap: InputMap = .mpv,
                snapshotPath: @escaping @Sendable () -> String = WindowOptions.timestampedSnapshotPath) {
        self.title = title
        self.size = size
        self.position = position
        self.fullscreen = fullscreen
        self.output = output
        self.inputMap = inputMap
        self.snapshotPath = snapshotPath
    }

    /// `snapshot-<milliseconds since 1970>.png` in the current directory.
    public static let timestampedSnapshotPath: @Sendable () -> String = {
        "snapshot-\(Int(Date().timeIntervalSince1970 * 1000)).png"
    }

    /// Equal when everything but the two closures (`snapshotPath`, `titleForSource`) is equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.title == rhs.title && lhs.size?.width == rhs.size?.width && lhs.size?.height == rhs.size?.height
            && lhs.position?.x == rhs.position?.x && lhs.position?.y == rhs.position?.y
            && lhs.fullscreen == rhs.fullscreen && lhs.output == rhs.output && lhs.inputMap == rhs.inputMap
            && lhs.borderless == rhs.borderless && lhs.osdLevel == rhs.osdLevel && lhs.osdDuration == rhs.osdDuration
            && lhs.screen == rhs.screen && lhs.fullscreenScreen == rhs.fullscreenScreen && lhs.panels == rhs.panels
    }
}

/// One panel of a wall: a part of the picture, shown in a borderless window of its own.
public struct WindowPanel: Sendable, Equatable {
    /// The part of the picture, in the picture's pixels as shown (after the sample aspect ratio).
    public var part: Rect
    /// Where the window goes on its display, and its size; nil: the part's own place and size (one
    /// desktop spanning the wall's monitors).
    public var window: Rect?

    public init(part: Rect, window: Rect? = nil) {
        self.part = part
        self.window = window
    }

    /// The window's place and size.
    package var placement: Rect { window ?? part }
}

/// How decoded pictures reach the window.
public enum VideoOutputKind: String, Sendable, CaseIterable {
    /// GPU textures when a real GPU renderer exists; otherwise the cheaper software path
    /// (swscale into the window surface; see docs/benchmarks.md for the measurement).
    case automatic
    /// SDL renderer with YUV streaming textures (the GPU converts; SDL's software renderer otherwise).
    case texture
    /// libswscale converts and scales straight into the window's surface (CPU only).
    case surface
}
