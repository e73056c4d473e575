/// A size in whole pixels.
public struct PixelSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Width and height in pixels, never negative.
    public var width, height: Int

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
