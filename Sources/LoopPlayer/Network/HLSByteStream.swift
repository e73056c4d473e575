import CFFmpeg
import Foundation
import Synchronization

/// HLS segments fetched ahead by a thread and handed to libavformat as one continuous byte stream
/// through a custom `AVIOContext` (a prototype of the HLS source's lower half).
///
/// ```swift
/// let stream = HLSByteStream(fetcher: HTTPFetcher()) { index, previous in
///     index < media.segments.count ? HLSByteStream.Segment(media.segments[index], variant: 0) : nil
/// }
/// var format = avformat_alloc_context()
/// format.pointee.pb = stream.ioContext
/// format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
/// avformat_open_input(&format, nil, av_find_input_format("mpegts"), nil)
/// … av_read_frame …
/// avformat_close_input(&format)   // before the stream goes away
/// stream.stop()
/// ```
/// - `schedule(index, previous)` runs on the fetch thread and names segment `index` (nil: the
///   end). A variant switch is simply a segment from another variant: with aligned segments and
///   the same timestamps in every variant (what encoders produce for ABR), MPEG-TS continues
///   seamlessly. A segment with another init section (fMP4) is preceded by that section.
/// - The pipe holds at most `capacity` bytes: the fetcher waits for the demuxer (time spent
///   waiting is subtracted from the throughput measurement, and is not a stall).
/// - A transient failure (server gone, stall, 5xx, a broken body) is retried with backoff and the
///   segment resumed where it broke (a Range request; from the start, skipping what was already
///   delivered, when the server refuses ranges) until `giveUpAfter` seconds of failing; then, or at
///   once for a permanent failure (404…), the demuxer reads the bytes it has and then an error.
// @unchecked: `thread` and `context` change only in init, stop() and deinit, called by the owner;
// the fetch thread and the read callback touch only the pipe, the abort flag and the Mutex.
final class HLSByteStream: @unchecked Sendable {
    /// One segment to fetch.
    struct Segment: Sendable, Equatable {
        var url: URL
        var range: HLSByteRange?
        var initSection: HLSInitSection?
        /// Which variant it belongs to (the caller's numbering).
        var variant: Int
        var sequenceNumber: Int
        var duration: Double

        init(url: URL, range: HLSByteRange? = nil, initSection: HLSInitSection? = nil, variant: Int,
             sequenceNumber: Int, duration: Double) {
            self.url = url
            self.range = range
            self.initSection = initSection
            self.variant = variant
            self.sequenceNumber = sequenceNumber
            self.duration = duration
        }

        init(_ segment: HLSSegment, variant: Int) {
            self.init(url: segment.url, range: segment.byteRange, initSection: segment.initSection, variant: variant,
                      sequenceNumber: segment.sequenceNumber, duration: segment.duration)
        }
    }

    /// A segment delivered into the stream.
    struct Delivered: Sendable, Equatable {
        var segment: Segment
        /// Stream position of its first byte (its init section, if one was sent, comes before).
        var streamOffset: Int64
        var byteCount: Int
        /// Time on the network, waits for the demuxer excluded: what the variant selector wants.
        var networkSeconds: Double
        /// Failed attempts before it arrived.
        var retries: Int
    }

    typealias Schedule = @Sendable (_ index: Int, _ previous: Delivered?) -> Segment?

    private let fetcher: HTTPFetcher
    private let schedule: Schedule
    private let pipe: SegmentPipe
    private let abort = AbortFlag()
    private let giveUpAfter: Double
    private var thread: WorkerThread?
    private var context: UnsafeMutablePointer<AVIOContext>?
    private let state = Mutex<(delivered: [Delivered], retrying: FetchError?, failure: FetchError?)>(([], nil, nil))

