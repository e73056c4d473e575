import CFFmpeg
import Foundation
import Synchronization
import LoopPlayerCore

/// HLS segments fetched ahead by a thread and handed to libavformat as one continuous byte stream
/// (the HLS source's lower half; `HLSSession` is the upper half that decides what to fetch).
///
/// ```swift
/// let stream = HLSByteStream(fetcher: HTTPFetcher()) { index, previous in
///     index < media.segments.count ? HLSByteStream.Segment(media.segments[index], variant: 0) : nil
/// }
/// let reader = stream.makeReader()          // one AVIOContext per container
/// var format = avformat_alloc_context()
/// format.pointee.pb = reader.ioContext
/// format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
/// avformat_open_input(&format, nil, av_find_input_format("mpegts"), nil)
/// … av_read_frame …
/// avformat_close_input(&format)   // before the reader goes away
/// stream.stop()
/// ```
/// - `schedule(index, previous)` runs on the fetch thread and names segment `index` (nil: the
///   end; a thrown error ends the stream with it). A variant switch is simply a segment from
///   another variant: with aligned segments and the same timestamps in every variant (what
///   encoders produce for ABR), MPEG-TS continues seamlessly. A segment with another init section
///   (fMP4), or one that `restartsContainer`, is preceded by a boundary and its init section: the
///   reader of the container before it ends there, and a new reader (a new demuxer) continues.
/// - The pipe holds at most `capacity` bytes: the fetcher waits for the demuxer (time spent
///   waiting is subtracted from the throughput measurement, and is not a stall).
/// - A transient failure (server gone, stall, 5xx, a broken body) is retried with backoff and the
///   segment resumed where it broke (a Range request; from the start, skipping what was already
///   delivered, when the server refuses ranges) until `giveUpAfter` seconds of failing; then, or at
///   once for a permanent failure (404…), the demuxer reads the bytes it has and then an error.
/// - With a `SegmentCache`, segments are kept and later read from memory (a VOD loop).
package final class HLSByteStream: Sendable {
    /// One segment to fetch.
    package struct Segment: Sendable, Equatable {
        package var url: URL
        package var range: HLSByteRange?
        package var initSection: HLSInitSection?
        /// Which variant it belongs to (the caller's numbering).
        package var variant: Int
        package var sequenceNumber: Int
        package var duration: Double
        /// The pass of a VOD loop it is read in (0 for a live stream).
        package var pass = 0
        /// Starts a new container even with the init section already sent (an fMP4 loop's wrap:
        /// the mov demuxer is not made to see its fragments' times go back).
        package var restartsContainer = false
        /// May be kept in the segment cache (VOD).
        package var cacheable = true

        package init(url: URL, range: HLSByteRange? = nil, initSection: HLSInitSection? = nil, variant: Int,
             sequenceNumber: Int, duration: Double, pass: Int = 0) {
            self.url = url
            self.range = range
            self.initSection = initSection
            self.variant = variant
            self.sequenceNumber = sequenceNumber
            self.duration = duration
            self.pass = pass
        }

        package init(_ segment: HLSSegment, variant: Int, pass: Int = 0) {
            self.init(url: segment.url, range: segment.byteRange, initSection: segment.initSection, variant: variant,
                      sequenceNumber: segment.sequenceNumber, duration: segment.duration, pass: pass)
        }
    }

    /// A segment as it started to arrive: where a packet's stream position maps to.
    package struct Placed: Sendable, Equatable {
        package var segment: Segment
        /// Its place in the schedule (0, 1, 2…).
        package var index: Int
        /// Stream position of its first byte (its init section, if one was sent, comes before).
        fileprivate var streamOffset: Int64
    }

    /// A segment delivered into the stream.
    package struct Delivered: Sendable, Equatable {
        package var segment: Segment
        package var index: Int
        fileprivate var streamOffset: Int64
        package var byteCount: Int
        /// Time on the network, waits for the demuxer excluded: what the variant selector wants.
        package var networkSeconds: Double
        /// Failed attempts before it arrived.
        package var retries: Int
        /// Read from the segment cache: nothing was measured.
        package var fromCache = false
    }

    package typealias Schedule = @Sendable (_ index: Int, _ previous: Delivered?) throws(HLSLoadError) -> Segment?

    /// Delivered segments remembered for inspection (older ones are forgotten: a kiosk runs for days).
    fileprivate static let historyLimit = 512

    package let giveUpAfter: Double
    private let fetcher: ResourceFetcher
    private let schedule: Schedule
    private let pipe: SegmentPipe
    /// Raised by `stop()`; the fetch thread's backoff waits wake on it.
    package let abort: AbortFlag
    private let cache: SegmentCache?
    private let thread = Mutex<WorkerThread?>(nil)
    private struct State {
        var placed: [Placed] = []
        var delivered: [Delivered] = []
        var deliveredCount = 0
        var retrying: FetchError?
        var failure: HLSLoadError?
    }
    private let state = Mutex(State())

    package init(fetcher: ResourceFetcher, capacity: Int = 4 << 20, giveUpAfter: Double = 30, cache: SegmentCache? = nil,
         abort: AbortFlag = AbortFlag(), schedule: @escaping Schedule) {
        self.fetcher = fetcher
        self.schedule = schedule
        self.giveUpAfter = giveUpAfter
        self.cache = cache
        self.abort = abort
        pipe = SegmentPipe(capacity: capacity)
        let worker = WorkerThread(name: "lp-hls-fetch") { [self] in fetchLoop() }
        // Without its thread nothing would ever arrive: the demuxer's reads end at once instead.
        if !worker.started { pipe.close() }
        thread.withLock { $0 = worker }
    }

    package convenience init(fetcher: HTTPFetcher, capacity: Int = 4 << 20, giveUpAfter: Double = 30,
                     schedule: @escaping Schedule) {
        self.init(fetcher: ResourceFetcher(http: fetcher), capacity: capacity, giveUpAfter: giveUpAfter, schedule: schedule)
    }

    deinit { stop() }

    /// A reader for the next container: the `AVIOContext` a demuxer reads from, starting at the
    /// stream position where the previous reader stopped.
    package func makeReader() -> HLSStreamReader { HLSStreamReader(stream: self, pipe: pipe) }

    /// The last delivered segments (at most `historyLimit`), in order.
    package var delivered: [Delivered] { state.withLock { $0.delivered } }
    /// How many segments were delivered in all.
    fileprivate var deliveredCount: Int { state.withLock { $0.deliveredCount } }
    /// The failure being retried now, if any.
    package var retrying: FetchError? { state.withLock { $0.retrying } }
    /// The failure that ended the stream, if any.
    package var failure: HLSLoadError? { state.withLock { $0.failure } }
    /// Bytes fetched and not yet read by the demuxer.
    package var bufferedBytes: Int { pipe.buffered }

    /// The segment holding stream position `position` (a packet's `pos` plus its reader's start),
    /// whether or not it has arrived completely.
    package func segment(at position: Int64) -> Placed? {
        state.withLock { state in
            // Binary search: the last segment starting at or before `position`.
            var low = 0, high = state.placed.count
            while low < high {
                let middle = (low + high) / 2
                if state.placed[middle].streamOffset <= position { low = middle + 1 } else { high = middle }
            }
            return low > 0 ? state.placed[low - 1] : nil
        }
    }

    /// Wakes the demuxer if it waits for bytes (a seek wants it back); its read fails once.
    package func interruptRead() { pipe.interruptRead() }

    /// Stops fetching and wakes the demuxer without waiting for the fetch thread (any thread).
    package func cancel() {
        abort.raise()
        pipe.close()
    }

    /// Stops fetching, wakes the demuxer (its reads then fail with `AVERROR_EXIT`) and waits for
    /// the fetch thread. Idempotent.
    package func stop() {
        cancel()
        thread.withLock { thread in
            defer { thread = nil }
            return thread
        }?.join()
    }

    /// Seconds a reader waits for bytes before it gives up on its own (a backstop: the fetch thread
    /// gives up first, at `giveUpAfter`).
    package var readPatience: Double { giveUpAfter + fetcher.http.options.stallTimeout + 5 }

    // MARK: Fetch thread

    private func fetchLoop() {
        var index = 0
        var previous: Delivered?
        var initSent: HLSInitSection?
        while !abort.isRaised {
            let next: Segment?
            do { next = try schedule(index, previous) } catch {
                if abort.isRaised { return }
                return end(with: error)
            }
            guard let segment = next else { break }
            do {
                if let initSection = segment.initSection, initSection != initSent || segment.restartsContainer {
                    pipe.markBoundary()
                    _ = try deliver(initSection.url, range: initSection.byteRange, segment: segment)
                    initSent = initSection
                }
                let offset = pipe.totalWritten
                place(Placed(segment: segment, index: index, streamOffset: offset))
                let (bytes, seconds, retries, cached) = try deliver(segment.url, range: segment.range, segment: segment)
                let done = Delivered(segment: segment, index: index, streamOffset: offset, byteCount: bytes,
                                     networkSeconds: seconds, retries: retries, fromCache: cached)
                state.withLock { state in
                    state.delivered.append(done)
                    state.deliveredCount += 1
                    if state.delivered.count > Self.historyLimit { state.delivered.removeFirst(state.delivered.count / 2) }
                }
                previous = done
                index += 1
            } catch {
                if case .aborted = error { return }
                return end(with: .fetch(error))
            }
        }
        pipe.finish()
    }

    private func end(with error: HLSLoadError) {
        logger.notice("HLS stream failed: \(error)")
        state.withLock { $0.failure = error; $0.retrying = nil }
        pipe.fail(error)
    }

    /// Records where a segment starts, forgetting segments the demuxer is long past.
    private func place(_ placed: Placed) {
        let consumed = pipe.totalRead
        state.withLock { state in
            state.placed.append(placed)
            // The demuxer asks about positions a little behind what it read (its own buffers and one
            // PES): segments entirely more than 8 MiB behind are never asked about again.
            var drop = 0
            while drop + 1 < state.placed.count, state.placed[drop + 1].streamOffset < consumed - (8 << 20) { drop += 1 }
            if drop > 0 { state.placed.removeFirst(drop) }
        }
    }

    /// Seconds of the server's time one attempt at a segment may take (waits for the demuxer do
    /// not count): a link that cannot bring it in twice its duration, plus a stall limit for the
    /// answer, cannot keep the picture going, however steadily it trickles. The attempt then fails
    /// as timed out and is retried (resumed) like a stall, until `giveUpAfter`. Once the segment is
    /// failing, an attempt ends at the give-up time (the last one, which starts there, gets a
    /// second, as a progressive source's does). Every attempt has it, ranges or not: bytes
    /// trickling in are not a complete segment.
    private func attemptDeadline(_ segment: Segment, failingSince: Double?) -> Double {
        let whole = 2 * segment.duration + fetcher.http.options.stallTimeout
        guard let failingSince else { return whole }
        return min(whole, max(failingSince + giveUpAfter - MonotonicCondition.now, 1))
    }

    /// Fetches `url` (or `range` of it) into the pipe, from the cache when it has it, retrying
    /// transient failures and resuming where the bytes stopped. Returns the bytes, the network
    /// seconds of the last attempt, the number of retries and whether it came from the cache.
    private func deliver(_ url: URL, range: HLSByteRange?, segment: Segment) throws(FetchError) -> (Int, Double, Int, Bool) {
        let key = SegmentCache.Key(url: url, range: range)
        if let cached = cache?.bytes(for: key) {
            let written = cached.withUnsafeBytes { pipe.write($0) }.written
            guard written else { throw .aborted(url: url.absoluteString) }
            return (cached.count, 0, 0, true)
        }
        var kept: [UInt8]? = segment.cacheable && cache?.accepts(variant: segment.variant) == true ? [] : nil
        var delivered = 0
        var retries = 0
        var failingSince: Double?
        var rangesWork = true
        while true {
            var waited = 0.0
            // Without ranges a retry starts over and drops what the pipe already has.
            var skip = rangesWork ? 0 : delivered
            let resumeAt = rangesWork ? delivered : 0
            var closed = false
            do {
                // Without ranges a retry starts over, and is bounded all the same: the give-up time
                // counts from the segment's first failure and only a whole segment ends it.
                let transfer = try fetcher.fetch(url, range: range, resumeAt: resumeAt,
                                                 timeout: attemptDeadline(segment, failingSince: failingSince),
                                                 abort: abort) { chunk in
                    var chunk = chunk
                    if skip > 0 {
                        let dropped = min(skip, chunk.count)
                        skip -= dropped
                        chunk = UnsafeRawBufferPointer(rebasing: chunk[dropped...])
                    }
                    let result = pipe.write(chunk)
                    waited += result.waited
                    closed = !result.written
                    if result.written {
                        delivered += chunk.count
                        if let cache, kept != nil, !cache.canHold(delivered) {
                            kept = nil
                            cache.refuse(variant: segment.variant)
                        }
                        kept?.append(contentsOf: chunk)
                    }
                    return result.written
                }
                state.withLock { $0.retrying = nil }
                if let kept, let cache { cache.store(kept, for: key, variant: segment.variant) }
                return (delivered, max(0, transfer.seconds - waited), retries, false)
            } catch {
                if closed || abort.isRaised { throw .aborted(url: url.absoluteString) }
                if case .rangeNotSupported = error, rangesWork {
                    rangesWork = false
                    continue
                }
                guard error.isTransient else { throw error }
                let now = MonotonicCondition.now
                let since = failingSince ?? now
                failingSince = since
                let failing = now - since
                guard failing < giveUpAfter else { throw gaveUp(after: error) }
                state.withLock { $0.retrying = error }
                retries += 1
                logger.info("HLS segment retry \(retries) after: \(error)")
                // 0.25 s, 0.5 s, 1 s, then every 2 s, the last attempt at the give-up time; woken
                // early by stop().
                let pause = min(2.0, 0.25 * pow(2, Double(min(retries - 1, 4))), giveUpAfter - failing)
                guard abort.sleep(until: MonotonicCondition.now + pause) else { throw .aborted(url: url.absoluteString) }
            }
        }
    }
}

