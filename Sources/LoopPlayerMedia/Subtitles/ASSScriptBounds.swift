import CLibass

/// Limits on an ASS script's sizes so libass renders any script in bounded time and memory.
///
/// libass rasterises each glyph whole before clipping it to the screen, and does not bound text
/// scaling: measured at 1080p, a style at 1000 % scale took 0.9 s and 840 MB for two letters, and
/// `{\fs300\fscx1000\fscy1000\bord50\blur50}` 1.2 s and 550 MB for one. Real scripts stay far
/// below these limits (sizes are in script pixels, relative to `PlayResY`).
package enum ASSScriptBounds {
    /// Largest horizontal or vertical text scale, percent.
    private static let maximumScale = 200.0
    /// Largest font size, as a fraction of the script height: at the largest scale, glyphs as tall
    /// as the picture.
    package static let maximumFontSize = 0.5
    /// Largest outline or shadow, as a fraction of the script height.
    private static let maximumBorder = 1.0 / 16
    /// Largest `\blur` or `\be`: 20, and at most 1/32 of the script height (blur is in script
    /// pixels, so a tiny `PlayResY` makes it huge on screen).
    private static func maximumBlur(scriptHeight height: Double) -> Double { min(20, height / 32) }

    /// Clamps the sizes of every style of `track`.
    package static func bound(_ track: UnsafeMutablePointer<ASS_Track>) {
        let height = scriptHeight(of: track)
        for index in 0..<Int(track.pointee.n_styles) {
            let style = track.pointee.styles + index
            style.pointee.FontSize = clamp(style.pointee.FontSize, 0, height * maximumFontSize)
            style.pointee.ScaleX = clamp(style.pointee.ScaleX, 0, maximumScale / 100)
            style.pointee.ScaleY = clamp(style.pointee.ScaleY, 0, maximumScale / 100)
            style.pointee.Outline = clamp(style.pointee.Outline, 0, height * maximumBorder)
            style.pointee.Shadow = clamp(style.pointee.Shadow, -height * maximumBorder, height * maximumBorder)
            style.pointee.Blur = clamp(style.pointee.Blur, 0, maximumBlur(scriptHeight: height))
        }
    }

    /// The script height libass uses (its default when the header has none).
    package static func scriptHeight(of track: UnsafeMutablePointer<ASS_Track>) -> Double {
        let height = track.pointee.PlayResY
        if height > 0 { return Double(height) }
        let width = track.pointee.PlayResX
        return width > 0 ? Double(width) * 3 / 4 : 288
    }

    /// The event with the numbers of its size tags (`\fs`, `\fscx`, `\fscy`, `\bord`, `\shad`,
    /// their x/y forms, `\blur`, `\be`, also inside `\t(…)`) clamped; other text is untouched.
    package static func boundOverrides(in event: String, scriptHeight height: Double) -> String {
        guard event.contains("{") else { return event }
        let limits: [(name: String, low: Double, high: Double)] = [
            ("fscx", 0, maximumScale), ("fscy", 0, maximumScale),
            ("fsp", -.infinity, .infinity),  // letter spacing: named here so `\fs` does not take it
            ("fs", 0, height * maximumFontSize),
            ("xbord", 0, height * maximumBorder), ("ybord", 0, height * maximumBorder), ("bord", 0, height * maximumBorder),
            ("xshad", -height * maximumBorder, height * maximumBorder), ("yshad", -height * maximumBorder, height * maximumBorder),
            ("shad", 0, height * maximumBorder),
            ("blur", 0, maximumBlur(scriptHeight: height)), ("be", 0, maximumBlur(scriptHeight: height)),
        ]
        var output = ""
        output.reserveCapacity(event.utf8.count)
        var inBlock = false
        var rest = Substring(event)
        while let character = rest.first {
            rest = rest.dropFirst()
            output.append(character)
            if character == "{" { inBlock = true; continue }
            if character == "}" { inBlock = false; continue }
            guard inBlock, character == "\\",
                  let tag = limits.first(where: { rest.hasPrefix($0.name) }) else { continue }
            output += tag.name
            rest = rest.dropFirst(tag.name.count)
            let number = rest.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
            guard let value = Double(number), tag.high.isFinite else { continue }
            rest = rest.dropFirst(number.count)
            let bounded = clamp(value, tag.low, tag.high)
            output += bounded == value ? String(number) : String(bounded)
        }
        return output
    }

    private static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        value.isNaN ? low : min(max(value, low), high)
    }
}
