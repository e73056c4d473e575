import ArgumentParser
import LoopPlayer

/// `WxH`, e.g. `1280x720`, checked against the sides `range` allows.
enum WindowSize {
    static func parse(_ text: String?, flag: String, range: ClosedRange<Int>) throws -> PixelSize? {
        guard let text else { return nil }
        guard let size = PixelSize(parsing: text, maximum: range.upperBound),
              range.contains(size.width), range.contains(size.height) else {
            throw ValidationError("\(flag) must be WxH with sides \(range.lowerBound)…\(range.upperBound) px, not '\(text)'")
        }
        return size
    }
}
