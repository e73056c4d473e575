import CFFmpeg
import Foundation
import Synchronization

/// The audio decode thread: decodes, lays every pass on the loop's timeline sample-exactly (cut to
/// the loop duration or padded with silence), converts to the device format (and tempo) and queues
/// the samples for the device.
extension MediaPipeline {
    func runAudioDecoder(_ first: StreamDecoder, output: AudioOutput) {
        var state = AudioDecodeState(decoder: first, output: output)
        while let item = audioPackets.pop() {
            switch item {
            case let .packet(packet):
                if packet.generation != state.generation { restartAudio(&state, generation: packet.generation) }
                state.pass = packet.pass  // audio decoders release a packet's samples at once
                state.decoder.decode(packet.pointer) { frame in play(frame, state: &state) }
            case let .endOfStream(generation):
                state.decoder.decode(nil) { frame in play(frame, state: &state) }
                state.decoder.flush()
                if let converter = state.converter { queue((try? converter.convert(nil)) ?? [], state: &state) }
                state.converter = nil
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
        /// The stream cannot be converted (reported once); its packets are dropped.
        var broken = false

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
    }

    private func play(_ decoded: UnsafeMutablePointer<AVFrame>, state: inout AudioDecodeState) {
        var frame: UnsafeMutablePointer<AVFrame>? = decoded
        defer { av_frame_free(&frame) }
        guard !state.broken, let timeline, decoded.pointee.nb_samples > 0, decoded.pointee.sample_rate > 0 else { return }
        let rate = Int(decoded.pointee.sample_rate)
        if state.placer?.sampleRate != rate {
            state.placer = AudioPassPlacer(sampleRate: rate, startingAt: state.startSeconds,
                                           timestampPrecision: state.decoder.timeBase.seconds)
            state.converter = nil
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
        state.placer!.loopDuration = loopDuration(forAudioEndingAt: seconds + Double(count) / Double(rate))
        guard let placement = state.placer!.place(startingAt: seconds, count: count, pass: state.pass) else { return }
        if placement.silence > 0, let silence = AudioFrames.silence(like: decoded, count: placement.silence) {
            silence.pointee.pts = placement.start
            convertAndQueue(silence, state: &state)
        }
        guard placement.keep > 0 else { return }
        let kept = placement.skip == 0 && placement.keep == count ? decoded
            : AudioFrames.slice(of: decoded, from: placement.skip, count: placement.keep)
        guard let kept else { return }
        kept.pointee.pts = placement.start + Int64(placement.silence)
        if kept == decoded {
            convertAndQueue(kept, state: &state, owned: false)
        } else {
            convertAndQueue(kept, state: &state)
        }
    }

    /// The loop duration for cutting audio that ends at `end` seconds. While the first pass is still
    /// being read it is unknown; audio past the video read so far waits (briefly) for it, so a longer
    /// audio track is cut at the right sample even in pass 0.
    private func loopDuration(forAudioEndingAt end: Double) -> Double? {
        var waited = 0
        while true {
            guard let timeline else { return nil }
            if let duration = timeline.loopDurationSeconds { return duration }
            let videoEnd = timeline.firstPassEnd.map { timeline.seconds($0) } ?? 0
            // Two seconds covers any sane interleaving; a file that interleaves worse plays uncut.
            if end <= videoEnd || !isLooping || abort.isRaised || waited >= 1000 { return nil }
            usleep(2_000)
            waited += 1
        }
    }

    private func convertAndQueue(_ frame: UnsafeMutablePointer<AVFrame>, state: inout AudioDecodeState, owned: Bool = true) {
        var owned: UnsafeMutablePointer<AVFrame>? = owned ? frame : nil
        defer { av_frame_free(&owned) }
        let speed = audioControls.withLock { $0.speed }
        // Speed 0 holds the picture and pauses the sound; the tempo stays as it was.
        if let converter = state.converter, speed > 0, abs(converter.speed - speed) > 1e-6 { state.converter = nil }
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
