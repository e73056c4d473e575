import Foundation
import CFFmpeg

/// One audio stream of the source, as listed to the user and matched by language.
public struct AudioTrack: Sendable, Equatable {
    /// Position among the source's audio streams, from 0 (what `#` cycles through).
    public var number: Int
    /// ISO 639 code from the container's `language` tag (`eng`, `de`, …), if any.
    public var language: String?
    /// The container's `title` tag (e.g. `Commentary`), if any.
    public var title: String?
    /// FFmpeg's name of the codec, e.g. `aac` or `opus`.
    public var codecName: String
    /// Channels in the stream (2 for stereo).
    public var channels: Int
    /// Samples per second per channel, e.g. 48000.
    public var sampleRate: Int
    /// The container's stream index.
    package var streamIndex: Int32

    package init(number: Int, stream: UnsafeMutablePointer<AVStream>) {
        self.number = number
        streamIndex = stream.pointee.index
        let parameters = stream.pointee.codecpar.pointee
        codecName = String(cString: avcodec_get_name(parameters.codec_id))
        channels = Int(parameters.ch_layout.nb_channels)
        sampleRate = Int(parameters.sample_rate)
        language = Self.tag("language", of: stream).flatMap { $0 == "und" ? nil : $0 }
        title = Self.tag("title", of: stream)
    }

    /// How the track is named in messages: `#1 eng "Commentary" (aac, 2 ch)`.
    public var label: String {
        var text = "#\(number)"
        if let language { text += " \(language)" }
        if let title { text += " \"\(title)\"" }
        return text + " (\(codecName), \(channels) ch)"
    }

    /// True if the track's language is `code`, written with two or three letters (`en`, `eng`).
    package func matches(language code: String) -> Bool {
        guard let language else { return false }
        return LanguageCode.same(language, code)
    }

    private static func tag(_ key: String, of stream: UnsafeMutablePointer<AVStream>) -> String? {
        guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
