import CFFmpeg
import Foundation
import Synchronization
import LoopPlayerCore

/// How `HTTPFetcher` fetches.
package struct HTTPFetchOptions: Sendable {
    /// A connection that delivers nothing (no connection, no headers, no body byte) for this long
    /// is stalled.
    package var stallTimeout = 10.0
    fileprivate var userAgent = "LoopPlayer"
    /// Lets FFmpeg's http protocol reconnect once a body breaks off and resume it with a Range
    /// request (`reconnect`, `reconnect_on_network_error`); only for servers that answer ranges.
    package var resumeBrokenBodies = false
    /// Redirects FFmpeg follows (its `max_redirects`). FFmpeg follows them before we see the
    /// final URL, so with a host allow list, 0 guarantees no connection outside it (a redirect
    /// then fails the fetch).
    package var maxRedirects = 8
    /// The most bytes one fetch keeps.
    package var maxBytes = 256 << 20
    /// Judges the URL and the URL any redirect led to.
    package var policy = SourcePolicy()
    /// The clock the stall limit and the deadline are measured on (tests move a virtual one).
    package var clock: any PlaybackClock = MonotonicClock()

    package init() {}
}

/// Fetches whole resources or byte ranges over http(s) with FFmpeg's avio, timed for the variant
/// selector and bounded in time: an abort flag, a deadline and a stall limit, all checked by
/// FFmpeg's interrupt callback on the monotonic clock while it waits on the network.
///
/// ```swift
/// let fetcher = HTTPFetcher()
/// let segment = try fetcher.fetch(url, range: HLSByteRange(offset: 0, length: 65_536), timeout: 10)
/// selector.record(bytes: segment.byteCount, seconds: segment.seconds)
/// ```
/// Blocking: call it on a worker thread. Only http and https are opened (`protocol_whitelist`),
/// and only URLs the policy allows; a redirect to anywhere else is refused before the body is read.
package final class HTTPFetcher: BodyFetcher {
    package let options: HTTPFetchOptions

    package init(options: HTTPFetchOptions = HTTPFetchOptions()) {
        self.options = options
    }

    /// What one fetch measured.
    package struct Transfer: Sendable, Equatable {
        /// The URL the body came from (after redirects).
        package var finalURL: URL
        package var byteCount: Int
        /// From the request to the last byte.
        package var seconds: Double
        /// From the request to the headers.
        package var secondsToHeaders: Double

        package var bitsPerSecond: Double { seconds > 0 ? Double(byteCount) * 8 / seconds : 0 }
    }

    /// Streams the body of `url` (or of `range` of it) to `consume` as it arrives; `consume`
    /// returns false to stop early (the fetch then ends as `aborted`). `resumeAt` skips that many
    /// bytes of the body (or range) with a Range request: how a broken transfer continues.
    ///
    /// `timeout` bounds the server's time: time spent in `consume` counts neither toward it nor
    /// as a stall.
    package func fetch(_ url: URL, range: HLSByteRange? = nil, resumeAt skipped: Int = 0, timeout: Double? = nil,
               abort: AbortFlag? = nil, maxBytes: Int? = nil,
               consume: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> Transfer {
        let name = url.absoluteString
        if case let .refuse(refusal) = options.policy.check(url, from: .remote) { throw .refused(refusal) }
        let limit = maxBytes ?? options.maxBytes
        let watch = NetworkWatch(abort: abort, timeout: timeout, stallTimeout: options.stallTimeout, clock: options.clock)
        let start = (range?.offset ?? 0) + skipped
        let stream = try open(url, from: start, to: range?.end, watch: watch)
        let headers = watch.elapsed
        if let location = stream.location, location != name {
            let landed = URL(string: location) ?? url
            if case let .refuse(refusal) = options.policy.check(landed, from: .remote) { throw .refused(refusal) }
        }
        // What is left to come: to the range's end, or to the end of the resource.
        let end = range.map { range in stream.size.map { min(range.end, $0) } ?? range.end } ?? stream.size
        let expected = end.map { max(0, $0 - start) }
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let wanted = expected.map { min(buffer.count, $0 - received) } ?? buffer.count
            if wanted <= 0 { break }
            let count = buffer.withUnsafeMutableBufferPointer { stream.readPartial(into: $0, maximum: wanted) }
            if count == FFmpegError.endOfFile { break }
            if count < 0 { throw failure(count, url: name, watch: watch, received: received, expected: expected) }
            if count == 0 { continue }
            watch.progressed()
            received += Int(count)
            guard received <= limit else { throw .tooLarge(url: name, limit: limit) }
            let consuming = watch.now()
            let keepGoing = buffer.withUnsafeBytes { consume(UnsafeRawBufferPointer(rebasing: $0[0..<Int(count)])) }
            guard keepGoing else { throw .aborted(url: name) }
            // A slow consumer is neither a stalled server nor a slow one.
            watch.excuse(nanoseconds: watch.now() &- consuming)
            watch.progressed()
        }
        if let expected, received < expected { throw .truncated(url: name, expected: expected, received: received) }
        return Transfer(finalURL: stream.location.flatMap(URL.init(string:)) ?? url, byteCount: received,
                        seconds: watch.elapsed, secondsToHeaders: headers)
    }

    // MARK: Opening

    /// Opens `url` for the bytes from `start` to `end` (exclusive; nil: the end of the resource).
    private func open(_ url: URL, from start: Int, to end: Int?, watch: NetworkWatch) throws(FetchError) -> AVIOStream {
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        av_dict_set(&dictionary, "protocol_whitelist", SourcePolicy.protocolWhitelist(for: .remote), 0)
        // A backstop for FFmpeg's own waits; the interrupt callback normally ends a stall first.
        av_dict_set(&dictionary, "rw_timeout", String(Int64((options.stallTimeout + 1) * 1_000_000)), 0)
        av_dict_set(&dictionary, "user_agent", options.userAgent, 0)
        av_dict_set(&dictionary, "icy", "0", 0)
        av_dict_set(&dictionary, "max_redirects", String(options.maxRedirects), 0)
        if start > 0 { av_dict_set(&dictionary, "offset", String(start), 0) }
        if let end { av_dict_set(&dictionary, "end_offset", String(end), 0) }
        if options.resumeBrokenBodies {
            av_dict_set(&dictionary, "reconnect", "1", 0)
            av_dict_set(&dictionary, "reconnect_on_network_error", "1", 0)
            av_dict_set(&dictionary, "reconnect_delay_max", "2", 0)
        }
        let (stream, code) = AVIOStream.open(url.absoluteString, options: &dictionary, watch: watch)
        if let stream { return stream }
        // FFmpeg's http fails an offset request answered without Content-Range with -1.
        if start > 0, code == -1 { throw .rangeNotSupported(url: url.absoluteString) }
        throw failure(code, url: url.absoluteString, watch: watch, received: nil, expected: nil)
    }

    // MARK: Errors

    /// The typed error for FFmpeg's `code`; `received` is nil before the body.
    private func failure(_ code: Int32, url: String, watch: NetworkWatch, received: Int?, expected: Int?) -> FetchError {
        switch watch.reason {
        case .abort: return .aborted(url: url)
        case .deadline: return .timedOut(url: url, seconds: watch.elapsed)
        case .stall: return .stalled(url: url, seconds: watch.sinceProgress)
        case .none: break
        }
        if let status = HTTPErrorStatus(ffmpegCode: code) { return .httpStatus(url: url, status: status) }
        let cause = FFmpegError(code: code)
        // rw_timeout reports EIO (or ETIMEDOUT) after the stall limit.
        if (code == -EIO || code == -ETIMEDOUT) && watch.sinceProgress >= options.stallTimeout {
            return .stalled(url: url, seconds: watch.sinceProgress)
        }
        guard let received else {
            // The URL passed the policy, so FFmpeg's EINVAL at the protocol's open is where it led:
            // a redirect to a protocol outside the whitelist (file://…), a refusal, not a
            // connection problem (an address FFmpeg cannot use, a port 0, says the same).
            if code == -EINVAL {
                return .refused(SourceRefusal(target: url, reason: "it redirects to a resource that is not http(s)"))
            }
            return .connectionFailed(url: url, cause: cause)
        }
        // FFmpeg's http says EIO ("Stream ends prematurely") when a body ends short of its length.
        if code == -EIO, let expected, received < expected { return .truncated(url: url, expected: expected, received: received) }
        return .connectionLost(url: url, received: received, cause: cause)
    }
}

