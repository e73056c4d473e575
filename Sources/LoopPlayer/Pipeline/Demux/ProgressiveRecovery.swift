import CFFmpeg
import FFmpegSupport
import Foundation

/// Keeps a progressive network source (mp4 over http) open on the demux thread: the first open and
/// every reconnect are tried again with backoff while the failure is transient, until the give-up
/// time; a read that ended because the network failed is told apart from the media's end. It
/// reports what happened; the demuxer decides what the stream sees.
struct ProgressiveRecovery {
    /// How a first open ended when it did not fail.
    enum Opened {
        case input(MediaInput)
        /// Not media FFmpeg can read, but an HLS playlist (one without its extension).
        case playlist
    }

    /// How a reconnect ended.
    enum Reconnection {
        /// Reading continues on `input`, exactly after the last packet delivered.
        case resumed(MediaInput)
        /// The source came back as other media: fail now.
        case mediaChanged(PlayerError)
        /// The give-up time passed or the failure is not transient: what was read plays first.
        case gaveUp(PlayerError)
        /// The pipeline stopped meanwhile.
        case stopped
    }

    let location: MediaLocation
    let url: URL
    let kind: SourceKind
    let network: NetworkOptions
    let interrupt: InputInterrupt
    let abort: AbortFlag
    var sizeLimit = VideoSizeLimit.standard

    /// Protocols and network behaviour for FFmpeg's own opens of this source.
    var access: InputAccess { InputAccess.forSource(kind, options: network) }

    /// FFmpeg's http with the remote whitelist; transient failures (no server, 5xx, a stall) are
    /// tried again with backoff until the give-up time. A resource that turns out to be a playlist
    /// is said so (it goes to our HLS client).
    func open(audio choice: AudioTrackChoice) throws(PlayerError) -> Opened {
        let since = MonotonicCondition.now
        var attempt = 0
        while true {
            interrupt.setDeadline(since + network.timeout + 1)
            do {
                let input = try MediaInput.open(location, interrupt: interrupt, audio: choice, access: access, sizeLimit: sizeLimit)
                interrupt.setDeadline(nil)
                return .input(input)
            } catch {
                interrupt.setDeadline(nil)
                if case let .unreadableMedia(_, cause) = error.error, cause.code == FFmpegError.invalidData,
                   kind == .remote, looksLikePlaylist(url) {
                    return .playlist
                }
                attempt += 1
                guard error.isTransient, !abort.isRaised, let pause = backoff(attempt: attempt, since: since) else { throw error.error }
                logger.info("\(location): open failed (\(error.error.description)); trying again in \(pause) s")
                guard abort.sleep(until: MonotonicCondition.now + pause) else { throw error.error }
            }
        }
    }

    /// A network read may not outlast the give-up time counted from when the demuxer began waiting
    /// for a new packet (FFmpeg's own reconnects, a stall, a reconnect that re-reads old bytes); the
    /// second past it is the last attempt's, as for an open.
    func armReadDeadline(_ progressive: ProgressiveReading) {
        progressive.readBegins()
        interrupt.setDeadline(progressive.waitingSince + network.timeout + 1)
    }

    /// A read ended because the network failed, not because the media did: an error, an
    /// interrupted read, or an end before the resource's announced size.
    func connectionLost(_ status: Int32, _ input: MediaInput) -> Bool {
        if interrupt.deadlinePassed { return true }
        if status != FFmpegError.endOfFile { return InputAccess.isNetworkFailure(status) }
        guard let io = input.ioState else { return false }
        if io.error < 0 && io.error != FFmpegError.endOfFile { return true }
        return io.eofReached && io.size > 0 && io.position < io.size
    }

