import CFFmpeg
import FFmpegSupport
import Foundation

/// Where a packet goes on the loop's timeline, and which HLS variant (and segment) it came from.
struct PacketPlacement {
    var pass: Int
    var variant: StreamVariant?
    /// The HLS segment's index in the stream's schedule.
    var segmentIndex: Int?
}

/// How a source is delivered: a file, a progressive network source (reopened after a lost
/// connection), or an HLS stream.
enum NetworkReading {
    case local
    case progressive(ProgressiveReading)
    case hls(HLSReading)
}

/// Why reading a source cannot go on.
enum ReadFailure: Error {
    /// The source is unusable: report it now.
    case fatal(PlayerError)
    /// The network failed: what was read plays first, then the source fails.
    case afterPlaying(PlayerError)
    /// A stop or a pending seek cut it short: nothing to report.
    case interrupted
}

/// Whether a packet goes on now.
enum PacketDisposition {
    case route(PacketPlacement)
    /// Keep it until the next pass's first picture packet (HLS).
    case hold(PacketPlacement)
    case drop
    /// The first picture packet of a later pass (HLS): the passes before it end, the packets
    /// held for it go first.
    case beginsPass(PacketPlacement)
    /// Looping was switched off while the next pass was being fetched (HLS): the media ends here.
    case endOfMedia
}

/// Reads one source's packets however they arrive, and moves it back to its start for the next
/// pass or to a seek's position. It owns the `MediaInput`, which a reconnect, a reopen, a new HLS
/// container or an HLS restart (a seek, a rewind) replaces; the demuxer decides what the stages
/// see. Demux thread only.
final class SourceReader {
    /// What a failed read means.
    enum ReadOutcome {
        /// The media's end (or the end of a pass).
        case endOfInput
        /// Reading goes on (on a new container, after a reconnect, or to take a pending seek).
        case resumed
        case failed(ReadFailure)
    }

    private(set) var input: MediaInput
    let network: NetworkReading
    private let location: MediaLocation
    private let interrupt: InputInterrupt
    private let recovery: ProgressiveRecovery

    init(input: MediaInput, network: NetworkReading, location: MediaLocation, interrupt: InputInterrupt,
         recovery: ProgressiveRecovery) {
        self.input = input
        self.network = network
        self.location = location
        self.interrupt = interrupt
        self.recovery = recovery
    }

    var isHLS: Bool {
        if case .hls = network { return true }
        return false
    }

    /// Reads the next packet; a progressive network read may not outlast the give-up time.
    func read(into packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        if case let .progressive(progressive) = network { recovery.armReadDeadline(progressive) }
        return input.readPacket(into: packet)
    }

    /// A read failed with `status`: the end of the input, or a network failure recovered from (a
    /// new container, a reconnect) or not.
    func readFailed(_ status: Int32) -> ReadOutcome {
        switch network {
        case .local:
            return .endOfInput
        case let .progressive(progressive):
            guard recovery.connectionLost(status, input) else {
                progressive.stopWaiting()   // an end is not a wait: what follows is a new request
                return .endOfInput
            }
            do { try reconnect(progressive) } catch { return .failed(error) }
            return .resumed
        case let .hls(hls):
            switch hls.readFailed(status, input: input) {
            case .endOfInput: return .endOfInput
            case let .next(container):
                if let container { input = container }
                return .resumed
            case let .failed(failure): return .failed(failure)
            }
        }
    }

    /// Back to the start for the pass `pass`. False if the input cannot go back there (never for
    /// HLS, which starts a new stream from segment 0 ; the schedule wraps by itself while
    /// looping: this is for looping switched on after the end).
    func rewind(forPass pass: Int) throws(ReadFailure) -> Bool {
        switch network {
        case let .hls(hls):
            input = try hls.restart(at: 0, pass: pass, after: input)
            return true
        case let .progressive(progressive):
            // A server without byte ranges cannot seek back: open it again at once; only when that
            // fails is the network at fault (tried again until the give-up time).
            if input.rewind() || reopen() { return true }
            progressive.reset()
            try reconnect(progressive)
            return true
        case .local:
            return input.rewind() || reopen()
        }
    }

    /// Moves to `target` (timeline ticks, inside the pass) for a seek; an HLS stream starts again at
    /// the segment holding `position` (a live one at its live edge). False if the input refused.
    func seek(to target: Int64, position: Double, pass: Int) throws(ReadFailure) -> Bool {
        switch network {
        case let .hls(hls):
            input = try hls.restart(at: position, pass: pass, after: input)
            return true
        case let .progressive(progressive):
            progressive.reset()
            return input.seek(toTimestamp: target)
        case .local:
            return input.seek(toTimestamp: target)
        }
    }

    /// Opens the source again from its first byte (the same stream is required); the decoders are kept.
    func reopen() -> Bool {
        guard let reopened = try? MediaInput.open(location, interrupt: interrupt, audio: input.audioChoiceToKeep,
                                                  access: recovery.access, sizeLimit: input.sizeLimit),
              reopened.video.codecName == input.video.codecName, reopened.video.width == input.video.width,
              reopened.video.height == input.video.height else { return false }
        input = reopened
        logger.debug("\(location): reopened for the next pass (the input cannot seek back)")
        return true
    }

    /// A pass starts (after a wrap or a seek): what was delivered before is another pass's.
    func passBegan() {
        if case let .progressive(progressive) = network { progressive.reset() }
    }

    /// Which pass (and variant) a packet belongs to, and whether it goes on now.
    func place(_ packet: borrowing OwnedPacket, pass: Int, looping: Bool) -> PacketDisposition {
        switch network {
        case .local:
            return .route(PacketPlacement(pass: pass))
        case let .progressive(progressive):
            return progressive.admit(packet.pointer) ? .route(PacketPlacement(pass: pass)) : .drop
        case let .hls(hls):
            return hls.place(packet.pointer, input: input, pass: pass, looping: looping)
        }
    }

    /// Keeps a packet of the next pass until that pass's first picture packet (HLS).
    func hold(_ packet: consuming OwnedPacket, _ placement: PacketPlacement) {
        if case let .hls(hls) = network { hls.hold(packet, placement) }
    }

    /// The packets held for the pass that begins now, in the order they were read.
    func takeHeld() -> [(packet: StoredPacket, placement: PacketPlacement)] {
        if case let .hls(hls) = network { return hls.takeHeld() }
        return []
    }

    /// A picture packet of pass `placement.pass` is being sent on: an HLS session learns which
    /// segment the picture reached (its fetcher waits for room by it).
    func pictureRouted(_ packet: UnsafeMutablePointer<AVPacket>, placement: PacketPlacement, timeline: LoopTimeline) {
        if case let .hls(hls) = network { hls.noteDemuxed(packet, placement: placement, timeline: timeline) }
    }

    /// Reconnects a lost progressive source (see `ProgressiveRecovery.reconnect`).
    private func reconnect(_ progressive: ProgressiveReading) throws(ReadFailure) {
        switch recovery.reconnect(progressive, replacing: input) {
        case let .resumed(reconnected): input = reconnected
        case let .mediaChanged(error): throw .fatal(error)
        case let .gaveUp(error): throw .afterPlaying(error)
        case .stopped: throw .interrupted
        }
    }
}
