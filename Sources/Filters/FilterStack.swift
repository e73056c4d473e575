import Synchronization
import LoopPlayerCore

/// The filters applied to every frame, in order, then brightness and contrast.
///
/// Brightness and contrast live outside the list: `removeAll()` keeps them, and they always apply
/// last (libavfilter's `eq`, see `ColorAdjustment` for the pixel math).
package struct FilterStack: Sendable {
    package enum Stage: Sendable {
        case filter(VideoFilter)
        case custom(any PixelFilter)
    }

    package private(set) var stages: [Stage] = []
    /// Brightness and contrast (the `Brightness` and `Contrast` settings).
    package var adjustment = ColorAdjustment()
    /// Unique to this list of stages in the process: it changes whenever `stages` changes, so a
    /// running chain knows when it must be rebuilt (brightness/contrast changes never need that).
    package private(set) var revision = 0

    private static let revisions = Atomic<Int>(0)

    /// A stack of these filters, in order, with brightness 0 and contrast 1.
    package init(_ filters: [VideoFilter] = []) { self.init(filters, adjustment: ColorAdjustment()) }

    package init(_ filters: [VideoFilter] = [], adjustment: ColorAdjustment) {
        stages = filters.map { .filter($0) }
        self.adjustment = adjustment
        if !stages.isEmpty { touch() }
    }

    /// Adds a typed filter on top (it runs after those already there).
    package mutating func append(_ filter: VideoFilter) { stages.append(.filter(filter)); touch() }
    /// Adds a raw libavfilter chain on top.
    package mutating func append(_ filter: FFmpegFilter) { append(filter.filter) }
    /// Adds a filter written in Swift on top.
    package mutating func append(custom filter: any PixelFilter) { stages.append(.custom(filter)); touch() }

    /// Empties the list; brightness and contrast stay.
    package mutating func removeAll() {
        guard !stages.isEmpty else { return }
        stages.removeAll()
        touch()
    }

    private mutating func touch() { revision = Self.revisions.add(1, ordering: .relaxed).newValue }

    package var isIdentity: Bool { stages.isEmpty && adjustment.isIdentity }

    /// The whole stack as one libavfilter chain that does what the player does (nil if it holds Swift
    /// filters): for comparing with `ffmpeg -vf` or mpv's `--vf=lavfi=[…]`. The player itself runs
    /// colour matrices (sepia, `colorMatrix`) on the YUV picture where it can (`YUVColorMixer`).
    package var graphDescription: String? {
        var parts: [String] = []
        for stage in stages {
            guard case let .filter(filter) = stage else { return nil }
            parts.append(filter.graphDescription)
        }
        parts.append(FilterChain.adjustmentGraph(adjustment))
        return parts.joined(separator: ",")
    }

    /// The crop the stack starts with (loopplay's `--crop`): it applies to the decoded picture
    /// itself, so whether it fits is known for every picture. `FilterChain` shows a picture it does
    /// not fit as black (never moved, shrunk or stretched); the engine says so.
    package var leadingCrop: PictureCrop? {
        guard case let .filter(.crop(x, y, width, height))? = stages.first else { return nil }
        return PictureCrop(x: x, y: y, width: width, height: height)
    }

    /// Checks every typed filter's parameters (graphs are checked when built).
    package func validate() throws(FilterError) {
        guard stages.count <= Self.maximumFilters else {
            throw FilterError(filter: "\(stages.count) filters", reason: "a stack has at most \(Self.maximumFilters) filters")
        }
        for case let .filter(filter) in stages { try filter.validate() }
    }

    /// The most filters a stack, or one libavfilter chain, may hold.
    package static let maximumFilters = 256
}

/// A part of the decoded picture, in its pixels: a `VideoFilter.crop` first in a stack.
package struct PictureCrop: Sendable, Equatable, CustomStringConvertible {
    package var x, y, width, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Whether the part lies inside a picture of `pictureWidth`×`pictureHeight` (libavfilter refuses
    /// a crop larger than the picture, and moves and shrinks one that runs over its edge).
    package func fits(width pictureWidth: Int, height pictureHeight: Int) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && width <= pictureWidth && height <= pictureHeight
            && x <= pictureWidth - width && y <= pictureHeight - height
    }

    /// The part as a rectangle of the picture.
    package var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    /// `WxH+X+Y`, as `--crop` takes it.
    package var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
