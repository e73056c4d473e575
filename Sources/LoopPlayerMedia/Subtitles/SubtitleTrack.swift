import CFFmpeg
import Foundation

/// One subtitle stream of the source, or an external subtitle file, as listed to the user and
/// matched by language.
package struct SubtitleTrack: Sendable, Equatable {
    /// Position among the source's subtitle streams, from 0 (0 for an external file).
    package var number: Int
    /// ISO 639 code from the container's `language` tag (`eng`, `de`, …), if any. For an external
    /// file, a tag in its name (`movie.en.srt`, `movie.eng.forced.srt`) unless one was given.
    package var language: String?
    package var title: String?
    /// FFmpeg's codec name: `subrip`, `ass`, `webvtt`, `mov_text`, `dvd_subtitle`, `hdmv_pgs_subtitle`…
    package var codecName: String
    /// Only for foreign-language passages (the container's forced disposition, or `.forced.` in an
    /// external file's name).
    package var isForced: Bool
    /// The container marks it as the one to show by default.
    package var isDefault: Bool
    /// Pictures (DVD, PGS, DVB) rather than text: cues carry bitmaps, not ASS events.
    package var isBitmap: Bool
    /// The path or URL of an external file; nil for a stream of the source.
    package var externalSource: String?
    /// The container's stream index.
    package var streamIndex: Int32

    package init(number: Int, stream: UnsafeMutablePointer<AVStream>) {
        self.number = number
        streamIndex = stream.pointee.index
        let parameters = stream.pointee.codecpar.pointee
        codecName = String(cString: avcodec_get_name(parameters.codec_id))
        language = Self.tag("language", of: stream).flatMap { $0 == "und" ? nil : $0 }
        title = Self.tag("title", of: stream)
        let disposition = stream.pointee.disposition
        isForced = disposition & AV_DISPOSITION_FORCED != 0
        isDefault = disposition & AV_DISPOSITION_DEFAULT != 0
        isBitmap = Self.isBitmapCodec(parameters.codec_id)
        externalSource = nil
    }

    /// The track of an external file: its one stream, with the language taken from `language`,
    /// the stream's tag or the file name, in that order.
    package init(external source: String, stream: UnsafeMutablePointer<AVStream>, language: String?) {
        self.init(number: 0, stream: stream)
        externalSource = source
        let name = Self.fileName(of: source)
        if let language { self.language = language }
        else if self.language == nil { self.language = Self.language(inFileName: name) }
        if title == nil { title = name }
        if !isForced { isForced = name.lowercased().split(separator: ".").dropFirst().contains("forced") }
    }

    /// Every subtitle stream of an opened input, in container order.
    package static func all(in context: UnsafeMutablePointer<AVFormatContext>) -> [SubtitleTrack] {
        (0..<Int(context.pointee.nb_streams))
            .compactMap { context.pointee.streams[$0] }
            .filter { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE }
            .enumerated().map { SubtitleTrack(number: $0.offset, stream: $0.element) }
    }

    /// How the track is named in messages: `#1 eng "Signs" (ass, forced)`, `movie.de.srt (subrip)`.
    package var label: String {
        var text = externalSource.map { Self.fileName(of: $0) } ?? "#\(number)"
        if let language { text += " \(language)" }
        if let title, externalSource == nil || title != Self.fileName(of: externalSource ?? "") { text += " \"\(title)\"" }
        var notes = [codecName]
        if isForced { notes.append("forced") }
        if isDefault { notes.append("default") }
        return text + " (\(notes.joined(separator: ", ")))"
    }

    /// True if the track's language is `code`, written with two or three letters (`en`, `eng`).
    /// A region is ignored on both sides: `pt-BR` matches `pt` and `por`.
    package func matches(language code: String) -> Bool {
        guard let language else { return false }
        func base(_ tag: String) -> String { tag.split(separator: "-", maxSplits: 1).first.map(String.init) ?? tag }
        return LanguageCode.same(language, code) || LanguageCode.same(base(language), base(code))
    }

    package static func isBitmapCodec(_ id: AVCodecID) -> Bool {
        guard let descriptor = avcodec_descriptor_get(id) else { return false }
        return descriptor.pointee.props & AV_CODEC_PROP_BITMAP_SUB != 0
    }

    /// The last path component of a path or URL, without a query.
    package static func fileName(of source: String) -> String {
        let path = source.split(separator: "?", maxSplits: 1).first.map(String.init) ?? source
        return path.split(separator: "/").last.map(String.init) ?? source
    }

    /// A language tag among the dotted parts of a file name after the first: `movie.pt-BR.srt`,
    /// `movie.eng.forced.srt`. Two or three letters (optionally a region), like mpv; unknown codes
    /// still match themselves.
    package static func language(inFileName name: String) -> String? {
        let parts = name.split(separator: ".").map(String.init)
        guard parts.count >= 3 else { return nil }
        for part in parts.dropFirst().dropLast().reversed() {
            let base = part.split(separator: "-", maxSplits: 1).first.map(String.init) ?? part
            guard (2...3).contains(base.count), base.allSatisfy({ $0.isASCII && $0.isLetter }) else { continue }
            if base.lowercased() == "sdh" || base.lowercased() == "cc" { continue }
            return part
        }
        return nil
    }

    private static func tag(_ key: String, of stream: UnsafeMutablePointer<AVStream>) -> String? {
        guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