extension HLSByteStream {
    /// The error a segment failing for the whole give-up time ends with: attempts that timed out
    /// say the give-up time (the last one's own time is whatever was left of it).
    fileprivate func gaveUp(after error: FetchError) -> FetchError {
        guard case let .timedOut(url, _) = error else { return error }
        return .timedOut(url: url, seconds: giveUpAfter)
    }
}

/// One container's view of an `HLSByteStream`: the single owner of the `AVIOContext` one demuxer
/// reads through. It starts where the previous reader stopped and ends at the next boundary (an
/// fMP4 variant switch), so the demuxer that follows starts exactly at the new container.
// @unchecked: used by the demux thread only (FFmpeg calls `readPacket` on the thread that reads).
package final class HLSStreamReader: @unchecked Sendable {
    /// Kept alive while FFmpeg may read.
    package let stream: HLSByteStream
    private let pipe: SegmentPipe
    /// Stream position of this reader's first byte: add it to a packet's `pos`.
    fileprivate let startOffset: Int64
    private var context: UnsafeMutablePointer<AVIOContext>?
    /// The reader stopped at a boundary: a new container follows (not the end of the stream).
    package private(set) var reachedBoundary = false
    /// A read was interrupted (a seek or stop): its error is not the stream's.
    package private(set) var wasInterrupted = false

    fileprivate init(stream: HLSByteStream, pipe: SegmentPipe) {
        self.stream = stream
        self.pipe = pipe
        startOffset = pipe.totalRead
        let size: Int32 = 64 << 10
        if let buffer = av_malloc(Int(size)) {
            context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 0,
                                         Unmanaged.passUnretained(self).toOpaque(), Self.readPacket, nil, nil)
            if context == nil { av_free(buffer) }
        }
    }

    deinit {
        if let context { av_free(context.pointee.buffer) }
        avio_context_free(&context)
    }

    /// The context to set as an `AVFormatContext`'s `pb` (with `AVFMT_FLAG_CUSTOM_IO`); nil if
    /// FFmpeg could not allocate it. Close the format context before the reader goes away.
    package var ioContext: UnsafeMutablePointer<AVIOContext>? { context }

    /// The segment a packet read through this reader comes from.
    package func segment(ofPacketAt position: Int64) -> HLSByteStream.Placed? {
        stream.segment(at: startOffset + max(0, position))
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
        if reachedBoundary { return FFmpegError.endOfFile }
        switch pipe.read(into: buffer, maximum: Int(size), deadline: MonotonicCondition.now + stream.readPatience) {
        case let .bytes(count): return Int32(count)
        case .boundary:
            reachedBoundary = true
            return FFmpegError.endOfFile
        case .end: return FFmpegError.endOfFile
        case .failed: return -EIO
        case .timedOut: return -ETIMEDOUT
        case .interrupted, .closed:
            wasInterrupted = true
            return Self.averrorExit
        }
    }

    private static let readPacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, buffer, size in
        guard let opaque, let buffer else { return FFmpegError.endOfFile }
        return Unmanaged<HLSStreamReader>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: size)
    }

    /// FFmpeg's `AVERROR_EXIT` (`FFERRTAG('E','X','I','T')`), which Swift cannot import.
    package static let averrorExit = -Int32(bitPattern: 0x45 | 0x58 << 8 | 0x49 << 16 | 0x54 << 24)
}
