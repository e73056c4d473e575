import CFFmpeg
import FFmpegSupport
import Filters

/// The sound stage's thread: opens the device, decodes, lays every pass on the loop's timeline
/// sample-exactly (cut to the loop's length or padded with silence), converts to the device's
/// format (and tempo) and queues the samples for the device.
///
/// Everything it needs to know arrives in line with the packets: in pass 0 each packet says how far
/// the picture reaches (sound past it waits until the loop's length is known, so a longer sound is
/// cut even in the first pass); `passEnded` gives the loop's length and closes the pass with silence
/// where its sound ended early; seeks restart it at their floor (with a new decoder on a track change).
final class AudioDecodeStage {
    struct Setup: Sendable {
        var driver: String
        /// This source's way into the player's sound device (a playlist's next item waits in its
        /// `claim` until the engine hands the device over).
        var writer: SoundWriter
        var status: PipelineStatus
        var sourceName: String
    }

    /// The device once claimed, in the format its samples are converted to.
    private struct ClaimedDevice {
        let writer: SoundWriter
        let format: AudioDeviceFormat
    }

    /// Sound past the picture in pass 0 waits at most this long for the loop's length.
    static let longestHold = 2.0

    private let setup: Setup
    private let input: BoundedQueue<StageMessage>
    private var decoder: StreamDecoder
    private let origin: Double
    private var generation: Int
    private var track: AudioTrack

    /// Created at the first frame (it needs the decoded sample rate).
    private var placer: AudioPassPlacer?
    /// How early every pass's sound starts (`AudioPassPlacer.lead`), kept across seeks and
    /// measured again by the stream's first frame at every pass (`measuresLead`).
    private var lead = 0.0
    /// The packet being decoded is the sound stream's first: its first frame measures the lead.
    private var measuresLead = false
    private var startSeconds = 0.0
    /// The pass of the packet being decoded.
    private var pass = 0
    private var converter: AudioConverter?
    /// On a shared timeline: resamples the converted sound slightly (`SoundWriter.rateCorrection`).
    private var driftResampler: DriftResampler?
    /// libswresample refused (said once): the sound goes unresampled.
    private var driftResamplerFailed = false
    /// The stream cannot be converted (reported once); its packets are dropped until a seek.
    private var broken = false
    private var loopDuration: Double?
    /// Where pass 0's sound ended, in samples from the pass's start: later passes end there too,
    /// so their silence is played as soon as their sound is out (not when the next pass is read).
    private var firstPassSoundEnd: Int64?
    /// A frame with the decoded format, for making silence.
    private var model: OwnedFrame?
    /// Pass-0 sound past the picture read so far, waiting for the loop's length.
    private var held = HeldSound()
    private var stoppedHolding = false

    init(start: AudioStageStart, setup: Setup, input: BoundedQueue<StageMessage>) {
        self.setup = setup
        self.input = input
        decoder = start.decoder
        origin = start.origin
        generation = start.generation
        track = start.track
    }

    /// The thread's body.
    func run() {
        guard let output = openDevice() else {
            input.close()  // the demuxer stops sending sound
            return
        }
        while let message = input.pop() {
            switch consume message {
            case let .packet(packet, context):
                guard context.generation == generation, !broken else { continue }
                if let extent = context.pictureExtent { release(upTo: extent, output) }
                pass = context.pass
                if context.startsSound {
                    decoder.startOver(with: packet.pointer)
                    measuresLead = true
                }
                decoder.decode(packet.pointer) { frame in take(frame, extent: context.pictureExtent, output) }
            case let .seek(marker):
                restart(at: marker, output)
            case let .passEnded(boundary):
                guard boundary.generation == generation else { continue }
                endPass(boundary, output)
            case let .endOfStream(endGeneration, _):
                guard endGeneration == generation else { continue }
                release(upTo: .infinity, output)
                decoder.decode(nil) { frame in take(frame, extent: nil, output) }
                decoder.flush()
                drainConverter(output)
                output.writer.finish(generation: endGeneration)
            }
        }
    }

    /// Nil when the pipeline stopped first, or the device cannot open (said as a warning).
    private func openDevice() -> ClaimedDevice? {
        do {
            guard let format = try setup.writer.claim(rate: track.sampleRate, channels: track.channels,
                                                      driver: setup.driver, generation: generation) else { return nil }
            return ClaimedDevice(writer: setup.writer, format: format)
        } catch {
            setup.status.post(.warning(error))
            return nil
        }
    }

    // MARK: Placing decoded sound

    /// A decoded frame: played now, or held while pass 0's end is unknown and it reaches past the picture.
    private func take(_ frame: consuming OwnedFrame, extent: Double?, _ output: ClaimedDevice) {
        let rate = Double(max(1, frame.pointer.pointee.sample_rate))
        let start = seconds(of: frame.pointer, rate: rate)
        let end = start + Double(frame.pointer.pointee.nb_samples) / rate
        if loopDuration == nil, !stoppedHolding, let extent, !held.isEmpty || end > extent {
            held.append(frame, start: start, end: end)
            if held.seconds > Self.longestHold {
                stoppedHolding = true
                // An empty picture track has no extent: nothing runs past it.
                if extent > 0 { logger.warning("\(setup.sourceName): the sound runs far past the picture; its first pass is not cut") }
                release(upTo: .infinity, output)
            }
            return
        }
        play(frame, startingAt: start, output)
    }

