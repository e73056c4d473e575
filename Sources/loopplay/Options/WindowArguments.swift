import ArgumentParser
import Foundation
import LoopPlayer

/// The window: its size, title, fullscreen, picture-in-picture, and how it draws; or none.
struct WindowArguments: ParsableArguments {
    @Flag(name: [.customLong("fullscreen"), .customLong("fs")], help: "Start in fullscreen (mpv's --fs works too).")
    var fullscreen = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Initial window size, WxH (sides 1…16384).", valueName: "WxH"))
    var windowSize: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The window's size and place on the screen, as mpv's --geometry: WxH+X+Y, WxH or +X+Y (pixels; X and Y from the screen's top-left corner).",
                               valueName: "geometry"))
    var geometry: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The display the window opens on, 0 the first (mpv's --screen): --geometry counts from its top-left corner.",
                               valueName: "0-31"))
    var screen: Int?

    @Option(name: .customLong("fs-screen"), parsing: .unconditional,
            help: ArgumentHelp("The display fullscreen fills (mpv's --fs-screen; default: --screen's).", valueName: "0-31"))
    var fullscreenScreen: Int?

    @Option(parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A wall fed by one decoder: a borderless window showing the part WxH+X+Y of the picture (its pixels), "
                               + "at @+X+Y or @WxH+X+Y on the screen (default: the part's own place and size). Repeat for each "
                               + "panel (at most \(Self.mostPanels)); the player's own window stays hidden.",
                               valueName: "part[@place]"))
    var panel: [String] = []

    @Flag(name: .customLong("no-border"), help: "No title bar or frame (a kiosk, a wall's panel).")
    var borderless = false

    @Option(help: "Window title (default: the source's file name).")
    var title: String?

    @Flag(help: "Open the picture-in-picture mini window too: borderless, on top, in the screen's bottom-right corner, draggable.")
    var pip = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Size of the --pip window, WxH (default 320 wide, the picture's shape).", valueName: "WxH"))
    var pipSize: String?

    @Option(help: ArgumentHelp("How pictures reach the window: a GPU's textures, or swscale into its surface without one.",
                               valueName: "kind"))
    var videoOutput: VideoOutputKind = .automatic

    @Flag(help: "No window: decode and present offscreen.")
    var headless = false

    @Flag(help: "Without a display, fail (exit 70) instead of playing headless: for a service, which systemd restarts until the display is there.")
    var requireDisplay = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Messages over the picture, as mpv's: 0 none (but a show-text of level 0), 1 what a key "
                               + "did and show-text, 2 and 3 for show-text at those levels.", valueName: "0-3"))
    var osdLevel = 1

    @Option(parsing: .unconditional,
            help: ArgumentHelp("How long a message stays before it fades, in milliseconds (at most 3600000).",
                               valueName: "ms"))
    var osdDuration = 1000

    static let windowSides = 1...16384
    static let mostPanels = 64

    /// `--panel PART[@PLACE]`: the part is a full WxH+X+Y, the place a --geometry without `WxH`'s need.
    static func parsePanel(_ text: String) -> WindowPanel? {
        let halves = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let part = WindowGeometry(parsing: halves[0], sides: windowSides), let size = part.size, let at = part.position
        else { return nil }
        let rect = Rect(x: Double(at.x), y: Double(at.y), width: Double(size.width), height: Double(size.height))
        guard halves.count == 2 else { return WindowPanel(part: rect) }
        guard let place = WindowGeometry(parsing: halves[1], sides: windowSides), let placeAt = place.position else { return nil }
        let placedSize = place.size ?? size
        return WindowPanel(part: rect, window: Rect(x: Double(placeAt.x), y: Double(placeAt.y),
                                                    width: Double(placedSize.width), height: Double(placedSize.height)))
    }

    func validate() throws {
        _ = try WindowSize.parse(windowSize, flag: "--window-size", range: Self.windowSides)
        if let geometry {
            guard let parsed = WindowGeometry(parsing: geometry, sides: Self.windowSides) else {
                throw ValidationError("invalid --geometry '\(geometry)': expected WxH+X+Y, WxH or +X+Y (sides \(Self.windowSides.lowerBound)…\(Self.windowSides.upperBound) px, places 0…\(WindowGeometry.places.upperBound))")
            }
            if parsed.size != nil, windowSize != nil { throw ValidationError("--geometry and --window-size both give the size: use one") }
        }
        _ = try pictureInPicture()
        if panel.count > Self.mostPanels { throw ValidationError("--panel was given \(panel.count) times: at most \(Self.mostPanels) panels") }
        for text in panel where Self.parsePanel(text) == nil {
            throw ValidationError("invalid --panel '\(text)': expected WxH+X+Y (the part of the picture), then @+X+Y or @WxH+X+Y (where its window goes)")
        }
        if requireDisplay, headless { throw ValidationError("--require-display asks for a window: not with --headless") }
        if !panel.isEmpty, pip || fullscreen || headless {
            throw ValidationError("--panel shows the picture in panel windows: not with \(pip ? "--pip" : fullscreen ? "--fullscreen" : "--headless")")
        }
        for (flag, value) in [("--screen", screen), ("--fs-screen", fullscreenScreen)] {
            if let value, !WindowOptions.screens.contains(value) {
                throw ValidationError("\(flag) \(value) is out of range: \(WindowOptions.screens.lowerBound) to \(WindowOptions.screens.upperBound)")
            }
        }
        guard WindowOptions.osdLevels.contains(osdLevel) else {
            throw ValidationError("--osd-level \(osdLevel) is out of range: 0 to 3")
        }
        guard (0...Int(WindowOptions.osdDurations.upperBound * 1000)).contains(osdDuration) else {
            throw ValidationError("--osd-duration \(osdDuration) is out of range: 0 to \(Int(WindowOptions.osdDurations.upperBound * 1000)) ms")
        }
    }

    var options: WindowOptions {
        let placed = geometry.flatMap { WindowGeometry(parsing: $0, sides: Self.windowSides) }  // validated
        let size = placed?.size ?? ((try? WindowSize.parse(windowSize, flag: "--window-size", range: Self.windowSides)) ?? nil)
        var options = WindowOptions(title: title, size: size.map { ($0.width, $0.height) },
                                    position: placed?.position.map { ($0.x, $0.y) }, fullscreen: fullscreen,
                                    output: videoOutput, inputMap: .mpv,
                                    snapshotPath: { "loopplay-\(Int(Date().timeIntervalSince1970 * 1000)).png" })
        options.titleForSource = { "\($0) — loopplay" }
        options.borderless = borderless
        options.screen = screen
        options.panels = panel.compactMap(Self.parsePanel)  // validated
        options.fullscreenScreen = fullscreenScreen
        options.osdLevel = osdLevel
        options.osdDuration = Double(osdDuration) / 1000
        return options
    }

    /// The `PictureInPicture` setting `--pip` or `--pip-size` asks for.
    func pictureInPicture() throws -> PictureInPicture? {
        guard pip || pipSize != nil else { return nil }
        let size = try WindowSize.parse(pipSize, flag: "--pip-size", range: PictureInPicture.validSide)
        return PictureInPicture(width: size?.width ?? PictureInPicture.defaultWidth, height: size?.height)
    }
}

extension VideoOutputKind: ExpressibleByArgument {}
