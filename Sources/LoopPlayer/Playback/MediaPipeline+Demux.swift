import CFFmpeg
import Filters
import Foundation
import Synchronization

/// The demux thread: opens the input, reads packets, rewinds at the end and shifts each pass onto
/// the loop's timeline.
extension MediaPipeline {
    func runDemuxer() {
        let input: MediaInput
        let decoder: any FrameSource
        do {
            input = try MediaInput(location: location, abort: abort, audio: audioOptions.track)
            decoder = input.hasVideo ? try StreamDecoder(stream: input.timelineStream, sourceName: location.description)
                : BlackPictureSource(info: input.video) { [unowned self] in timeline }
        } catch {
            phaseState.withLock { $0 = .failed(error) }
            frameReady()
            return
        }
        let info = input.video
        timelineState.withLock {
            $0 = LoopTimeline(tick: info.timeBase.seconds, origin: input.startTimestamp,
                              nominalFrameInterval: info.nominalFrameInterval)
        }
        let started = threads.withLock { state -> Bool in
            guard !state.closed, !abort.isRaised else { return false }
            state.list.append(WorkerThread(name: "lp-vdecode") { [self] in runDecoder(decoder, info: info) })
            return true
        }
        guard started else { return }
        reportUnmatchedTrackChoice(in: input)
        startAudio(for: input)
        phaseState.withLock { $0 = .ready(info) }
        frameReady()
        readPackets(from: input)
    }

    private func readPackets(from opened: MediaInput) {
        var input = opened
        var generation = 0
        var pass = 0
        var offset: Int64 = 0
        var atEnd = false
        var packetsThisPass = 0
        var reopenedThisPass = false
        while true {
            controlCondition.lock()
            while !abort.isRaised && atEnd && !control.looping && control.pendingSeek == nil {
                controlCondition.wait()
            }
            let seek = control.pendingSeek
            control.pendingSeek = nil
            let audioTrack = control.pendingAudioTrack
            control.pendingAudioTrack = nil
            let looping = control.looping
            if seek != nil { generation = control.generation }
            controlCondition.unlock()
            if abort.isRaised { return }

            if let audioTrack {
                input.select(audio: audioTrack)
                startAudio(for: input)
            }
            if let seek {
                packets.removeAll()
                audioPackets.removeAll()
                offset = performSeek(input, to: seek.position, inPass: seek.pass, generation: generation)
                pass = seek.pass
                readingPass.store(pass, ordering: .relaxed)
                atEnd = false
                continue
            }
            if atEnd {  // looping was switched on after the end: continue with the next pass
                guard wrap(&input, pass: &pass, offset: &offset) else { return }
                atEnd = false
                packetsThisPass = 0
                continue
            }
            guard let packet = Packet(generation: generation) else { return }
            let status = input.readPacket(into: packet.pointer)
            if status == FFmpegError.tryAgain {
                usleep(5_000)
                continue
            }
            if status < 0 {
                if abort.isRaised { return }
                // A rewind the server only pretended to do (no range requests): start over instead.
                if looping && packetsThisPass == 0 && pass > 0 && !reopenedThisPass {
                    reopenedThisPass = true
                    if reopen(&input) { continue }
                }
                if looping && packetsThisPass == 0 {
                    // A pass that yields nothing cannot loop: end instead of spinning.
                    logger.warning("\(location): no packets after rewinding; looping stops")
                    controlCondition.withLock { control.looping = false }
                }
                if looping && packetsThisPass > 0 {
                    guard wrap(&input, pass: &pass, offset: &offset) else { return }
                    packetsThisPass = 0
                    reopenedThisPass = false
                } else {
                    atEnd = true
                    if !packets.push(.endOfStream(generation: generation)) { return }
                    if input.audioTrack != nil && !audioPackets.push(.endOfStream(generation: generation)) { return }
                }
                continue
            }
            if packet.pointer.pointee.stream_index == input.timelineStream.pointee.index {
                packetsThisPass += 1
                stamp(packet.pointer, pass: pass, offset: offset)
            } else {
                shift(packet.pointer, by: offset == 0 ? 0 : av_rescale_q(offset, input.video.timeBase,
                                                                         input.audioStream!.pointee.time_base))
            }
            guard packet.pointer.pointee.stream_index != input.videoStreamIndex else {
                if !packets.push(.packet(packet), bytes: packet.byteCount) { return }
                continue
            }
            packet.pass = pass
            // Audio-only media: the black picture follows the sound's packets.
            if !input.hasVideo, let copy = Packet(generation: generation), av_packet_ref(copy.pointer, packet.pointer) >= 0 {
                if !packets.push(.packet(copy), bytes: 64) { return }
            }
            // Sound stored far ahead of the picture must not starve the picture's queue.
            if audioThreadRunning.load(ordering: .relaxed), !audioPackets.push(.packet(packet), bytes: packet.byteCount, admitAnyway: { [packets] in packets.count == 0 }) {
                return
            }
        }
    }