extension HTTPErrorStatus {
    /// FFmpeg's `AVERROR_HTTP_*` codes (`FFERRTAG(0xF8, '4', '0', '4')`…), which Swift cannot import.
    package init?(ffmpegCode code: Int32) {
        func tag(_ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar) -> Int32 {
            -Int32(bitPattern: 0xF8 | UInt32(b.value) << 8 | UInt32(c.value) << 16 | UInt32(d.value) << 24)
        }
        switch code {
        case tag("4", "0", "0"): self = .badRequest
        case tag("4", "0", "1"): self = .unauthorized
        case tag("4", "0", "3"): self = .forbidden
        case tag("4", "0", "4"): self = .notFound
        case tag("4", "X", "X"): self = .otherClientError
        case tag("5", "X", "X"): self = .serverError
        default: return nil
        }
    }
}

/// The one owner of an `AVIOContext` opened for reading, and of the `NetworkWatch` its interrupt
/// callback reads: closing can still call the callback (TLS sends its close-notify through it), so
/// the watch lives exactly as long as the context, by construction.
private final class AVIOStream {
    private var context: UnsafeMutablePointer<AVIOContext>?
    private let watch: NetworkWatch

    private init(context: UnsafeMutablePointer<AVIOContext>, watch: NetworkWatch) {
        self.context = context
        self.watch = watch
    }

    /// The opened stream, or nil and FFmpeg's error code. A failed open has closed everything it
    /// opened before it returns, so `watch` need not outlive this call then.
    static func open(_ url: String, options: inout OpaquePointer?, watch: NetworkWatch) -> (AVIOStream?, Int32) {
        var context: UnsafeMutablePointer<AVIOContext>?
        let status = withExtendedLifetime(watch) { () -> Int32 in
            var interrupt = AVIOInterruptCB(callback: networkInterrupt, opaque: Unmanaged.passUnretained(watch).toOpaque())
            return avio_open2(&context, url, AVIO_FLAG_READ, &interrupt, &options)
        }
        guard status >= 0, let context else { return (nil, status < 0 ? status : -EIO) }
        return (AVIOStream(context: context, watch: watch), 0)
    }

    deinit { avio_closep(&context) }

    /// Reads what has arrived (at least one byte, waiting for it), up to `maximum` bytes; FFmpeg's
    /// result (a count, or an error code).
    func readPartial(into buffer: UnsafeMutableBufferPointer<UInt8>, maximum: Int) -> Int32 {
        avio_read_partial(context, buffer.baseAddress, Int32(min(maximum, buffer.count)))
    }

    /// The resource's total size (Content-Length, or the total of a Content-Range), when known.
    var size: Int? {
        let size = avio_size(context)
        return size > 0 ? Int(size) : nil
    }

    /// The URL FFmpeg ended up reading after redirects (its http protocol's `location`).
    var location: String? {
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(context, "location", AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return nil }
        defer { av_free(value) }
        return String(cString: value)
    }
}
