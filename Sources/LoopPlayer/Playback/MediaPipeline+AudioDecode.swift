import CFFmpeg
import Foundation
import Synchronization

/// The audio decode thread: decodes, lays every pass on the loop's timeline sample-exactly (cut to
/// the loop duration or padded with silence), converts to the device format (and tempo) and queues
/// the samples for the device.
extension MediaPipeline {
    func runAudioDecoder(_ first: StreamDecoder, output: AudioOutput) {
        var state = AudioDecodeState(decoder: first, output: output)
        defer { av_frame_free(&state.model) }
        while true {
            let item: PacketItem
            if let next = audioPackets.tryPop() {
                item = next
            } else if audioPackets.isClosed {
                return
            } else if mayFill(state) {
                // Sleeps on the monotonic clock: a condition's time-out would use the wall clock.
                fillIfStarving(&state)
                usleep(20_000)
                continue
            } else {
                guard let next = audioPackets.pop() else { return }
                item = next
            }
            switch item {
            case let .packet(packet):
                if packet.generation != state.generation { restartAudio(&state, generation: packet.generation) }
                if packet.pass > 0, state.pass == 0, state.firstPassEnd == nil, let placer = state.placer {
                    state.firstPassEnd = placer.cursor  // where pass 0's sound ended
                }
                state.pass = packet.pass  // audio decoders release a packet's samples at once
                state.decoder.decode(packet.pointer) { frame in play(frame, state: &state) }
            case let .endOfStream(generation):
                state.decoder.decode(nil) { frame in play(frame, state: &state) }
                state.decoder.flush()
                drainConverter(&state)
                output.finish(generation: generation)
            }
        }
    }

    /// What the audio thread carries from frame to frame.
    struct AudioDecodeState {
        var decoder: StreamDecoder
        let output: AudioOutput
        var generation = 0
        /// Created at the first frame (it needs the decoded sample rate).
        var placer: AudioPassPlacer?
        var startSeconds = 0.0
        /// The pass of the packet being decoded.
        var pass = 0
        var converter: AudioConverter?
        /// The stream cannot be converted (reported once); its packets are dropped until a seek.
        var broken = false
        /// Waiting in pass 0 for the loop's length gave up (the demuxer was stuck behind us).
        var stoppedWaiting = false
        /// A frame with the decoded format, for making silence while starving.
        var model: UnsafeMutablePointer<AVFrame>?
        /// The sample where pass 0's sound ended (known once pass 1's packets arrive): later passes
        /// have no more sound after that point either.
        var firstPassEnd: Int64?

        init(decoder: StreamDecoder, output: AudioOutput) {
            self.decoder = decoder
            self.output = output
        }
    }

    /// A seek or a track change: a new decoder if the track changed, and a restart at the seek target.
    private func restartAudio(_ state: inout AudioDecodeState, generation: Int) {
        state.generation = generation
        if let replacement = audioDecoderHandoff.withLock({ handoff in defer { handoff = nil }; return handoff }) {
            state.decoder = replacement
        } else {
            state.decoder.flush()
        }
        state.converter = nil
        state.broken = false
        let floor = controlCondition.withLock {
            control.seekFloor?.generation == generation ? control.seekFloor?.timestamp : nil
        }
        state.startSeconds = floor.flatMap { floor in timeline?.seconds(floor) } ?? 0
        state.placer = nil
        state.firstPassEnd = nil
        av_frame_free(&state.model)
    }

    private func play(_ decoded: UnsafeMutablePointer<AVFrame>, state: inout AudioDecodeState) {
        var frame: UnsafeMutablePointer<AVFrame>? = decoded
        defer { av_frame_free(&frame) }
        guard !state.broken, let timeline, decoded.pointee.nb_samples > 0, decoded.pointee.sample_rate > 0 else { return }
        let rate = Int(decoded.pointee.sample_rate)
        if state.placer?.sampleRate != rate {
            // A new rate mid-stream continues where the old one was.
            let from = state.placer.map { Double($0.cursor) / Double($0.sampleRate) } ?? state.startSeconds
            state.placer = AudioPassPlacer(sampleRate: rate, startingAt: from,
                                           timestampPrecision: state.decoder.timeBase.seconds)
        }
        if state.model.map({ $0.pointee.sample_rate != decoded.pointee.sample_rate }) ?? true {
            av_frame_free(&state.model)
            state.model = av_frame_clone(decoded)
        }
        var timestamp = decoded.pointee.pts
        if timestamp == noTimestamp { timestamp = decoded.pointee.best_effort_timestamp }
        let seconds: Double
        if timestamp == noTimestamp {
            seconds = Double(state.placer!.cursor) / Double(rate)  // untimed audio continues where it is
        } else {
            seconds = Double(timestamp) * state.decoder.timeBase.seconds - Double(timeline.origin) * timeline.tick
        }
        let count = Int(decoded.pointee.nb_samples)
        state.placer!.loopDuration = loopDuration(forAudioEndingAt: seconds + Double(count) / Double(rate), state: &state)
        guard let placement = state.placer!.place(startingAt: seconds, count: count, pass: state.pass) else { return }
        queueSilence(placement.silence, startingAt: placement.start, like: decoded, state: &state)
        guard placement.keep > 0 else { return }
        let whole = placement.skip == 0 && placement.keep == count
        guard let kept = whole ? decoded : AudioFrames.slice(of: decoded, from: placement.skip, count: placement.keep) else {
            return
        }
        kept.pointee.pts = placement.start + Int64(placement.silence)
        convertAndQueue(kept, state: &state, owned: !whole)
    }

