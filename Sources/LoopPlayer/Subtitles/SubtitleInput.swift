import CFFmpeg
import FFmpegSupport
import Filters
import Foundation

/// Owns an `AVFormatContext` (and its `AVIOContext`) opened to read subtitles within bounds: only
/// the protocols allowed, only the formats allowed, a deadline on the monotonic clock and a byte
/// budget, both enforced by FFmpeg's interrupt callback so no read can hang or run away.
/// Used by one thread.
///
/// The bytes are opened first, then the format: a refused protocol, a network error or a 404
/// is told apart from contents that are not subtitles.
final class SubtitleInput {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let budget: LoadBudget
    let source: String

    /// Opens `url` (an FFmpeg URL: `file:/path` or `http(s)://…`). `formats` limits the demuxers
    /// (comma-separated names, nil: any); `forcedFormat` skips probing.
    init(url: String, source: String, allowedProtocols: String, formats: String?, forcedFormat: String? = nil,
         limits: ExternalSubtitleFile.Limits) throws(SubtitleError) {
        self.source = source
        budget = LoadBudget(limits: limits)
        let interrupt = AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<LoadBudget>.fromOpaque(opaque).takeUnretainedValue().isExceeded ? 1 : 0
        }, opaque: Unmanaged.passUnretained(budget).toOpaque())

        // The bytes: whitelisted protocols (nested ones too: https needs tls and tcp), a time-out.
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", allowedProtocols, 0)
        if !url.hasPrefix("file:") {
            av_dict_set(&options, "rw_timeout", "\(Int64(limits.timeout * 1_000_000))", 0)
            av_dict_set(&options, "reconnect", "0", 0)
        }
        var callback = interrupt
        let connected = withExtendedLifetime(budget) { avio_open2(&io, url, AVIO_FLAG_READ, &callback, &options) }
        av_dict_free(&options)
        guard connected >= 0, let io else { throw failure(connected, probing: false) }
        budget.io = io

        // The format: only the allowed demuxers, reading from that I/O context.
        guard let allocated = avformat_alloc_context() else {
            close()
            throw .unreadable(source: source, reason: "out of memory")
        }
        allocated.pointee.pb = io
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        allocated.pointee.interrupt_callback = interrupt
        av_dict_set(&options, "protocol_whitelist", allowedProtocols, 0)
        if let formats { av_dict_set(&options, "format_whitelist", formats, 0) }
        let format = forcedFormat.flatMap { av_find_input_format($0) }
        var opening: UnsafeMutablePointer<AVFormatContext>? = allocated
        let opened = withExtendedLifetime(budget) { avformat_open_input(&opening, url, format, &options) }
        av_dict_free(&options)
        // On failure FFmpeg has freed the format context (not our I/O context) and set `opening` to nil.
        guard opened >= 0, let opening else {
            let error = failure(opened, probing: true)
            close()
            throw error
        }
        context = opening
    }

    deinit { close() }

    private func close() {
        avformat_close_input(&context)
        budget.io = nil
        avio_closep(&io)
    }

    var formatContext: UnsafeMutablePointer<AVFormatContext>? { context }

    /// The demuxer's name (`srt`, `webvtt`, `ass`, `matroska,webm`…).
    var formatName: String {
        context?.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "?"
    }

    /// Reads the next packet into `packet`. Returns false at the end; throws on a read error, the
    /// deadline or the byte budget.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(SubtitleError) -> Bool {
        guard let context else { return false }
        let status = withExtendedLifetime(budget) { av_read_frame(context, packet) }
        if status == FFmpegError.endOfFile { return false }
        if status < 0 { throw failure(status, probing: false) }
        return true
    }

    /// The typed error for an FFmpeg failure, the budget's verdict first.
    private func failure(_ status: Int32, probing: Bool) -> SubtitleError {
        switch budget.exceeded {
        case .deadline:
            return .unreadable(source: source, reason: "timed out after \(budget.limits.timeoutText)")
        case .bytes:
            return .tooLarge(source: source, reason: "more than \(budget.limits.bytesText)")
        case nil:
            break
        }
        let text = ffmpegErrorText(status)
        if probing && (status == FFmpegError.invalidData || status == invalidArgument) {
            // Nothing recognised, or a format outside the allowed ones (a video, an image).
            return .notSubtitles(source: source)
        }
        return .unreadable(source: source, reason: text)
    }
}

/// The deadline and byte budget of one load, checked by FFmpeg's interrupt callback on the
/// loading thread.
final class LoadBudget {
    enum Limit { case deadline, bytes }

    let limits: ExternalSubtitleFile.Limits
    private let deadline: UInt64
    /// The I/O context being read, which counts the bytes. Nil once closed.
    var io: UnsafeMutablePointer<AVIOContext>?
    private(set) var exceeded: Limit?

    init(limits: ExternalSubtitleFile.Limits) {
        self.limits = limits
        deadline = Self.monotonicNanoseconds() &+ UInt64(max(0, limits.timeout) * 1e9)
    }

    /// True once the deadline has passed or more bytes than allowed were read; FFmpeg then
    /// abandons the read with `AVERROR_EXIT`.
    var isExceeded: Bool {
        if exceeded != nil { return true }
        if Self.monotonicNanoseconds() > deadline {
            exceeded = .deadline
        } else if let io, io.pointee.bytes_read > Int64(limits.maximumBytes) {
            exceeded = .bytes
        }
        return exceeded != nil
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// FFmpeg's code when a format is not on the whitelist.
private let invalidArgument = -EINVAL