    /// Opens the source again after a lost connection, with backoff, until the give-up time
    /// counted from when the demuxer began waiting for a new packet; then continues exactly after
    /// the last packet delivered (the new input seeks to the keyframe before it and what was
    /// delivered is skipped), so the decoders see an unbroken sequence. A reconnect is not progress:
    /// only a packet past those delivered is, so a server that answers every time and never brings
    /// anything new (no ranges and `moov` at the end) meets the give-up time like one that is gone.
    func reconnect(_ progressive: ProgressiveReading, replacing current: MediaInput) -> Reconnection {
        let since = progressive.waitingSince
        var lastError: PlayerError?
        logger.notice("\(location): the connection was lost; reconnecting")
        while !abort.isRaised {
            progressive.reconnects += 1
            let attempt = progressive.reconnects
            guard let pause = backoff(attempt: attempt, since: since) else { break }
            guard abort.sleep(until: MonotonicCondition.now + pause) else { return .stopped }
            interrupt.setDeadline(since + network.timeout + 1)
            let choice = current.audioChoiceToKeep
            do {
                let input = try MediaInput.open(location, interrupt: interrupt, audio: choice, access: access, sizeLimit: sizeLimit)
                interrupt.setDeadline(nil)
                guard input.video.codecName == current.video.codecName, input.video.width == current.video.width,
                      input.video.height == current.video.height else {
                    return .mediaChanged(.networkError(url: location.description, reason: "the media changed while reconnecting"))
                }
                if let resume = progressive.lastTimestamps[input.timelineStream.pointee.index] {
                    _ = input.seek(toTimestamp: resume)
                    progressive.skipThrough = progressive.lastTimestamps
                }
                logger.notice("\(location): reconnected (attempt \(attempt)), \(String(format: "%.2f", MonotonicCondition.now - since)) s without a new packet")
                return .resumed(input)
            } catch {
                interrupt.setDeadline(nil)
                lastError = error.error
                guard error.isTransient else { break }
            }
        }
        if abort.isRaised { return .stopped }
        // Every attempt connected (or none was left): what failed is that nothing new came.
        return .gaveUp(lastError ?? .networkError(url: location.description, reason:
            "the connection was lost and nothing new arrived within \(String(format: "%.1f", network.timeout)) s"))
    }

    // MARK: Private

    /// The pause before attempt `attempt` (0.25, 0.5, 1, then 2 s; the last one at the give-up
    /// time), or nil once the give-up time counted from `since` has passed.
    private func backoff(attempt: Int, since: Double) -> Double? {
        let left = network.timeout - (MonotonicCondition.now - since)
        guard left > 0 else { return nil }
        return min(2.0, 0.25 * pow(2, Double(min(max(attempt, 1) - 1, 4))), left)
    }

    /// The first bytes of `url` start an HLS playlist (a playlist without its extension).
    private func looksLikePlaylist(_ url: URL) -> Bool {
        var head: [UInt8] = []
        let fetcher = HTTPFetcher(options: network.fetchOptions)
        _ = try? fetcher.fetch(url, timeout: network.effectiveStallTimeout, abort: abort) { chunk in
            head += chunk.prefix(16 - head.count)
            return head.count < 10
        }
        let text = String(decoding: head.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }, as: UTF8.self)
        return text.hasPrefix("#EXTM3U")
    }
}

/// A progressive network source (mp4 over http) on the demux thread: what was delivered, so a
/// reopened input continues exactly after it.
final class ProgressiveReading {
    /// The last packet delivered per stream in this pass (dts, else pts; the stream's time base).
    private(set) var lastTimestamps: [Int32: Int64] = [:]
    /// After a reopen: packets at or before these were delivered already and are dropped.
    var skipThrough: [Int32: Int64]?
    /// When the demuxer began asking for a packet it has not had yet (monotonic): the give-up time
    /// is counted from there. Time spent waiting for the queues to take a packet (paused) is not.
    private var waitingFrom: Double?
    /// Reconnects since the last new packet: the backoff grows across them.
    var reconnects = 0

    var waitingSince: Double { waitingFrom ?? MonotonicCondition.now }

    /// A read for a new packet begins (the clock keeps running if none came since the last one).
    func readBegins() {
        if waitingFrom == nil { waitingFrom = MonotonicCondition.now }
    }

    /// A new packet came, or the media ended: the next read starts a new wait.
    func stopWaiting() {
        waitingFrom = nil
        reconnects = 0
    }

    /// A new pass or a seek: timestamps start over.
    func reset() {
        lastTimestamps.removeAll()
        skipThrough = nil
    }

    /// Records `packet`, or says it repeats what was delivered before a reopen (drop it).
    func admit(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        let index = packet.pointee.stream_index
        let stamp = packet.pointee.dts != noTimestamp ? packet.pointee.dts : packet.pointee.pts
        if var skip = skipThrough, let limit = skip[index] {
            if stamp != noTimestamp && stamp <= limit { return false }
            skip[index] = nil
            skipThrough = skip.isEmpty ? nil : skip
        }
        if stamp != noTimestamp { lastTimestamps[index] = stamp }
        // Progress: a packet past everything delivered, not a reconnect nor bytes read again.
        stopWaiting()
        return true
    }
}