    init(fetcher: HTTPFetcher, capacity: Int = 4 << 20, giveUpAfter: Double = 30, schedule: @escaping Schedule) {
        self.fetcher = fetcher
        self.schedule = schedule
        self.giveUpAfter = giveUpAfter
        pipe = SegmentPipe(capacity: capacity)
        let size: Int32 = 64 << 10
        if let buffer = av_malloc(Int(size)) {
            context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 0,
                                         Unmanaged.passUnretained(self).toOpaque(), Self.readPacket, nil, nil)
            if context == nil { av_free(buffer) }
        }
        let worker = WorkerThread(name: "lp-hls-fetch") { [self] in fetchLoop() }
        // Without its thread nothing would ever arrive: the demuxer's reads end at once instead.
        if !worker.started { pipe.close() }
        thread = worker
    }

    deinit {
        stop()
        if let context { av_free(context.pointee.buffer) }
        avio_context_free(&context)
    }

    /// The context to set as an `AVFormatContext`'s `pb` (with `AVFMT_FLAG_CUSTOM_IO`); nil if
    /// FFmpeg could not allocate it. Close the format context before `stop()`.
    var ioContext: UnsafeMutablePointer<AVIOContext>? { context }

    /// Segments delivered so far, in order.
    var delivered: [Delivered] { state.withLock { $0.delivered } }
    /// The failure being retried now, if any (for a `buffering` state).
    var retrying: FetchError? { state.withLock { $0.retrying } }
    /// The failure that ended the stream, if any.
    var failure: FetchError? { state.withLock { $0.failure } }
    /// Bytes fetched and not yet read by the demuxer.
    var bufferedBytes: Int { pipe.buffered }

    /// The delivered segment holding stream position `position` (a packet's `pos`).
    func segment(at position: Int64) -> Delivered? {
        delivered.last { $0.streamOffset <= position }
    }

    /// Stops fetching and wakes the demuxer (its reads then fail with `AVERROR_EXIT`). Idempotent.
    func stop() {
        abort.raise()
        pipe.close()
        thread?.join()
        thread = nil
    }

    // MARK: Demuxer side

    private static let readPacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, buffer, size in
        guard let opaque, let buffer else { return FFmpegError.endOfFile }
        let stream = Unmanaged<HLSByteStream>.fromOpaque(opaque).takeUnretainedValue()
        switch stream.pipe.read(into: buffer, maximum: Int(size)) {
        case let .bytes(count): return Int32(count)
        case .end: return FFmpegError.endOfFile
        case .failed: return -EIO
        case .closed: return averrorExit
        }
    }

    /// FFmpeg's `AVERROR_EXIT` (`FFERRTAG('E','X','I','T')`), which Swift cannot import.
    private static let averrorExit = -Int32(bitPattern: 0x45 | 0x58 << 8 | 0x49 << 16 | 0x54 << 24)

    // MARK: Fetch thread

    private func fetchLoop() {
        var index = 0
        var previous: Delivered?
        var initSent: HLSInitSection?
        while !abort.isRaised, let segment = schedule(index, previous) {
            do {
                if let initSection = segment.initSection, initSection != initSent {
                    _ = try deliver(initSection.url, range: initSection.byteRange)
                    initSent = initSection
                }
                let offset = pipe.totalWritten
                let (bytes, seconds, retries) = try deliver(segment.url, range: segment.range)
                let done = Delivered(segment: segment, streamOffset: offset, byteCount: bytes, networkSeconds: seconds, retries: retries)
                state.withLock { $0.delivered.append(done) }
                previous = done
                index += 1
            } catch {
                if case .aborted = error { return }
                logger.notice("HLS segment failed: \(error)")
                state.withLock { $0.failure = error; $0.retrying = nil }
                pipe.fail(error)
                return
            }
        }
        pipe.finish()
    }

    /// Fetches `url` (or `range` of it) into the pipe, retrying transient failures and resuming
    /// where the bytes stopped. Returns the bytes, the network seconds of the last attempt and
    /// the number of retries.
    private func deliver(_ url: URL, range: HLSByteRange?) throws(FetchError) -> (Int, Double, Int) {
        var delivered = 0
        var retries = 0
        var failingSince: UInt64?
        var rangesWork = true
        while true {
            var waited = 0.0
            // Without ranges a retry starts over and drops what the pipe already has.
            var skip = rangesWork ? 0 : delivered
            let resumeAt = rangesWork ? delivered : 0
            var closed = false
            do {
                let transfer = try fetcher.fetch(url, range: range, resumeAt: resumeAt, abort: abort) { chunk in
                    var chunk = chunk
                    if skip > 0 {
                        let dropped = min(skip, chunk.count)
                        skip -= dropped
                        chunk = UnsafeRawBufferPointer(rebasing: chunk[dropped...])
                    }
                    let result = pipe.write(chunk)
                    waited += result.waited
                    closed = !result.written
                    if result.written { delivered += chunk.count }
                    return result.written
                }
                state.withLock { $0.retrying = nil }
                return (delivered, max(0, transfer.seconds - waited), retries)
            } catch {
                if closed || abort.isRaised { throw .aborted(url: url.absoluteString) }
                if case .rangeNotSupported = error, rangesWork {
                    rangesWork = false
                    continue
                }
                guard error.isTransient else { throw error }
                let now = NetworkWatch.now()
                let since = failingSince ?? now
                failingSince = since
                let failing = Double(now - since) / 1e9
                guard failing < giveUpAfter else { throw error }
                state.withLock { $0.retrying = error }
                retries += 1
                logger.info("HLS segment retry \(retries) after: \(error)")
                // 0.25 s, 0.5 s, 1 s, then every 2 s, the last attempt at the give-up time; woken
                // early by stop().
                let pause = min(2.0, 0.25 * pow(2, Double(min(retries - 1, 4))), giveUpAfter - failing)
                let until = NetworkWatch.now() + UInt64(pause * 1e9)
                while NetworkWatch.now() < until && !abort.isRaised { usleep(10_000) }
                if abort.isRaised { throw .aborted(url: url.absoluteString) }
            }
        }
    }
}
