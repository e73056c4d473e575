/// One subtitle event: what to show from `start` to `end`.
///
/// Times are seconds of the stream's own timeline (packet time stamps), before any loop offset.
/// A cue whose source gives no end (PGS and DVB pictures last "until the next one"; some DVD
/// pictures too) has `end == .infinity`; it ends where the next cue of the same stream starts,
/// including an empty cue (`.bitmap([])`: the codec's "clear the screen"). `closingOpenEnd(at:)`
/// and `[SubtitleCue].closingOpenEnds()` apply that rule.
///
/// ```swift
/// let cue = SubtitleCue(start: 1, end: 2.5, content: .text(assEvent: "0,0,Default,,0,0,0,,Hello"))
/// cue.plainText   // "Hello"
/// ```
package struct SubtitleCue: Sendable, Equatable {
    package var start: Double
    package var end: Double
    package var content: Content
    /// A DVD/PGS picture flagged "forced" (a foreign-language passage inside a full track).
    package var isForced: Bool

    package enum Content: Sendable, Equatable {
        /// One ASS event as FFmpeg's decoders write it in `AVSubtitleRect.ass`, the Matroska form
        /// without times: `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`.
        case text(assEvent: String)
        /// Pictures placed on a canvas (the codec's presentation size, e.g. 720×576 for DVD). An
        /// empty list clears the screen.
        case bitmap([SubtitleBitmap], canvas: SubtitleCanvas)
    }

    package init(start: Double, end: Double, content: Content, isForced: Bool = false) {
        self.start = start
        self.end = end
        self.content = content
        self.isForced = isForced
    }

    /// True while the cue is shown: `start ≤ time < end`.
    package func isShown(at time: Double) -> Bool { start <= time && time < end }

    /// The cue with an open end (`.infinity`) closed at `time` (never before its start). A closed
    /// cue is returned unchanged: its own end stands even if the next cue starts later.
    package func closingOpenEnd(at time: Double) -> SubtitleCue {
        guard end == .infinity else { return self }
        var cue = self
        cue.end = max(start, time)
        return cue
    }

    /// True for a picture cue without pictures: it only ends the previous open cue.
    package var isEmpty: Bool {
        if case let .bitmap(bitmaps, _) = content { return bitmaps.isEmpty }
        return false
    }

    /// The text of a text cue without ASS override blocks, `\N` as a newline: for messages and tests.
    package var plainText: String? {
        guard case let .text(event) = content else { return nil }
        return ASSEvent.plainText(ofTextField: ASSEvent.textField(of: event))
    }
}

extension Array where Element == SubtitleCue {
    /// The cues sorted by start, each open end closed at the next cue's start; empty "clear" cues,
    /// having done their job, are dropped. A last open cue stays open.
    package func closingOpenEnds() -> [SubtitleCue] {
        let sorted = enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var result: [SubtitleCue] = []
        for (index, cue) in sorted.enumerated() where !cue.isEmpty {
            let next = sorted[(index + 1)...].first { $0.start > cue.start }
            result.append(next.map { cue.closingOpenEnd(at: $0.start) } ?? cue)
        }
        return result
    }
}

/// The size of the canvas bitmap subtitles are placed on, in pixels.
package struct SubtitleCanvas: Sendable, Equatable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }
}

/// One picture of a bitmap subtitle, converted from the codec's palette.
package struct SubtitleBitmap: Sendable, Equatable {
    /// Placement on the canvas, in canvas pixels.
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    /// `width * 4 * height` bytes, premultiplied B, G, R, A per pixel (rows without padding).
    package var pixels: [UInt8]

    package init(x: Int, y: Int, width: Int, height: Int, pixels: [UInt8]) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = pixels
    }

    /// The premultiplied (b, g, r, a) at bitmap coordinates.
    package func pixel(x: Int, y: Int) -> (b: UInt8, g: UInt8, r: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// The Matroska-style ASS event line FFmpeg's decoders produce.
package enum ASSEvent {
    /// Fields before the text: ReadOrder, Layer, Style, Name, MarginL, MarginR, MarginV, Effect.
    fileprivate static let fieldsBeforeText = 8

    /// The Text field (everything after the eighth comma; it may itself hold commas).
    fileprivate static func textField(of event: String) -> Substring {
        var rest = Substring(event)
        for _ in 0..<fieldsBeforeText {
            guard let comma = rest.firstIndex(of: ",") else { return rest }
            rest = rest[rest.index(after: comma)...]
        }
        return rest
    }

    /// An event for plain text in the `Default` style: newlines become `\N`, braces and
    /// backslashes are escaped so the text cannot carry override tags.
    package static func event(plainText text: String, readOrder: Int = 0) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\r": continue
            case "\n": escaped += "\\N"
            case "{", "}", "\\": escaped += "\\\(character)"
            default: escaped.append(character)
            }
        }
        return "\(readOrder),0,Default,,0,0,0,,\(escaped)"
    }

    /// The visible text of a Text field: override blocks dropped, `\N`/`\n` as newlines, `\h` as a
    /// space, escaped braces and backslashes restored.
    package static func plainText(ofTextField text: Substring) -> String {
        var result = ""
        var inBlock = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if inBlock {
                if character == "}" { inBlock = false }
            } else if character == "{" {
                inBlock = true
            } else if character == "\\", next < text.endIndex {
                switch text[next] {
                case "N", "n": result += "\n"
                case "h": result += " "
                case "{", "}", "\\": result.append(text[next])
                default: result += "\\\(text[next])"
                }
                index = text.index(after: next)
                continue
            } else {
                result.append(character)
            }
            index = next
        }
        return result
    }
}
