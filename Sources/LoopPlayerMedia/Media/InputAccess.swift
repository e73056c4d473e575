import CFFmpeg
import Foundation
import Synchronization
import LoopPlayerCore

/// How FFmpeg may open a source by URL: the protocols it may use (the source policy's whitelist
/// for the source's kind), the demuxers (never one that opens other resources itself: FFmpeg's
/// hls, dash, concat and imf demuxers would follow what a file names), and for network sources
/// the stall limit (`rw_timeout`), FFmpeg's own reconnects inside one body, and redirects.
package struct InputAccess: Sendable, Equatable {
    package var protocolWhitelist: String
    /// Seconds without data before FFmpeg's read fails (network sources); nil for files.
    package var stallTimeout: Double?
    /// Redirects FFmpeg follows (network sources): 0 when the app restricts hosts, since FFmpeg
    /// follows them before anyone could judge where they lead.
    package var maxRedirects: Int?

    package static let localFile = InputAccess(protocolWhitelist: "file")

    /// The access for a source of `kind` under `options`.
    package static func forSource(_ kind: SourceKind, options: NetworkOptions) -> InputAccess {
        switch kind {
        case .localMedia, .localPlaylist:
            return .localFile
        case .remote, .other:
            var protocols = SourcePolicy.protocolWhitelist(for: kind)
            // A scheme the app allowed for its own sources (rtsp, rtmp…) runs on these transports.
            if case .other = kind { protocols += ",tcp,udp,tls,rtp,srtp" }
            return InputAccess(protocolWhitelist: protocols,
                               stallTimeout: options.effectiveStallTimeout,
                               maxRedirects: options.allowedSources.hosts == nil ? nil : 0)
        }
    }

    package func apply(to options: inout OpaquePointer?) {
        av_dict_set(&options, "protocol_whitelist", protocolWhitelist, 0)
        av_dict_set(&options, "format_whitelist", Self.safeFormats, 0)
        guard let stallTimeout else { return }
        av_dict_set(&options, "rw_timeout", String(Int64(stallTimeout * 1_000_000)), 0)
        // A connection lost inside the body is taken up again by FFmpeg with a Range request, at
        // most about a second of its own tries (the demuxer's reopen covers longer outages).
        av_dict_set(&options, "reconnect", "1", 0)
        av_dict_set(&options, "reconnect_on_network_error", "1", 0)
        av_dict_set(&options, "reconnect_delay_max", "1", 0)
        av_dict_set(&options, "user_agent", "LoopPlayer", 0)
        av_dict_set(&options, "icy", "0", 0)
        if let maxRedirects { av_dict_set(&options, "max_redirects", String(maxRedirects), 0) }
    }

    /// Every demuxer FFmpeg has except those that open further resources named inside the data.
    package static let safeFormats: String = {
        let refused: Set<String> = ["hls", "applehttp", "dash", "concat", "imf"]
        var names: [String] = []
        var opaque: UnsafeMutableRawPointer?
        while let format = av_demuxer_iterate(&opaque) {
            let list = String(cString: format.pointee.name).split(separator: ",").map(String.init)
            if list.contains(where: refused.contains) { continue }
            names += list
        }
        return names.joined(separator: ",")
    }()

    /// Failures that come from the network (worth another try) rather than from the media.
    package static func isNetworkFailure(_ code: Int32) -> Bool {
        if HTTPErrorStatus(ffmpegCode: code) == .serverError { return true }
        let transient: [Int32] = [EIO, ETIMEDOUT, ECONNREFUSED, ECONNRESET, ECONNABORTED, ENETUNREACH, EHOSTUNREACH,
                                  ENETDOWN, EPIPE, EAGAIN, ENOTCONN, EHOSTDOWN]
        return transient.contains(-code) || code == HLSStreamReader.averrorExit
    }
}

/// What FFmpeg's interrupt callback checks for one demuxer: the pipeline's abort flag, and a
/// deadline the demuxer sets around network reads, so nothing FFmpeg does on its own (its
/// reconnects, a stalled server) outlasts the give-up time.
package final class InputInterrupt: Sendable {
    package let abort: AbortFlag
    /// Nanoseconds on the monotonic clock; `Int64.max` for none.
    private let deadline = Atomic<Int64>(.max)
    private let fired = Atomic<Bool>(false)

    package init(abort: AbortFlag) { self.abort = abort }

    /// Reads interrupt at `seconds` (monotonic); nil: no deadline.
    package func setDeadline(_ seconds: Double?) {
        fired.store(false, ordering: .relaxed)
        deadline.store(seconds.map { Int64(($0 * 1e9).rounded()) } ?? .max, ordering: .relaxed)
    }

    /// The deadline interrupted a read.
    package var deadlinePassed: Bool { fired.load(ordering: .relaxed) }

    package func shouldInterrupt() -> Bool {
        if abort.isRaised { return true }
        let limit = deadline.load(ordering: .relaxed)
        guard limit != .max, Int64((MonotonicCondition.now * 1e9).rounded()) >= limit else { return false }
        fired.store(true, ordering: .relaxed)
        return true
    }
}
