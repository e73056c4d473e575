import CFFmpeg
import Foundation
import LoopPlayerCore

/// A whole external text subtitle file (`.srt`, `.vtt`, `.ass`/`.ssa` and FFmpeg's other text
/// formats), read and decoded at load: such files are small, and a looping player needs every cue
/// again at each pass.
///
/// ```swift
/// let file = try ExternalSubtitleFile(source: "/srv/movie.en.srt")
/// file.track.language   // "en" (from the name)
/// file.cues.first       // 1.0 … 2.5 s: "0,0,Default,,0,0,0,,Hello"
/// let remote = try ExternalSubtitleFile(source: "https://example.com/movie.vtt",
///                                       policy: SourcePolicy(allowed: AllowedSources(hosts: ["example.com"])))
/// ```
///
/// The source is judged by `policy` as a video source is (schemes, hosts; a redirect outside the
/// allowed hosts is refused) and its bytes are read first, by the player's own fetcher for http(s)
/// (`HTTPFetcher`: the same stall limit, redirect rule and abort as the video) or from the file,
/// then parsed from memory with only text subtitle demuxers and no protocol at all, so a subtitle
/// file cannot make FFmpeg open anything. Loading is bounded (`Limits`): past 50 000 events or
/// 20 MB it gives up with `tooLarge`, and a deadline on the monotonic clock (10 s) stops the fetch
/// and the parse.
package struct ExternalSubtitleFile: Sendable {
    /// Bounds of one load.
    package struct Limits: Sendable, Equatable {
        fileprivate var maximumEvents: Int
        package var maximumBytes: Int
        /// Seconds for fetching the bytes, and again for parsing them (monotonic clock).
        package var timeout: Double

        package init(maximumEvents: Int = 50_000, maximumBytes: Int = 20 << 20, timeout: Double = 10) {
            self.maximumEvents = max(1, maximumEvents)
            self.maximumBytes = max(1, maximumBytes)
            self.timeout = timeout.isNaN ? 10 : min(max(timeout, 0.1), 3600)
        }

        package static let standard = Limits()

        package var timeoutText: String { timeout == timeout.rounded() ? "\(Int(timeout)) s" : "\(timeout) s" }
        fileprivate var bytesText: String {
            maximumBytes % (1 << 20) == 0 ? "\(maximumBytes >> 20) MB" : "\(maximumBytes) bytes"
        }
    }

    /// The path or URL as given.
    package let source: String
    /// The file's one stream; `externalSource` is `source`.
    package let track: SubtitleTrack
    /// The ASS header for `ASSRenderer`: the file's own for ASS/SSA, FFmpeg's generated default otherwise.
    package let header: String?
    /// Every event, sorted by start; times in the file's own timeline.
    package let cues: [SubtitleCue]
    /// The encoding the text was read in when it was not UTF-8 (`CP1252`), or nil.
    package let characterEncoding: String?
    /// Events the codec rejected and that were skipped.
    package let skippedEvents: Int

    /// FFmpeg's text subtitle demuxers, the only ones allowed: no video, no playlists, nothing
    /// that opens further files.
    fileprivate static let textFormats = "srt,webvtt,ass,microdvd,subviewer,subviewer1,sami,realtext,mpl2,pjs,jacosub,vplayer,stl,aqtitle,mpsub,lrc"

    /// The demuxer for a file whose contents FFmpeg's probe does not recognise, by extension.
    fileprivate static let formatsByExtension = ["srt": "srt", "vtt": "webvtt", "ass": "ass", "ssa": "ass", "smi": "sami", "sami": "sami"]

    /// Encoding tried when the text is not UTF-8: Windows Western, the usual legacy SRT encoding.
    fileprivate static let legacyEncoding = "CP1252"

    /// Loads `source`: a path, a `file://` URL or an `http(s)://` URL that `policy` allows.
    /// `language` overrides the one guessed from the file name.
    package init(source: String, policy: SourcePolicy = SourcePolicy(), language: String? = nil,
                limits: Limits = .standard) throws(SubtitleError) {
        let contents = try Self.read(source, fetch: NetworkOptions(allowedSources: policy.allowed).fetchOptions,
                                     abort: nil, limits: limits)
        try self.init(source: source, contents: contents, language: language, limits: limits)
    }

    /// Parses `contents`, the bytes of `source`.
    package init(source: String, contents: [UInt8], language: String? = nil, limits: Limits = .standard) throws(SubtitleError) {
        FFmpegLogBridge.install
        self.source = source
        let (input, forced) = try Self.open(contents, source: source, limits: limits)
        guard let context = input.formatContext,
              let stream = (0..<Int(context.pointee.nb_streams)).lazy.compactMap({ context.pointee.streams[$0] })
                .first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE }) else {
            throw .notSubtitles(source: source)
        }
        let packets = try Self.readPackets(of: stream.pointee.index, from: input, limits: limits)
        track = SubtitleTrack(external: source, stream: stream, language: language)

        let decoded = try Self.decode(packets, stream: stream, source: source)
        if forced && decoded.cues.isEmpty { throw .notSubtitles(source: source) }
        if !packets.isEmpty && decoded.cues.isEmpty && decoded.skipped > 0 {
            throw .undecodable(source: source, codec: track.codecName)
        }
        header = decoded.header
        cues = decoded.cues
        characterEncoding = decoded.encoding
        skippedEvents = decoded.skipped
    }

    // MARK: - Steps

    /// The bytes of `source`, judged by `fetch.policy` first: over http(s) with `HTTPFetcher` (the
    /// policy again for every redirect, `abort` ends the wait), or from a regular, non-empty local
    /// file within the byte limit.
    package static func read(_ source: String, fetch: HTTPFetchOptions, abort: AbortFlag?,
                     limits: Limits) throws(SubtitleError) -> [UInt8] {
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .unreadable(source: source, reason: "the source is empty") }
        var target = trimmed
        if SourceResolver.scheme(of: trimmed) == nil {
            target = NSString(string: trimmed).expandingTildeInPath
            if !target.hasPrefix("/") { target = FileManager.default.currentDirectoryPath + "/" + target }
        }
        switch fetch.policy.check(source: target) {
        case let .refuse(refusal):
            throw .notAllowed(source: source, refusal: refusal)
        case let .allow(url, .remote):
            do {
                return try HTTPFetcher(options: fetch).fetch(url, timeout: limits.timeout, abort: abort,
                                                             maxBytes: limits.maximumBytes).bytes
            } catch {
                throw fetchFailure(error, source: source, limits: limits)
            }
        case let .allow(url, .localMedia), let .allow(url, .localPlaylist):
            return try readLocal(url.path, source: source, abort: abort, limits: limits)
        case let .allow(_, .other(scheme)):
            throw .unreadable(source: source, reason: "subtitles cannot be read over \(scheme)")
        }
    }

    private static func readLocal(_ path: String, source: String, abort: AbortFlag?,
                                  limits: Limits) throws(SubtitleError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .fileNotFound(path: source) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(source: source, reason: "not a regular file (a directory or a device)")
        }
        guard status.st_size > 0 else { throw .unreadable(source: source, reason: "the file is empty") }
        guard status.st_size <= limits.maximumBytes else {
            throw .tooLarge(source: source, reason: "\(status.st_size) bytes, more than \(limits.bytesText)")
        }
        var bytes: [UInt8] = []
        do {
            _ = try LocalFileRead.read(URL(fileURLWithPath: path), range: nil, resumeAt: 0, abort: abort,
                                       maxBytes: limits.maximumBytes) { chunk in
                bytes.append(contentsOf: chunk)
                return true
            }
        } catch {
            throw fetchFailure(error, source: source, limits: limits)
        }
        return bytes
    }

    private static func fetchFailure(_ error: FetchError, source: String, limits: Limits) -> SubtitleError {
        switch error {
        case .tooLarge: .tooLarge(source: source, reason: "more than \(limits.bytesText)")
        case .timedOut: .unreadable(source: source, reason: "timed out after \(limits.timeoutText)")
        case let .refused(refusal): .notAllowed(source: source, refusal: refusal)
        default: .unreadable(source: source, reason: error.reason)
        }
    }

    /// Opens with the text demuxers; if none recognises the contents, retries with the demuxer the
    /// extension names (a lenient parse of a damaged file). Returns whether that fallback was used.
    private static func open(_ contents: [UInt8], source: String,
                             limits: Limits) throws(SubtitleError) -> (SubtitleInput, forced: Bool) {
        do throws(SubtitleError) {
            return (try SubtitleInput(contents: contents, source: source, formats: textFormats, limits: limits), false)
        } catch {
            let name = SubtitleTrack.fileName(of: source).lowercased()
            let ext = name.split(separator: ".").last.map(String.init) ?? ""
            guard case .notSubtitles = error, let format = formatsByExtension[ext],
                  let input = try? SubtitleInput(contents: contents, source: source, formats: textFormats,
                                                 forcedFormat: format, limits: limits)
            else { throw error }
            return (input, true)
        }
    }

    /// Every packet of the stream, up to the event limit.
    private static func readPackets(of index: Int32, from input: SubtitleInput, limits: Limits) throws(SubtitleError) -> [StoredPacket] {
        var packets: [StoredPacket] = []
        while true {
            guard let packet = StoredPacket() else {
                throw .unreadable(source: input.source, reason: "out of memory")
            }
            guard try input.read(into: packet.pointer) else { break }
            guard packet.pointer.pointee.stream_index == index else { continue }
            packets.append(packet)
            if packets.count > limits.maximumEvents {
                throw .tooLarge(source: input.source, reason: "more than \(limits.maximumEvents) events")
            }
        }
        return packets
    }

    private struct Decoded {
        var header: String?
        var cues: [SubtitleCue]
        var skipped: Int
        var encoding: String?
    }

    /// Decodes as UTF-8; text rejected as invalid is decoded again as `legacyEncoding`, and the
    /// reading with fewer rejections wins.
    private static func decode(_ packets: [StoredPacket], stream: UnsafeMutablePointer<AVStream>,
                               source: String) throws(SubtitleError) -> Decoded {
        func run(_ encoding: String?) throws(SubtitleError) -> Decoded {
            let decoder: SubtitleDecoder
            do {
                decoder = try SubtitleDecoder(stream: stream, sourceName: source, characterEncoding: encoding)
            } catch {
                throw .undecodable(source: source, codec: String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)))
            }
            let cues = packets.flatMap { decoder.decode($0.pointer) }
            return Decoded(header: decoder.assHeader, cues: cues, skipped: decoder.errorCount, encoding: encoding)
        }
        var best = try run(nil)
        if best.skipped > 0, !SubtitleTrack.isBitmapCodec(stream.pointee.codecpar.pointee.codec_id),
           let legacy = try? run(legacyEncoding), legacy.skipped < best.skipped {
            best = legacy
        }
        best.cues = best.cues.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
        return best
    }
}