    /// Records pass-0 packets for the loop length and moves later passes onto the timeline.
    func stamp(_ packet: UnsafeMutablePointer<AVPacket>, pass: Int, offset: Int64) {
        let pts = packet.pointee.pts
        if pass == 0, pts != noTimestamp, packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 {
            timelineState.withLock { $0?.observeFirstPass(pts: pts, duration: packet.pointee.duration) }
        }
        shift(packet, by: offset)
    }

    /// Moves a packet of a later pass onto the timeline (`offset` in the packet's time base).
    private func shift(_ packet: UnsafeMutablePointer<AVPacket>, by offset: Int64) {
        guard offset != 0 else { return }
        if packet.pointee.pts != noTimestamp { packet.pointee.pts += offset }
        if packet.pointee.dts != noTimestamp { packet.pointee.dts += offset }
    }

    /// Moves the input back to its start for the next pass. An input that cannot seek there (a
    /// server without range requests, a pipe) is opened again; the decoder is kept either way.
    func wrap(_ input: inout MediaInput, pass: inout Int, offset: inout Int64) -> Bool {
        if !input.rewind() && !reopen(&input) {
            if abort.isRaised { return false }
            logger.error("\(location): cannot go back to the start; looping stops")
            controlCondition.withLock { control.looping = false }
            let generation = controlCondition.withLock { control.generation }
            if input.audioTrack != nil { _ = audioPackets.push(.endOfStream(generation: generation)) }
            return packets.push(.endOfStream(generation: generation))
        }
        offset = timelineState.withLock { $0?.wrap() ?? 0 }
        if pass == 0, let seconds = timeline?.loopDurationSeconds {
            logger.debug("\(location): one pass lasts \(seconds) s; looping on one timeline")
        }
        pass += 1
        readingPass.store(pass, ordering: .relaxed)
        return true
    }

    /// Opens the source again from its first byte (same stream required); the decoder is kept.
    private func reopen(_ input: inout MediaInput) -> Bool {
        let audio = input.audioTrack.map { AudioTrackChoice.number($0.number) } ?? AudioTrackChoice.none
        guard let reopened = try? MediaInput(location: location, abort: abort, audio: audio),
              reopened.video.codecName == input.video.codecName, reopened.video.width == input.video.width,
              reopened.video.height == input.video.height else { return false }
        input = reopened
        logger.debug("\(location): reopened for the next pass (the input cannot seek back)")
        return true
    }

    /// Seeks to a position inside `pass`; returns that pass's timestamp offset.
    private func performSeek(_ input: MediaInput, to position: Double, inPass pass: Int, generation: Int) -> Int64 {
        let (target, offset) = timelineState.withLock { timeline -> (Int64, Int64) in
            guard var line = timeline else { return (0, 0) }
            line.resume(inPass: pass)
            timeline = line
            let target = line.origin + Int64((max(0, position) / line.tick).rounded(.down))
            return (target, line.offset(forPass: pass))
        }
        if !input.seek(toTimestamp: target) { logger.warning("\(location): seek to \(position) s failed") }
        controlCondition.withLock { control.seekFloor = (generation, target + offset) }
        return offset
    }
}