    /// Plays the held frames that end within `extent` (all of them once the loop's length is known).
    private func release(upTo extent: Double, _ output: ClaimedDevice) {
        while let first = held.first, loopDuration != nil || first.end <= extent {
            let entry = held.removeFirst()
            if let frame = entry.frame.take() { play(frame, startingAt: entry.start, output) }
        }
    }

    /// Timeline seconds of a frame's first sample (an untimed frame continues where the sound is).
    private func seconds(of frame: UnsafeMutablePointer<AVFrame>, rate: Double) -> Double {
        var timestamp = frame.pointee.pts
        if timestamp == noTimestamp { timestamp = frame.pointee.best_effort_timestamp }
        if timestamp == noTimestamp {
            return held.last?.end ?? placer.map { Double($0.cursor) / Double($0.sampleRate) } ?? startSeconds
        }
        return Double(timestamp) * decoder.timeBase.seconds - origin
    }

    private func play(_ frame: consuming OwnedFrame, startingAt seconds: Double, _ output: ClaimedDevice) {
        let decoded = frame.pointer
        guard !broken, decoded.pointee.nb_samples > 0, decoded.pointee.sample_rate > 0 else { return }
        let rate = Int(decoded.pointee.sample_rate)
        if placer?.sampleRate != rate {
            // A new rate mid-stream continues where the old one was.
            let from = placer.map { Double($0.cursor) / Double($0.sampleRate) } ?? startSeconds
            placer = AudioPassPlacer(sampleRate: rate, startingAt: from, timestampPrecision: decoder.timeBase.seconds,
                                     lead: lead)
        }
        if model?.pointer.pointee.sample_rate != decoded.pointee.sample_rate { model = frame.reference() }
        guard var placer else { return }
        placer.loopDuration = loopDuration
        let count = Int(decoded.pointee.nb_samples)
        if measuresLead {
            measuresLead = false
            let before = placer.lead
            placer.measureLead(startingAt: seconds, pass: pass)
            lead = placer.leadSeconds
            // Where pass 0's sound ended counts from its sound's start, which moved with the lead.
            firstPassSoundEnd = firstPassSoundEnd.map { $0 + placer.lead - before }
        }
        let placement = placer.place(startingAt: seconds, count: count, pass: pass)
        self.placer = placer
        guard let placement else { return }
        queueSilence(placement.silence, startingAt: placement.start, output)
        if placement.keep > 0 {
            let start = placement.start + Int64(placement.silence)
            if placement.skip == 0 && placement.keep == count {
                decoded.pointee.pts = start
                convertAndQueue(frame, output)
            } else if let kept = AudioFrames.slice(of: decoded, from: placement.skip, count: placement.keep) {
                kept.pointer.pointee.pts = start
                convertAndQueue(kept, output)
            }
        }
        padIfThisPassSoundEnded(output)
    }

    /// In passes after the first, the sound ends where pass 0's did: its silence goes out at once,
    /// so the device never runs dry while the demuxer reads the rest of the pass's pictures.
    private func padIfThisPassSoundEnded(_ output: ClaimedDevice) {
        guard let end = firstPassSoundEnd, let placer else { return }
        let current = placer.pass(containing: placer.cursor)
        guard current >= 1, placer.offsetInPass(placer.cursor) >= end else { return }
        fillToPassEnd(output)
    }

    /// Silence from the cursor to the end of its pass.
    private func fillToPassEnd(_ output: ClaimedDevice) {
        guard var placer, let fill = placer.fillTowardPassEnd() else { return }
        self.placer = placer
        queueSilence(fill.silence, startingAt: fill.start, output)
    }

    /// Silence in pieces of at most 100 ms (a long pad must not become one huge frame).
    private func queueSilence(_ count: Int, startingAt start: Int64, _ output: ClaimedDevice) {
        guard count > 0, let model = model?.pointer else { return }
        var done = 0
        let piece = max(1024, Int(model.pointee.sample_rate) / 10)
        while done < count, let silence = AudioFrames.silence(like: model, count: min(piece, count - done)) {
            silence.pointer.pointee.pts = start + Int64(done)
            done += Int(silence.pointer.pointee.nb_samples)
            convertAndQueue(silence, output)
        }
    }

    // MARK: Markers

