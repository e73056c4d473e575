import Foundation
import LoopPlayerCore

/// Why a network fetch failed. Every case names the URL.
///
/// ```swift
/// do { _ = try fetcher.fetch(url) }
/// catch { print(error) }   // "http://127.0.0.1:8080/v720/seg002.ts: HTTP 404 Not Found"
/// ```
package enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with an error status.
    case httpStatus(url: String, status: HTTPErrorStatus)
    /// The whole fetch took longer than its deadline.
    case timedOut(url: String, seconds: Double)
    /// Nothing arrived for `seconds` (connect, headers or body): the server stalled.
    case stalled(url: String, seconds: Double)
    /// The body ended cleanly before `expected` bytes (Content-Length or the range asked for).
    case truncated(url: String, expected: Int, received: Int)
    /// The connection broke while the body was arriving (reset, server gone).
    case connectionLost(url: String, received: Int, cause: FFmpegError)
    /// No connection could be made, or the request failed before any answer (refused, no route,
    /// unknown host).
    case connectionFailed(url: String, cause: FFmpegError)
    /// A byte range was asked for and the server sent the whole resource instead.
    case rangeNotSupported(url: String)
    /// More than `limit` bytes: refused rather than kept.
    case tooLarge(url: String, limit: Int)
    /// The source policy refused the URL or the URL a redirect led to.
    case refused(SourceRefusal)
    /// The fetch was cancelled (player stopping).
    case aborted(url: String)
    /// A file named by a local playlist cannot be read (missing, not a file, unreadable).
    case localFile(url: String, reason: String)

    /// A short stable name, e.g. `httpStatus`.
    package var kind: String {
        switch self {
        case .httpStatus: "httpStatus"
        case .timedOut: "timedOut"
        case .stalled: "stalled"
        case .truncated: "truncated"
        case .connectionLost: "connectionLost"
        case .connectionFailed: "connectionFailed"
        case .rangeNotSupported: "rangeNotSupported"
        case .tooLarge: "tooLarge"
        case .refused: "refused"
        case .aborted: "aborted"
        case .localFile: "localFile"
        }
    }

    /// True for failures that may pass if tried again later (server down, stalled, 5xx, a broken
    /// body); false for answers that will not change by waiting (404, 403, refused, too large).
    package var isTransient: Bool {
        switch self {
        case let .httpStatus(_, status): status == .serverError
        // EINVAL: FFmpeg's http refused where a redirect led (file://…); waiting changes nothing.
        case let .connectionFailed(_, cause): cause.code != -EINVAL
        case .timedOut, .stalled, .truncated, .connectionLost: true
        case .rangeNotSupported, .tooLarge, .refused, .aborted, .localFile: false
        }
    }

    package var url: String {
        switch self {
        case let .httpStatus(url, _), let .timedOut(url, _), let .stalled(url, _), let .truncated(url, _, _),
             let .connectionLost(url, _, _), let .connectionFailed(url, _), let .rangeNotSupported(url),
             let .tooLarge(url, _), let .aborted(url), let .localFile(url, _):
            url
        case let .refused(refusal): refusal.target
        }
    }

    package var description: String {
        if case let .refused(refusal) = self { return refusal.description }
        return "\(url): \(reason)"
    }

    /// What went wrong, without the URL: "HTTP 404 Not Found".
    package var reason: String {
        switch self {
        case let .httpStatus(_, status): "HTTP \(status)"
        case let .timedOut(_, seconds): "no complete answer within \(Self.format(seconds)) s"
        case let .stalled(_, seconds): "the server sent nothing for \(Self.format(seconds)) s"
        case let .truncated(_, expected, received): "the body ended after \(received) of \(expected) bytes"
        case let .connectionLost(_, received, cause): "the connection broke after \(received) bytes: \(cause.message)"
        case let .connectionFailed(_, cause): "cannot connect: \(cause.message)"
        case .rangeNotSupported: "the server does not answer byte-range requests"
        case let .tooLarge(_, limit): "larger than \(limit) bytes"
        case let .refused(refusal): refusal.reason
        case .aborted: "cancelled"
        case let .localFile(_, reason): reason
        }
    }

    private static func format(_ seconds: Double) -> String {
        String(Double((seconds * 10).rounded()) / 10)
    }
}

/// The HTTP error status FFmpeg reports: exact for 400, 401, 403 and 404, otherwise its class
/// (FFmpeg 5.1's http protocol keeps no other code: `AVERROR_HTTP_OTHER_4XX`, `…_SERVER_ERROR`).
package enum HTTPErrorStatus: Sendable, Equatable, CustomStringConvertible {
    case badRequest, unauthorized, forbidden, notFound
    /// Another 4xx (405, 410, 429…).
    case otherClientError
    /// Any 5xx.
    case serverError

    /// The exact code when known.
    package var code: Int? {
        switch self {
        case .badRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .otherClientError, .serverError: nil
        }
    }

    package var description: String {
        switch self {
        case .badRequest: "400 Bad Request"
        case .unauthorized: "401 Unauthorized"
        case .forbidden: "403 Forbidden"
        case .notFound: "404 Not Found"
        case .otherClientError: "4xx client error"
        case .serverError: "5xx server error"
        }
    }
}
