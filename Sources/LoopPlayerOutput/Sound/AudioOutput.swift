import CSDL
import Foundation
import LoopPlayerCore
import LoopPlayerMedia

/// The SDL audio device and the ring that feeds it. The decode thread writes converted samples;
/// SDL's audio thread pulls them in the callback, applies the volume (ramped over a buffer, so
/// changes never click) and records which timeline time it handed over when, which is the master
/// clock the presenter follows. The device is opened once per source and runs until the source
/// closes: a wrap is just more samples. In a playlist the next item's sound stage takes the device
/// over when this item's sound is all queued (`handOver`): its samples follow in the same ring, so
/// the device never stops between items. Each writer has an epoch; the clock only answers the
/// writer whose samples are being heard.
package final class AudioOutput: @unchecked Sendable {
    /// What the device was opened with (set once, in `init`).
    package private(set) var format: AudioDeviceFormat
    private var device: SDL_AudioDeviceID = 0
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ring: AudioRing
    private var generation = 0
    /// The writer whose samples go in now (raised by every hand-over).
    private var epoch = 0
    /// The writer before the last hand-over, while the engine may still take the device back for it
    /// (the next item was dropped before it played: a seek, looping switched on).
    private var handedFrom: (epoch: Int, generation: Int, ended: Bool)?
    private var paused = true
    /// Enough is buffered to start (again) without an immediate underrun.
    private var started = false
    /// The source ended (looping off): an empty ring is not an underrun.
    private var ended = false
    private var closed = false
    private var volume: Float = 1
    private var muted = false
    /// The gain applied at the end of the last buffer: 0 after silence, so sound fades in over one
    /// buffer when it starts or resumes instead of clicking.
    private var gain: Float = 0
    private var underrunCount = 0
    /// Frames of stale sound (before a seek) at the head of the ring, played fading to silence.
    private var fading = 0
    /// Frames of silence to play before the ring's sound (`realign` of sound that ran ahead).
    private var delay = 0
    /// Frames of incoming sound to drop (`realign` of sound that was behind, beyond what was queued).
    private var skip = 0
    /// The last buffer handed to the device: when it starts playing, the timeline time of its first
    /// sample, the timeline seconds per sample, and how many real samples it held.
    private var lastBuffer: (time: Double, mediaTime: Double, step: Double, frames: Int, delayed: Bool, epoch: Int)?

    private let timing: SDLAudio.Timing
    /// The exact schedule of a callback-paced or clockless driver: when it started and how many
    /// frames have been handed over since. SDL's audio thread only (under the lock for `.none`).
    private var schedule: (start: Double, frames: Int64)?
    /// How long after the callback a sample is heard: one buffer on a real device.
    private var latency: Double
    private var prefill: Int
    private let clock = MonotonicClock()

    /// Opens the device for a source of `rate` Hz and `channels` channels, playing silence until
    /// samples arrive and `setPaused(false)`. Only writes of `generation` are accepted at first.
    ///
    /// The device never opens below 48 kHz stereo (unless `maxChannels` says 1): a playlist's later
    /// items play into it, converted, and a mono or 22 kHz first item must not make them so.
    package init(rate: Int, channels: Int, options: AudioOptions, driver: String, generation: Int) throws(PlayerError) {
        let rate = max(rate, Self.leastRate)
        let channels = max(channels, 2)
        var desired = SDL_AudioSpec()
        desired.freq = Int32(rate)
        desired.format = SDL_AudioFormat(AUDIO_F32SYS)
        desired.channels = UInt8(Self.deviceChannels(for: min(channels, options.maxChannels ?? 8)))
        desired.samples = UInt16(Int((Double(rate) * 0.02).rounded()))  // 20 ms
        desired.callback = audioCallback
        var obtained = SDL_AudioSpec()
        timing = SDLAudio.timing(of: driver)
        ring = AudioRing(channels: 1, capacity: 1)
        format = AudioDeviceFormat(rate: 0, channels: 0, driver: driver, bufferFrames: 0)
        latency = 0
        prefill = 0
        self.generation = generation
        desired.userdata = Unmanaged.passUnretained(self).toOpaque()
        let flags = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        let id = try SDLAudio.openDevice(driver: driver) { SDL_OpenAudioDevice(options.device, 0, &desired, &obtained, flags) }
        device = id
        format = AudioDeviceFormat(rate: Int(obtained.freq), channels: Int(obtained.channels), driver: driver,
                                   bufferFrames: Int(obtained.samples))
        latency = timing == .hardware ? format.bufferDuration : 0
        prefill = max(2 * format.bufferFrames, format.rate / 25)  // 40 ms at least
        // 200 ms of converted audio: enough to ride out a slow decode, short enough that a speed
        // change is heard soon.
        ring = AudioRing(channels: format.channels, capacity: max(prefill * 2, format.rate / 5))
        SDL_PauseAudioDevice(id, 0)
    }

    deinit { close() }

    /// The device's least rate.
    package static let leastRate = 48_000

    /// SDL's channel counts: 1, 2, 4 (quad), 6 (5.1) or 8 (7.1). A playlist's later items play into
    /// the device the first opened, converted (as mpv's gapless audio): more channels are mixed down.
    package static func deviceChannels(for channels: Int) -> Int {
        switch channels {
        case ...1: 1
        case 2: 2
        case 3...4: 4
        case 5...6: 6
        default: 8
        }
    }

    /// Stops the device (joins SDL's audio thread) and wakes a blocked writer. Idempotent.
    package func close() {
        let id = condition.withLock {
            closed = true
            condition.broadcast()
            defer { device = 0 }
            return device
        }
        guard id != 0 else { return }
        SDL_CloseAudioDevice(id)  // joins SDL's audio thread; never under our lock
        SDLAudio.deviceClosed()
    }

    // MARK: Writer side (the audio decode thread)

    /// Queues `frames` interleaved frames in the device format, blocking while the ring is full.
    /// False once closed, if `generation` is stale (a seek happened) or the device was handed over
    /// to another writer since `epoch`: the caller drops them.
    package func write(_ samples: UnsafePointer<Float>, frames: Int, mediaTime: Double, step: Double, generation: Int,
               epoch: Int = 0) -> Bool {
        var done = 0
        condition.lock()
        defer { condition.unlock() }
        if skip > 0 {
            let dropped = min(skip, frames)
            skip -= dropped
            done = dropped
        }
        while done < frames {
            if closed || generation != self.generation || epoch != self.epoch { return false }
            let taken = ring.append(samples + done * format.channels, frames: frames - done,
                                    mediaTime: mediaTime + Double(done) * step, step: step, epoch: epoch)
            done += taken
            if taken == 0 { condition.wait() }
        }
        ended = false
        return true
    }

    /// The source ended with looping off: what is queued plays out, then silence without underruns.
    package func finish(generation: Int, epoch: Int = 0) {
        condition.withLock { if generation == self.generation && epoch == self.epoch { ended = true } }
    }

    /// All of the current writer's sound is queued (`finish`): the next item may take the device.
    package var isFinished: Bool { condition.withLock { ended && !closed } }

    package var isOpen: Bool { condition.withLock { !closed } }

    /// Gives the device to a new writer (the next playlist item's sound stage), whose writes of
    /// `generation` are accepted from now on; returns its epoch. What the previous writer queued
    /// plays on (a gapless hand-over) when it had finished, and fades out over one buffer when it
    /// had not (a skip). A blocked previous writer is woken and refused from here on.
    package func handOver(generation: Int) -> Int {
        condition.withLock {
            handedFrom = (epoch, self.generation, ended)
            epoch += 1
            self.generation = generation
            if !ended {
                fading = gain > 0 && started ? min(ring.buffered, format.bufferFrames) : 0
                ring.truncate(keeping: fading)
                started = false
            }
            ended = false
            delay = 0
            skip = 0
            condition.broadcast()
            return epoch
        }
    }

    /// Gives the device back to the writer before the last hand-over: what the new writer queued is
    /// dropped, the previous writer's writes count again. False once the hand-over was committed.
    @discardableResult
    package func reclaim() -> Bool {
        condition.withLock {
            guard let from = handedFrom else { return false }
            handedFrom = nil
            ring.truncate(keeping: ring.buffered(before: epoch))
            epoch = from.epoch
            generation = from.generation
            ended = from.ended
            if !ended { started = ring.buffered > 0 && started }
            condition.broadcast()
            return true
        }
    }

    /// The next item played: the device is its for good.
    package func commitHandOver() {
        condition.withLock { handedFrom = nil }
    }

    /// The writer of `epoch` stops without a successor (its pipeline stops): a write it is blocked
    /// in returns, refused.
    package func abandon(epoch: Int) {
        condition.withLock {
            guard epoch == self.epoch else { return }
            self.epoch += 1
            handedFrom = nil
            condition.broadcast()
        }
    }

    // MARK: Controls (any thread)

    /// Forgets everything queued (a seek or a track change); only writes of `generation` count now.
    /// Generations only move forward: the engine flushes at once, the sound stage again when the
    /// seek reaches it in line with the packets, and the second call changes nothing. A writer that
    /// handed the device over flushes nothing (`epoch`).
    package func flush(generation: Int, epoch: Int? = nil) {
        condition.withLock {
            guard generation > self.generation, epoch.map({ $0 == self.epoch }) ?? true else { return }
            self.generation = generation
            delay = 0
            skip = 0
            // One buffer of the old sound stays, to fade out instead of stopping with a click.
            fading = gain > 0 && started ? min(ring.buffered, format.bufferFrames) : 0
            ring.truncate(keeping: fading)
            started = false
            ended = false
            lastBuffer = nil
            condition.broadcast()
        }
    }

    /// Kept for a later playlist item while one without sound plays: what is queued is dropped,
    /// and the device waits, silent, for its next writer (`handOver`).
    package func park() {
        condition.withLock {
            ring.truncate(keeping: 0)
            fading = 0
            delay = 0
            skip = 0
            started = false
            ended = true
            paused = true
            lastBuffer = nil
            condition.broadcast()
        }
    }

    package func setPaused(_ paused: Bool) {
        condition.withLock {
            self.paused = paused
            if paused { lastBuffer = nil }
        }
    }

    package func setVolume(_ volume: Float, muted: Bool) {
        condition.withLock {
            self.volume = volume
            self.muted = muted
        }
    }

    /// Moves the sound by `seconds` of media against the device: positive skips queued sound (it
    /// was behind), negative delays it with silence (it was ahead). Only what is queued can be
    /// skipped (200 ms); the presenter's join takes up any rest.
    package func realign(by seconds: Double) {
        condition.withLock {
            guard let step = ring.nextMediaTime?.step, step > 0 else { return }
            let frames = Int((seconds / step).rounded())
            if frames > 0 {
                // What is queued beyond the prefill is skipped now; the rest as it arrives, so
                // the device never runs dry for it.
                let now = min(frames, max(0, ring.buffered - fading - prefill))
                ring.discard(now)
                skip += frames - now
            } else {
                delay += -frames
            }
            lastBuffer = nil
            condition.broadcast()
        }
    }

    package var underruns: Int { condition.withLock { underrunCount } }

    /// Seconds of sound queued for the device.
    package var bufferedSeconds: Double { condition.withLock { Double(ring.buffered) / Double(format.rate) } }

    /// The timeline time being heard at `now` (monotonic seconds), or nil while nothing plays, the
    /// driver is no clock, or what is heard is another writer's (`epoch`: another playlist item).
    package func audibleMediaTime(at now: Double, epoch: Int = 0) -> Double? {
        condition.withLock {
            // A buffer that starts with silence (`delay`) is not heard before its sound begins.
            guard timing != .none, let buffer = lastBuffer, buffer.epoch == epoch,
                  !buffer.delayed || now >= buffer.time + latency else { return nil }
            let rate = Double(format.rate)
            let elapsed = ((now - buffer.time - latency) * rate)
                .clamped(to: -latency * rate...Double(buffer.frames + format.bufferFrames))
            return buffer.mediaTime + elapsed * buffer.step
        }
    }

    // MARK: SDL's audio thread

    fileprivate func fill(_ stream: UnsafeMutablePointer<UInt8>, bytes: Int) {
        let frames = bytes / (MemoryLayout<Float>.size * format.channels)
        let output = UnsafeMutableRawPointer(stream).bindMemory(to: Float.self, capacity: frames * format.channels)
        let handedAt = timing == .pacedByCallback ? keepSchedule(frames: frames) : clock.now
        condition.lock()
        defer { condition.unlock() }
        if fading > 0 {
            // The sound before a seek: out over this buffer, never counted as heard.
            let moved = ring.take(into: output, frames: min(frames, fading), gain: (gain, 0), total: min(frames, fading))
            (output + moved * format.channels).update(repeating: 0, count: (frames - moved) * format.channels)
            fading = 0
            gain = 0
            lastBuffer = nil
            condition.broadcast()
            return
        }
        if !started && !paused && (ring.buffered >= min(prefill, ring.capacity) || (ended && ring.buffered > 0)) {
            started = true
        }
        let playing = started && !paused && !closed
        // Sound that stops (pause) fades out over this buffer instead of clicking.
        let target: Float = playing && !muted ? volume : 0
        guard playing || (gain > 0 && ring.buffered > 0) else {
            output.update(repeating: 0, count: frames * format.channels)
            lastBuffer = nil
            gain = 0
            if timing == .none { schedule = nil }  // real time owes nothing while silent
            return
        }
        if timing == .none { skipToSchedule(frames: frames, at: handedAt) }
        // A realigned sound that ran ahead starts with silence (all of it, or part of this buffer).
        let lead = playing ? min(delay, frames) : 0
        delay -= lead
        output.update(repeating: 0, count: lead * format.channels)
        let next = ring.nextMediaTime
        let moved = ring.take(into: output + lead * format.channels, frames: frames - lead, gain: (gain, target),
                              total: frames - lead)
        if lead < frames { gain = target }
        if lead + moved < frames {
            (output + (lead + moved) * format.channels).update(repeating: 0, count: (frames - lead - moved) * format.channels)
            if playing && !ended && lead < frames {
                underrunCount += 1
                started = false  // buffer up again before playing on
                gain = 0
            }
        }
        let heardFrom = handedAt + Double(lead) / Double(format.rate)
        lastBuffer = playing && moved > 0 ? next.map { (heardFrom, $0.time, $0.step, moved, lead > 0, $0.epoch) } : nil
        condition.broadcast()
    }

    /// For the callback-paced driver: waits until this buffer is due on an exact schedule, so the
    /// device consumes exactly `rate` frames per second. Returns when the buffer goes out.
    private func keepSchedule(frames: Int) -> Double {
        let now = clock.now
        let rate = Double(format.rate)
        var current = schedule ?? (now, 0)
        // Behind by less than a second: no sleep until caught up. More (a real stall): start anew.
        if now - (current.start + Double(current.frames) / rate) >= 1 { current = (now, 0) }
        let due = current.start + Double(current.frames) / rate
        sleep(untilMonotonic: due)
        current.frames += Int64(frames)
        schedule = current
        return max(due, now)  // when catching up, the buffer goes out now
    }

    /// For a clockless driver: drops what real time has already consumed beyond what SDL asked
    /// for, so the sound stays where the picture is (nobody hears it). Called under the lock.
    private func skipToSchedule(frames: Int, at now: Double) {
        let rate = Double(format.rate)
        var current = schedule ?? (now, 0)
        if now - (current.start + Double(current.frames) / rate) > 1 { current = (now, 0) }
        let owed = Int((now - current.start) * rate) - Int(current.frames) - frames
        if owed > 0 { ring.discard(min(owed, ring.buffered)) }
        current.frames += Int64(frames + max(0, owed))
        schedule = current
    }
}

/// SDL's callback: `userdata` is the `AudioOutput`, alive until `close()` has closed the device.
private let audioCallback: SDL_AudioCallback = { userdata, stream, length in
    guard let userdata, let stream else { return }
    Unmanaged<AudioOutput>.fromOpaque(userdata).takeUnretainedValue().fill(stream, bytes: Int(length))
}
