import CFFmpeg
import FFmpegSupport
import Filters
import Foundation
import LoopPlayerCore

/// Owns an `AVFormatContext` reading a subtitle file's bytes from memory: only the formats
/// allowed, no protocol at all (the bytes were fetched or read before, under the source policy and
/// the player's abort), and a deadline on the monotonic clock enforced by FFmpeg's interrupt
/// callback, so no parse can run away. Used by one thread.
package final class SubtitleInput {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// Owns the bytes and the `AVIOContext` reading them; freed after the format context.
    private let reader: MemoryReader
    private let budget: LoadBudget
    package let source: String

    /// Opens `contents`, the bytes of `source` (whose name helps the probe). `formats` limits the
    /// demuxers (comma-separated names, nil: any); `forcedFormat` skips probing.
    package init(contents: [UInt8], source: String, formats: String?, forcedFormat: String? = nil,
         limits: ExternalSubtitleFile.Limits) throws(SubtitleError) {
        self.source = source
        budget = LoadBudget(limits: limits)
        guard let reader = MemoryReader(contents) else { throw .unreadable(source: source, reason: "out of memory") }
        self.reader = reader
        guard let allocated = avformat_alloc_context() else { throw .unreadable(source: source, reason: "out of memory") }
        allocated.pointee.pb = reader.io
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        allocated.pointee.interrupt_callback = AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<LoadBudget>.fromOpaque(opaque).takeUnretainedValue().isExceeded ? 1 : 0
        }, opaque: Unmanaged.passUnretained(budget).toOpaque())
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "none", 0)
        if let formats { av_dict_set(&options, "format_whitelist", formats, 0) }
        let format = forcedFormat.flatMap { av_find_input_format($0) }
        var opening: UnsafeMutablePointer<AVFormatContext>? = allocated
        let opened = avformat_open_input(&opening, SubtitleTrack.fileName(of: source), format, &options)
        av_dict_free(&options)
        // On failure FFmpeg has freed the format context (not our I/O context) and set `opening` to nil.
        guard opened >= 0, let opening else { throw failure(opened, probing: true) }
        context = opening
    }

    deinit { close() }

    private func close() {
        avformat_close_input(&context)
    }

    package var formatContext: UnsafeMutablePointer<AVFormatContext>? { context }

    /// The demuxer's name (`srt`, `webvtt`, `ass`, `matroska,webm`…).
    package var formatName: String {
        context?.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "?"
    }

    /// Reads the next packet into `packet`. Returns false at the end; throws on a read error, the
    /// deadline or the byte budget.
    package func read(into packet: UnsafeMutablePointer<AVPacket>) throws(SubtitleError) -> Bool {
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

/// The deadline of one parse, checked by FFmpeg's interrupt callback on the loading thread.
package final class LoadBudget {
    package enum Limit { case deadline }

    package let limits: ExternalSubtitleFile.Limits
    private let deadline: Double
    package private(set) var exceeded: Limit?

    package init(limits: ExternalSubtitleFile.Limits) {
        self.limits = limits
        deadline = MonotonicCondition.now + max(0, limits.timeout)
    }

    /// True once the deadline has passed; FFmpeg then abandons the read with `AVERROR_EXIT`.
    fileprivate var isExceeded: Bool {
        if exceeded == nil, MonotonicCondition.now > deadline { exceeded = .deadline }
        return exceeded != nil
    }
}

/// The one owner of an `AVIOContext` that reads a byte array (and of the array), for a demuxer
/// with `AVFMT_FLAG_CUSTOM_IO`. The context's callback reads `self`, which the owner of the
/// format context keeps until that context is closed.
package final class MemoryReader {
    private let bytes: [UInt8]
    private var position = 0
    package private(set) var io: UnsafeMutablePointer<AVIOContext>?

    package init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        let size: Int32 = 16 << 10
        guard let buffer = av_malloc(Int(size)) else { return nil }
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 0,
                                Unmanaged.passUnretained(self).toOpaque(), Self.readPacket, nil, Self.seek)
        guard io != nil else {
            av_free(buffer)
            return nil
        }
    }

    deinit {
        if let io { av_free(io.pointee.buffer) }
        avio_context_free(&io)
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
        let count = min(Int(max(0, size)), bytes.count - position)
        guard count > 0 else { return FFmpegError.endOfFile }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.update(from: base + position, count: count) }
        }
        position += count
        return Int32(count)
    }

    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return Int64(bytes.count) }
        let base: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = Int64(bytes.count)
        default: return -Int64(EINVAL)
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, (0...Int64(bytes.count)).contains(target) else { return -Int64(EINVAL) }
        position = Int(target)
        return target
    }

    private static let readPacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, buffer, size in
        guard let opaque, let buffer else { return FFmpegError.endOfFile }
        return Unmanaged<MemoryReader>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: size)
    }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
        guard let opaque else { return -Int64(EINVAL) }
        return Unmanaged<MemoryReader>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
    }
}

/// FFmpeg's code when a format is not on the whitelist.
private let invalidArgument = -EINVAL