    private func endPass(_ boundary: PassBoundary, _ output: ClaimedDevice) {
        loopDuration = boundary.loopSeconds
        release(upTo: .infinity, output)
        guard var placer else { return }
        placer.loopDuration = boundary.loopSeconds
        self.placer = placer
        if boundary.pass == 0, firstPassSoundEnd == nil, placer.pass(containing: placer.cursor) == 0 {
            firstPassSoundEnd = placer.offsetInPass(placer.cursor)
        }
        // Every packet of the pass has been decoded: what its sound lacks is silence.
        if placer.pass(containing: placer.cursor) == boundary.pass { fillToPassEnd(output) }
    }

    private func restart(at marker: SeekMarker, _ output: ClaimedDevice) {
        generation = marker.generation
        output.writer.flush(generation: marker.generation)
        if let replacement = marker.audioDecoder {
            decoder = replacement
            firstPassSoundEnd = nil  // another track may end elsewhere, and start elsewhere
            lead = 0
            model = nil
        } else {
            decoder.flush()
        }
        converter = nil
        driftResampler = nil
        broken = false
        startSeconds = marker.floorSeconds
        placer = nil
        held.removeAll()
        pass = marker.pass
    }

    // MARK: Conversion

    private func convertAndQueue(_ frame: consuming OwnedFrame, _ output: ClaimedDevice) {
        let speed = setup.writer.speed
        // A new speed or a new stream format: what the old graph holds is played first (0.1 s of it
        // at most).
        // Speed 0 holds the picture and pauses the sound; the tempo stays as it was.
        if let converter, (speed > 0 && abs(converter.speed - speed) > 1e-6) || !converter.accepts(frame.pointer) {
            drainConverter(output)
        }
        do throws(FilterError) {
            let converter: AudioConverter
            if let existing = self.converter {
                converter = existing
            } else {
                converter = try AudioConverter(source: frame.pointer, device: output.format, speed: speed > 0 ? speed : 1)
                self.converter = converter
            }
            try converter.convert(frame) { block in
                // The speed changed meanwhile: the rest of this frame at the old tempo is skipped (the
                // next frame drains the old graph, 0.1 s of it), and the new speed is heard at once.
                // The writer checks it again under its lock, for a change during the write.
                let speed = setup.writer.speed
                guard speed <= 0 || abs(converter.speed - speed) <= 1e-6 else { return }
                write(block, tempo: converter.speed, output)
            }
        } catch {
            broken = true
            setup.status.post(.warning(.audioUnavailable(reason: "cannot convert the audio: \(error.reason)")))
        }
    }

    /// Plays what the old graph holds, at its old tempo, up to 0.1 s of the device's time: after a
    /// slow speed its input stretched a hundredfold (0.01) kept the new speed unheard for 15 s; the
    /// rest of it is skipped (the sound's times say so, the clock follows).
    private func drainConverter(_ output: ClaimedDevice) {
        var left = output.format.rate / 10
        try? converter?.drain { block in
            guard left > 0 else { return }
            write(block.prefix(left), tempo: nil, output)
            left -= block.frames
        }
        converter = nil
    }

    /// `tempo`: the speed `block` was made at (nil: the old graph's drain, written after a change on purpose).
    private func write(_ block: AudioConverter.Block, tempo: Double?, _ output: ClaimedDevice) {
        if let rate = output.writer.rateCorrection, !driftResamplerFailed {
            if driftResampler == nil { driftResampler = DriftResampler(channels: output.format.channels, rate: output.format.rate) }
            if let resampled = driftResampler?.resample(block.samples, frames: block.frames, mediaTime: block.mediaTime,
                                                        step: block.secondsPerSample, speed: rate) {
                // Nothing out while the resampler's filter fills first.
                if resampled.frames > 0 {
                    _ = output.writer.write(resampled.samples, frames: resampled.frames, mediaTime: resampled.mediaTime,
                                            step: resampled.secondsPerSample, tempo: tempo, generation: generation)
                }
                return
            }
            driftResamplerFailed = true
            driftResampler = nil
            logger.warning("\(setup.sourceName): the sound cannot be resampled onto the shared timeline; it plays as it is")
        } else if output.writer.rateCorrection == nil {
            driftResampler = nil
        }
        _ = output.writer.write(block.samples, frames: block.frames, mediaTime: block.mediaTime,
                                step: block.secondsPerSample, tempo: tempo, generation: generation)
    }
}

/// Decoded pass-0 sound waiting for the loop's length, in order.
private struct HeldSound {
    /// One held frame (a class: arrays cannot hold noncopyable values).
    final class Entry {
        var frame: OwnedFrame?
        let start: Double
        let end: Double

        init(_ frame: consuming OwnedFrame, start: Double, end: Double) {
            self.frame = .some(frame)
            self.start = start
            self.end = end
        }
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var first: Entry? { entries.first }
    var last: Entry? { entries.last }
    /// Seconds of sound held.
    var seconds: Double { entries.reduce(0) { $0 + $1.end - $1.start } }

    mutating func append(_ frame: consuming OwnedFrame, start: Double, end: Double) {
        entries.append(Entry(frame, start: start, end: end))
    }

    mutating func removeFirst() -> Entry { entries.removeFirst() }
    mutating func removeAll() { entries.removeAll() }
}
