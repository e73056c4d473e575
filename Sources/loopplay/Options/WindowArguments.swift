import ArgumentParser
import Foundation
import LoopPlayer

/// The window: its size, title, fullscreen, picture-in-picture, and how it draws; or none.
struct WindowArguments: ParsableArguments {
    @Flag(help: "Start in fullscreen.")
    var fullscreen = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Initial window size, WxH (sides 1…16384).", valueName: "WxH"))
    var windowSize: String?

    @Option(help: "Window title (default: the source's file name).")
    var title: String?

    @Flag(help: "Open the picture-in-picture mini window too: borderless, on top, in the screen's bottom-right corner, draggable.")
    var pip = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Size of the --pip window, WxH (default 320 wide, the picture's shape).", valueName: "WxH"))
    var pipSize: String?

    @Option(help: ArgumentHelp("Window video output: \(VideoOutputKind.allCases.map(\.rawValue).joined(separator: ", ")).",
                               valueName: "kind"))
    var videoOutput: VideoOutputKind = .automatic

    @Flag(help: "No window: decode and present offscreen.")
    var headless = false

    static let windowSides = 1...16384

    func validate() throws {
        _ = try WindowSize.parse(windowSize, flag: "--window-size", range: Self.windowSides)
        _ = try pictureInPicture()
    }

    var options: WindowOptions {
        let size = (try? WindowSize.parse(windowSize, flag: "--window-size", range: Self.windowSides)) ?? nil  // validated
        var options = WindowOptions(title: title, size: size.map { ($0.width, $0.height) }, fullscreen: fullscreen,
                                    output: videoOutput, inputMap: .mpv,
                                    snapshotPath: { "loopplay-\(Int(Date().timeIntervalSince1970 * 1000)).png" })
        options.titleForSource = { "\($0) — loopplay" }
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
