import Overlay

/// One rasterised overlay of a scene. `revision` changes whenever the image does, so an output
/// uploads a plane's pixels only when its revision moved (and keeps the texture otherwise).
struct OverlayPlane: Sendable {
    /// Which overlay this is; the same layer keeps its texture from scene to scene.
    enum Layer: Hashable, Sendable {
        case vector(Int)
        /// Another player's scene (`PlayerInset`), by the inset's place in the stack.
        case inset(Int)
        case subtitles
        case error
    }

    let layer: Layer
    let revision: Int
    let image: OverlayImage
}

/// What an output shows at one moment: the picture (or black) and the overlay planes above it,
/// bottom to top.
struct Scene: Sendable {
    var frame: VideoFrame?
    var gravity: VideoGravity
    var planes: [OverlayPlane] = []
}

/// Where a player's scenes go: its own window, a host's SDL renderer, memory (headless), or a frame
/// callback. One output lives as long as the player's run, across sources, failed loads and retries.
/// Main thread only (the thread that runs the player).
protocol PlayerOutput: AnyObject {
    /// The player area in output pixels; nil while unknown (an embedded output before its first draw).
    var area: PixelSize? { get }
    /// Output pixels per point (96 dpi = 1), for text sizes.
    var scale: Double { get }
    /// How the run loop sleeps and which input reaches it.
    var waiter: MainLoopWaiter { get }
    /// Shows `scene` now.
    func present(_ scene: Scene)
    /// A source with this stream is about to play (a window takes its size, the path its rotation needs).
    func prepare(for info: VideoStreamInfo, title: String)
    /// The user's fullscreen key.
    func toggleFullscreen()
    /// The window system resized the window (only windows have one).
    func windowResized(to size: PixelSize)
    /// The pixels worth fetching a picture for (the HLS variant choice never goes far beyond them);
    /// nil: no limit. Not the area when the area follows the picture's own size.
    var variantLimit: PixelSize? { get }
    /// Releases what it holds; nothing is drawn afterwards. Idempotent.
    func close()
    /// Opens the picture-in-picture window: a second view of the scenes this output presents. Only
    /// a window can; the others throw `notSupportedPiP`.
    func openPictureInPicture(_ placement: PictureInPicture) throws(PlayerError)
    /// Closes it; false if none was open.
    func closePictureInPicture() -> Bool
    var showsPictureInPicture: Bool { get }
}

extension PlayerOutput {
    func windowResized(to size: PixelSize) {}
    var variantLimit: PixelSize? { area }
    func openPictureInPicture(_ placement: PictureInPicture) throws(PlayerError) {
        throw .notSupportedPiP(reason: "the player has no window (headless, frames-only or embedded)")
    }
    func closePictureInPicture() -> Bool { false }
    var showsPictureInPicture: Bool { false }
}

/// A size in whole pixels.
public struct PixelSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Width in pixels, never negative.
    public var width: Int
    /// Height in pixels, never negative.
    public var height: Int

    /// A size; negative values become 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// `<width>x<height>`, e.g. `1920x1080`.
    public var description: String { "\(width)x\(height)" }

    /// `WxH` (`1280x720`, any case of x), each side 1…`maximum`; nil otherwise.
    package init?(parsing text: String, maximum: Int = 16384) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...maximum).contains(width), (1...maximum).contains(height) else { return nil }
        self.init(width: width, height: height)
    }
}