    /// Silence in pieces of at most 100 ms (a long pad must not become one huge frame).
    private func queueSilence(_ count: Int, startingAt start: Int64, like model: UnsafePointer<AVFrame>,
                              state: inout AudioDecodeState) {
        var done = 0
        let piece = max(1024, Int(model.pointee.sample_rate) / 10)
        while done < count, let silence = AudioFrames.silence(like: model, count: min(piece, count - done)) {
            silence.pointee.pts = start + Int64(done)
            done += Int(silence.pointee.nb_samples)
            convertAndQueue(silence, state: &state)
        }
    }

    /// Padding ahead of the next pass may be needed: looping, a known loop length, a working
    /// stream, sound playing. Otherwise the thread simply waits for packets.
    private func mayFill(_ state: AudioDecodeState) -> Bool {
        guard isLooping, !state.broken, state.model != nil, state.placer?.loopDuration != nil else { return false }
        return audioControls.withLock { !$0.paused }
    }

    /// No packet and the device about to run dry, in a pass whose sound has certainly ended (the
    /// demuxer reads a later pass, or this pass is past where pass 0's sound ended): its silence
    /// is played now, before the demuxer reaches the next pass (it may be seconds behind). Late
    /// sound of a pass still being read is never replaced by silence.
    private func fillIfStarving(_ state: inout AudioDecodeState) {
        guard let model = state.model, let placer = state.placer, state.output.bufferedSeconds < 0.06 else { return }
        let pass = placer.pass(containing: placer.cursor)
        let ended = readingPass.load(ordering: .relaxed) > pass
            || state.firstPassEnd.map { placer.cursor - placer.passStart(pass) >= $0 } == true
        guard ended, let placement = state.placer?.fillTowardPassEnd(atMost: Int(model.pointee.sample_rate) / 20) else {
            return
        }
        queueSilence(placement.silence, startingAt: placement.start, like: model, state: &state)
    }

    /// The loop duration for cutting audio that ends at `end` seconds. While the first pass is still
    /// being read it is unknown; audio past the video read so far waits for it (briefly), so a longer
    /// audio track is cut at the right sample even in pass 0. The wait ends if the audio queue is
    /// full (the demuxer is stuck behind this thread) or after two seconds, once per source.
    private func loopDuration(forAudioEndingAt end: Double, state: inout AudioDecodeState) -> Double? {
        var waited = 0
        while true {
            guard let timeline else { return nil }
            if let duration = timeline.loopDurationSeconds { return duration }
            let videoEnd = timeline.firstPassEnd.map { timeline.seconds($0) } ?? 0
            if end <= videoEnd || !isLooping || abort.isRaised || state.stoppedWaiting { return nil }
            if waited >= 1000 || audioPackets.isFull {
                state.stoppedWaiting = true
                logger.warning("\(location): the sound runs far past the picture; its first pass is not cut")
                return nil
            }
            usleep(2_000)
            waited += 1
        }
    }

    private func convertAndQueue(_ frame: UnsafeMutablePointer<AVFrame>, state: inout AudioDecodeState, owned: Bool = true) {
        var owned: UnsafeMutablePointer<AVFrame>? = owned ? frame : nil
        defer { av_frame_free(&owned) }
        let speed = audioControls.withLock { $0.speed }
        // A new speed or a new stream format: what the old graph holds is played first.
        // Speed 0 holds the picture and pauses the sound; the tempo stays as it was.
        if let converter = state.converter,
           (speed > 0 && abs(converter.speed - speed) > 1e-6) || !converter.accepts(frame) {
            drainConverter(&state)
        }
        do {
            if state.converter == nil {
                state.converter = try AudioConverter(source: frame, device: state.output.format,
                                                     speed: speed > 0 ? speed : 1)
            }
            queue(try state.converter!.convert(frame), state: &state)
        } catch {
            state.broken = true
            audioFailures.withLock { $0.append(.audioUnavailable(reason: "cannot convert the audio: \(error.reason)")) }
            frameReady()
        }
    }

    private func drainConverter(_ state: inout AudioDecodeState) {
        if let converter = state.converter { queue((try? converter.convert(nil)) ?? [], state: &state) }
        state.converter = nil
    }

    private func queue(_ blocks: [AudioConverter.Block], state: inout AudioDecodeState) {
        for block in blocks {
            var frame: UnsafeMutablePointer<AVFrame>? = block.frame
            let samples = UnsafeRawPointer(block.frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
            _ = state.output.write(samples, frames: Int(block.frame.pointee.nb_samples), mediaTime: block.mediaTime,
                                   step: block.secondsPerSample, generation: state.generation)
            av_frame_free(&frame)
        }
    }
}
