import LoopPlayer

/// mpv's `--geometry` in pixels: `WxH+X+Y`, `WxH` or `+X+Y` (a size, a place, or both). The place is
/// the window's top-left corner from the screen's; offsets from the right or bottom (`-X-Y`) and
/// percentages are not taken (a wall's panels are placed exactly).
struct WindowGeometry: Equatable {
    var size: PixelSize?
    var position: (x: Int, y: Int)?

    /// Where a window may be put (the X protocol's coordinates are 16-bit).
    static let places = 0...32_767

    init?(parsing text: String, sides: ClosedRange<Int>) {
        var rest = Substring(text)
        if let plus = rest.firstIndex(of: "+") {
            let place = rest[rest.index(after: plus)...].split(separator: "+", omittingEmptySubsequences: false)
            guard place.count == 2, let x = Int(place[0]), let y = Int(place[1]),
                  Self.places.contains(x), Self.places.contains(y) else { return nil }
            position = (x, y)
            rest = rest[..<plus]
        }
        if !rest.isEmpty {
            guard let size = PixelSize(parsing: String(rest), maximum: sides.upperBound),
                  sides.contains(size.width), sides.contains(size.height) else { return nil }
            self.size = size
        }
        guard size != nil || position != nil else { return nil }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.size == rhs.size && lhs.position?.x == rhs.position?.x && lhs.position?.y == rhs.position?.y
    }
}
