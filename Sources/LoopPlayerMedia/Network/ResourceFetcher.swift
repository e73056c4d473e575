import Foundation
import LoopPlayerCore

/// Something that streams a resource's body (or a byte range of it) to `consume` as it arrives.
package protocol BodyFetcher: Sendable {
    func fetch(_ url: URL, range: HLSByteRange?, resumeAt skipped: Int, timeout: Double?, abort: AbortFlag?,
               maxBytes: Int?, consume: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> HTTPFetcher.Transfer
}

extension BodyFetcher {
    /// The body of `url` (or of `range` of it), collected.
    package func fetch(_ url: URL, range: HLSByteRange? = nil, timeout: Double? = nil, abort: AbortFlag? = nil,
               maxBytes: Int? = nil) throws(FetchError) -> (bytes: [UInt8], transfer: HTTPFetcher.Transfer) {
        var bytes: [UInt8] = []
        if let range { bytes.reserveCapacity(range.length) }
        let transfer = try fetch(url, range: range, resumeAt: 0, timeout: timeout, abort: abort, maxBytes: maxBytes) { chunk in
            bytes.append(contentsOf: chunk)
            return true
        }
        return (bytes, transfer)
    }
}

/// Fetches what an HLS presentation names: http(s) through `HTTPFetcher`, and the files a local
/// playlist names. The caller has judged the URL with the source policy first (a `file:` URL is
/// only ever fetched for a local playlist, inside its folder); `HTTPFetcher` judges http(s) URLs
/// and redirects again itself.
package struct ResourceFetcher: BodyFetcher {
    package let http: HTTPFetcher

    package init(http: HTTPFetcher) { self.http = http }

    /// Streams the body of `url` (or of `range` of it) to `consume`, from `resumeAt` bytes in.
    package func fetch(_ url: URL, range: HLSByteRange? = nil, resumeAt skipped: Int = 0, timeout: Double? = nil,
               abort: AbortFlag? = nil, maxBytes: Int? = nil,
               consume: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> HTTPFetcher.Transfer {
        guard url.isFileURL else {
            return try http.fetch(url, range: range, resumeAt: skipped, timeout: timeout, abort: abort, maxBytes: maxBytes,
                                  consume: consume)
        }
        return try LocalFileRead.read(url, range: range, resumeAt: skipped, abort: abort,
                                      maxBytes: maxBytes ?? http.options.maxBytes, consume: consume)
    }
}

/// Reads a local file (or a byte range of it) in 64 KiB pieces: the segments and playlists a local
/// playlist names.
package enum LocalFileRead {
    package static func read(_ url: URL, range: HLSByteRange?, resumeAt skipped: Int, abort: AbortFlag?, maxBytes: Int,
                     consume: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> HTTPFetcher.Transfer {
        let name = url.absoluteString
        let started = MonotonicCondition.now
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .localFile(url: name, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw .localFile(url: name, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        let start = (range?.offset ?? 0) + skipped
        let end = min(size, range?.end ?? size)
        if let range, range.end > size {
            throw .localFile(url: name, reason: "the byte range \(range) lies past the end (\(size) bytes)")
        }
        guard end - start <= maxBytes else { throw .tooLarge(url: name, limit: maxBytes) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var position = start
        while position < end {
            if abort?.isRaised == true { throw .aborted(url: name) }
            let wanted = min(buffer.count, end - position)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(position)) }
            guard count > 0 else {
                throw .localFile(url: name, reason: count == 0 ? "the file ended early" : String(cString: strerror(errno)))
            }
            position += count
            let keepGoing = buffer.withUnsafeBytes { consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            guard keepGoing else { throw .aborted(url: name) }
        }
        return HTTPFetcher.Transfer(finalURL: url, byteCount: end - start, seconds: MonotonicCondition.now - started,
                                    secondsToHeaders: 0)
    }
}
