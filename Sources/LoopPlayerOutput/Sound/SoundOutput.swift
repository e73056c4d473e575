import CSDL
import Foundation
import Glibc
import LoopPlayerCore
import LoopPlayerMedia

/// The player's sound: one SDL device, the ring that feeds it and the clock it gives, for as long
/// as the player lives (as mpv keeps its audio output across files). Each source (playlist item)
/// gets a `SoundWriter`; the engine decides which writer the device plays: a new source takes it at
/// once (what was queued fades out), a playlist's next item takes it when the current one's sound is
/// all queued (`handOver`: its samples follow in the same ring, without a gap) and gives it back if
/// it is dropped before it plays (`reclaim`). The device opens at the first writer's format (48 kHz
/// stereo at least) and reopens for a new source of another format; a playlist's later items are
/// converted to it by their sound stage.
///
/// The sound stage writes converted samples; SDL's audio thread pulls them in the callback, applies
/// the volume (ramped over a buffer, so changes never click; `AudioFeed` decides) and records which
/// timeline time it handed over when: the master clock the presenter follows. The clock answers only
/// the writer whose samples are being heard.
package final class SoundOutput: @unchecked Sendable {  // the SDL device's owner: every field guarded by `condition`
    private let options: AudioOptions
    private let condition = MonotonicCondition()
    private var device: SDL_AudioDeviceID = 0
    private var deviceFormat: AudioDeviceFormat?
    /// What the device was asked for (SDL may give another channel count or rate).
    private var openedFor: (rate: Int, channels: Int, driver: String)?
    private var timing: SDLAudio.Timing = .none
    /// How long after the callback a sample is heard: one buffer on a real device.
    private var latency = 0.0
    private var ring = AudioRing(channels: 1, capacity: 1)
    private var feed = AudioFeed(prefill: 0)
    /// The writer whose samples go in now (nil: none), and the generation of its writes accepted.
    private var epoch: Int?
    private var generation = 0
    /// The writer before the last hand-over, while the engine may still give the device back to it
    /// (the next item was dropped before it played).
    private var handedFrom: (epoch: Int?, generation: Int, ended: Bool)?
    private var lastEpoch = 0
    /// A writer is opening the device (outside the lock: opening can block on a sound server).
    private var opening = false
    private var cancelled: Set<Int> = []
    /// Writers that claimed the device (their sound stage runs), by epoch.
    private var claimed: Set<Int> = []
    private var speed = 1.0
    private var correction: Double?
    private var underrunCount = 0
    private var opens = 0
    /// Frames of incoming sound to drop (`realign` of sound that was behind, beyond what was queued).
    private var skip = 0
    /// Frames to drop once the buffer fading out before a realign has played.
    private var discardAfterFade = 0
    /// The last buffer handed to the device: when it starts playing, the timeline time of its first
    /// sample, the timeline seconds per sample, how many real samples it held and whose they were.
    private var lastBuffer: (time: Double, mediaTime: Double, step: Double, frames: Int, delayed: Bool, epoch: Int)?
    /// The exact schedule of a callback-paced or clockless driver: when it started and how many
    /// frames have been handed over since. SDL's audio thread only (under the lock for `.none`).
    private var schedule: (start: Double, frames: Int64)?
    private let clock = MonotonicClock()

    /// No device until a writer claims it. Sound starts paused.
    package init(options: AudioOptions, volume: Float, muted: Bool, speed: Double) {
        self.options = options
        feed.volume = volume
        feed.muted = muted
        self.speed = speed
    }

    deinit { close() }

    /// The device's least rate.
    private static let leastRate = 48_000

    /// SDL's channel counts: 1, 2, 4 (quad), 6 (5.1) or 8 (7.1). Later items play into the device
    /// the first opened, converted: more channels are mixed down.
    private static func deviceChannels(for channels: Int) -> Int {
        switch channels {
        case ...1: 1
        case 2: 2
        case 3...4: 4
        case 5...6: 6
        default: 8
        }
    }

    // MARK: Writers (the engine's thread)

    /// A writer for a source. `takesDevice`: a new source, whose sound replaces what is queued (it
    /// fades out over one buffer) from now on; otherwise it waits for `handOver` or `commit`.
    package func makeWriter(takesDevice: Bool) -> SoundWriter {
        condition.withLock {
            lastEpoch += 1
            let writer = SoundWriter(output: self, epoch: lastEpoch, fresh: takesDevice)
            if takesDevice { takeOverLocked(writer) }
            return writer
        }
    }

    /// Gives the device to `writer` (a playlist's next item) once the current writer's sound is all
    /// queued: its samples follow in the same ring. `held`: the current item has no sound, and the
    /// next one's plays only once it is current (`commit`). The engine may still `reclaim` it.
    package func handOver(to writer: SoundWriter, held: Bool) {
        condition.withLock {
            handedFrom = (epoch, generation, feed.ended)
            activateLocked(writer, cut: !feed.ended)
            feed.held = held
        }
    }

    /// The next item plays: the device is its writer's for good (taken over now, what was queued
    /// fading out, if the hand-over did not happen yet: a skip, or an item without sound).
    package func commit(_ writer: SoundWriter) {
        condition.withLock {
            guard epoch == writer.epoch else { return takeOverLocked(writer) }
            handedFrom = nil
            feed.held = false
        }
    }

    /// Gives the device back to the writer before the last hand-over (the next item was dropped
    /// before it played): what `writer` queued is dropped, the previous writer's writes count again.
    package func reclaim(from writer: SoundWriter) {
        condition.withLock {
            guard epoch == writer.epoch, let from = handedFrom else { return }
            handedFrom = nil
            ring.truncate(keeping: ring.buffered(before: writer.epoch))
            epoch = from.epoch
            generation = from.generation
            feed.ended = from.ended
            feed.held = false
            if !feed.ended { feed.started = ring.buffered > 0 && feed.started }
            condition.broadcast()
        }
    }

    /// `writer` takes the device for good, now: what was queued fades out, and the sound waits for
    /// its item's first picture (`PlaybackEngine.updateSound` unpauses it).
    private func takeOverLocked(_ writer: SoundWriter) {
        activateLocked(writer, cut: true)
        handedFrom = nil
        feed.held = false
        feed.paused = true
    }

    /// `writer` takes the device; the previous writer's unfinished sound fades out over one buffer
    /// (`cut`), a finished one plays out. A blocked previous writer is woken and refused from now on.
    private func activateLocked(_ writer: SoundWriter, cut: Bool) {
        epoch = writer.epoch
        feed.closed = false  // closed with nothing to play; a writer's claim opens it again
        if cut {
            // A fade already under way (the writer before was cancelled) goes on.
            if feed.fading == 0 {
                feed.fading = feed.gain > 0 && feed.started ? min(ring.buffered, deviceFormat?.bufferFrames ?? 0) : 0
            }
            ring.truncate(keeping: feed.fading)
            feed.started = false
        }
        feed.ended = false
        feed.delay = 0
        skip = 0
        discardAfterFade = 0
        condition.broadcast()
    }

    // MARK: Controls (the engine's thread)

    package func setPaused(_ paused: Bool) {
        condition.withLock {
            feed.paused = paused
            if paused { lastBuffer = nil }
        }
    }

    package var isPaused: Bool { condition.withLock { feed.paused } }

    package func setVolume(_ volume: Float, muted: Bool) {
        condition.withLock {
            feed.volume = volume
            feed.muted = muted
        }
    }

    /// The tempo the sound stages convert to (1: as recorded).
    package var playbackSpeed: Double {
        get { condition.withLock { speed } }
        set { condition.withLock { speed = newValue } }
    }

    /// The rate the sound stages resample to, to keep the sound on a shared timeline (1.001: 0.1 %
    /// faster); nil: not resampled (the player's own clock).
    package var rateCorrection: Double? {
        get { condition.withLock { correction } }
        set { condition.withLock { correction = newValue } }
    }

    /// Moves the sound by `seconds` of media against the device: positive skips queued sound (it
    /// was behind), negative delays it with silence (it was ahead). Only what is queued can be
    /// skipped (200 ms); the presenter's join takes up any rest. Sound that plays fades out over
    /// one buffer first and back in after the move: a move is a short dip, never a click.
    package func realign(by seconds: Double) {
        condition.withLock {
            guard let step = ring.nextMediaTime?.step, step > 0 else { return }
            let frames = Int((seconds / step).rounded())
            let fade = feed.fading == 0 && feed.gain > 0 && feed.started && frames != 0
                ? min(ring.buffered, deviceFormat?.bufferFrames ?? 0) : 0
            feed.fading = max(feed.fading, fade)
            if frames > 0 {
                // What is queued beyond the fade and the prefill is skipped now (after the fade);
                // the rest as it arrives, so the device never runs dry for it.
                let now = min(frames, max(0, ring.buffered - feed.fading - feed.prefill))
                if feed.fading > 0 { discardAfterFade += now } else { ring.discard(now) }
                skip += frames - now
            } else {
                feed.delay += -frames
            }
            lastBuffer = nil
            condition.broadcast()
        }
    }

    /// What the device was opened with (nil before any writer claimed it).
    package var format: AudioDeviceFormat? { condition.withLock { deviceFormat } }
    package var underruns: Int { condition.withLock { underrunCount } }
    /// How many times the device opened (once per format a new source asks for).
    package var deviceOpens: Int { condition.withLock { opens } }


    /// Closes the device (joins SDL's audio thread) and wakes every blocked writer; the next claim
    /// opens it again. Idempotent.
    package func close() {
        let id = condition.withLock {
            while opening { condition.wait() }  // a claim opening or reopening the device finishes first
            feed.closed = true
            epoch = nil
            handedFrom = nil
            condition.broadcast()
            defer { device = 0 }
            return device
        }
        guard id != 0 else { return }
        SDL_CloseAudioDevice(id)  // joins SDL's audio thread; never under our lock
        SDLAudio.deviceClosed()
    }

    // MARK: For the writers (the sound stages' threads)

    fileprivate func claim(_ writer: SoundWriter, rate: Int, channels: Int, driver: String,
                           generation: Int) throws(PlayerError) -> AudioDeviceFormat? {
        let wanted = Self.wantedFormat(rate: rate, channels: channels, maxChannels: options.maxChannels)
        condition.lock()
        while (epoch != writer.epoch || opening) && !cancelled.contains(writer.epoch) { condition.wait() }
        guard !cancelled.contains(writer.epoch) else {
            condition.unlock()
            return nil
        }
        // A new source of another format reopens the device; a hand-over converts (a reopen would
        // stop the sound between the items).
        let reopen = device != 0 && writer.fresh
            && (openedFor.map { $0.rate != wanted.rate || $0.channels != wanted.channels || $0.driver != driver } ?? true)
        let old = reopen ? device : 0
        if reopen { device = 0 }
        let opens = device == 0
        opening = opens
        condition.unlock()
        // Closing joins SDL's audio thread and opening can block on a sound server: neither under
        // the lock the engine's thread takes every iteration.
        if old != 0 {
            SDL_CloseAudioDevice(old)
            SDLAudio.deviceClosed()
        }
        var opened: Result<(SDL_AudioDeviceID, AudioDeviceFormat), PlayerError>?
        if opens {
            do throws(PlayerError) { opened = .success(try openDevice(rate: wanted.rate, channels: wanted.channels, driver: driver)) }
            catch { opened = .failure(error) }
        }
        condition.lock()
        if opens {
            opening = false
            condition.broadcast()
        }
        let stillMine = epoch == writer.epoch && !cancelled.contains(writer.epoch) && !feed.closed
        switch opened {
        case let .failure(error)?:
            condition.unlock()
            throw error
        case let .success((id, _))? where !stillMine:
            // Cancelled (or closed) meanwhile: the device never starts.
            condition.unlock()
            SDL_CloseAudioDevice(id)
            SDLAudio.deviceClosed()
            return nil
        case let .success((id, format))?:
            useLocked(id, format: format, asked: (wanted.rate, wanted.channels, driver))
        case nil:
            guard stillMine, device != 0 else {
                condition.unlock()
                return nil
            }
        }
        self.generation = generation
        claimed.insert(writer.epoch)
        // SDL calls back from now on. Under our lock, so that no close runs between taking the
        // device and starting it; a paused device never enters the callback, so SDL's lock, taken
        // here, is never held by a callback waiting for ours.
        if opens { SDL_PauseAudioDevice(device, 0) }
        let format = deviceFormat
        condition.unlock()
        return format
    }

    private static func wantedFormat(rate: Int, channels: Int, maxChannels: Int?) -> (rate: Int, channels: Int) {
        (max(rate, leastRate), deviceChannels(for: min(max(channels, 2), maxChannels ?? 8)))
    }

    /// Opens a device, paused (SDL calls back only once `startLocked` has set every field and
    /// unpaused it).
    private func openDevice(rate: Int, channels: Int, driver: String) throws(PlayerError) -> (SDL_AudioDeviceID, AudioDeviceFormat) {
        if driver == "disk" { try Self.checkDiskFile(options.device ?? ProcessInfo.processInfo.environment["SDL_DISKAUDIOFILE"]) }
        var desired = SDL_AudioSpec()
        desired.freq = Int32(rate)
        desired.format = SDL_AudioFormat(AUDIO_F32SYS)
        desired.channels = UInt8(channels)
        desired.samples = UInt16(Int((Double(rate) * 0.02).rounded()))  // 20 ms
        desired.callback = soundCallback
        desired.userdata = Unmanaged.passUnretained(self).toOpaque()
        var obtained = SDL_AudioSpec()
        let flags = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        let id = try SDLAudio.openDevice(driver: driver) { SDL_OpenAudioDevice(options.device, 0, &desired, &obtained, flags) }
        return (id, AudioDeviceFormat(rate: Int(obtained.freq), channels: Int(obtained.channels), driver: driver,
                                      bufferFrames: Int(obtained.samples)))
    }

    /// SDL's disk driver opens its file blocking: a FIFO nobody reads would hold the sound stage (and
    /// a stop) forever. One without a reader is refused instead.
    private static func checkDiskFile(_ path: String?) throws(PlayerError) {
        guard let path else { return }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        let probe = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard probe >= 0 else {
            throw .audioUnavailable(reason: "\(path) is a FIFO with no reader: SDL's disk driver would wait for one forever")
        }
        Glibc.close(probe)
    }

    /// Takes `id` as the device (still paused: the claim starts it).
    private func useLocked(_ id: SDL_AudioDeviceID, format: AudioDeviceFormat, asked: (rate: Int, channels: Int, driver: String)) {
        device = id
        deviceFormat = format
        openedFor = asked
        opens += 1
        timing = SDLAudio.timing(of: asked.driver)
        latency = timing == .hardware ? format.bufferDuration : 0
        let prefill = max(2 * format.bufferFrames, format.rate / 25)  // 40 ms at least
        // 200 ms of converted audio: enough to ride out a slow decode, short enough that a speed
        // change is heard soon.
        ring = AudioRing(channels: format.channels, capacity: max(prefill * 2, format.rate / 5))
        var fresh = AudioFeed(prefill: prefill)
        fresh.paused = feed.paused
        fresh.volume = feed.volume
        fresh.muted = feed.muted
        fresh.held = feed.held
        feed = fresh
        schedule = nil
        lastBuffer = nil
    }

    /// Queues `frames` interleaved frames in the device format, blocking while the ring is full.
    /// False once closed, cancelled, if `generation` is stale (a seek happened) or the device went
    /// to another writer: the caller drops them.
    fileprivate func write(_ writer: SoundWriter, _ samples: UnsafePointer<Float>, frames: Int, mediaTime: Double,
                           step: Double, generation: Int) -> Bool {
        var done = 0
        condition.lock()
        defer { condition.unlock() }
        guard epoch == writer.epoch, generation == self.generation, !feed.closed else { return false }
        if skip > 0 {
            let dropped = min(skip, frames)
            skip -= dropped
            done = dropped
        }
        let channels = ring.channels
        while done < frames {
            if feed.closed || generation != self.generation || epoch != writer.epoch { return false }
            let taken = ring.append(samples + done * channels, frames: frames - done,
                                    mediaTime: mediaTime + Double(done) * step, step: step, epoch: writer.epoch)
            done += taken
            if taken == 0 { condition.wait() }
        }
        feed.ended = false
        return true
    }

    /// The source ended with looping off: what is queued plays out, then silence without underruns.
    fileprivate func finish(_ writer: SoundWriter, generation: Int) {
        condition.withLock { if generation == self.generation && epoch == writer.epoch { feed.ended = true } }
    }

    /// All of `writer`'s sound is queued (`finish`): the next item may take the device.
    fileprivate func isFinished(_ writer: SoundWriter) -> Bool {
        condition.withLock { epoch == writer.epoch && claimed.contains(writer.epoch) && feed.ended && !feed.closed }
    }

    fileprivate func isActive(_ writer: SoundWriter) -> Bool { condition.withLock { epoch == writer.epoch } }

    /// Forgets what `writer` queued (a seek or a track change); only writes of `generation` count
    /// now. Generations only move forward: the engine flushes at once, the sound stage again when the
    /// seek reaches it in line with the packets, and the second call changes nothing.
    fileprivate func flush(_ writer: SoundWriter, generation: Int) {
        condition.withLock {
            guard epoch == writer.epoch, claimed.contains(writer.epoch), generation > self.generation else { return }
            self.generation = generation
            feed.delay = 0
            skip = 0
            discardAfterFade = 0
            // One buffer of the old sound stays, to fade out instead of stopping with a click.
            feed.fading = feed.gain > 0 && feed.started ? min(ring.buffered, deviceFormat?.bufferFrames ?? 0) : 0
            ring.truncate(keeping: feed.fading)
            feed.started = false
            feed.ended = false
            lastBuffer = nil
            condition.broadcast()
        }
    }

    /// `writer`'s pipeline stops: a claim or write it is blocked in returns; if it has the device,
    /// its sound fades out and the device waits, silent, for the next writer.
    fileprivate func cancel(_ writer: SoundWriter) {
        condition.withLock {
            cancelled.insert(writer.epoch)
            if epoch == writer.epoch {
                feed.fading = feed.gain > 0 && feed.started ? min(ring.buffered, deviceFormat?.bufferFrames ?? 0) : 0
                ring.truncate(keeping: feed.fading)
                feed.started = false
                feed.ended = true
                epoch = nil
                handedFrom = nil
            }
            condition.broadcast()
        }
    }

    fileprivate func forget(_ writer: SoundWriter) {
        condition.withLock {
            cancelled.remove(writer.epoch)
            claimed.remove(writer.epoch)
        }
    }

    /// The timeline time of `writer`'s sound being heard at `now` (monotonic seconds), or nil while
    /// nothing plays, the driver is no clock, or another writer's sound is heard.
    fileprivate func audibleMediaTime(of writer: SoundWriter, at now: Double) -> Double? {
        condition.withLock {
            // A buffer that starts with silence (`delay`) is not heard before its sound begins.
            guard timing != .none, let format = deviceFormat, let buffer = lastBuffer, buffer.epoch == writer.epoch,
                  !buffer.delayed || now >= buffer.time + latency else { return nil }
            let rate = Double(format.rate)
            let elapsed = ((now - buffer.time - latency) * rate)
                .clamped(to: -latency * rate...Double(buffer.frames + format.bufferFrames))
            return buffer.mediaTime + elapsed * buffer.step
        }
    }

    // MARK: SDL's audio thread

    fileprivate func fill(_ stream: UnsafeMutablePointer<UInt8>, bytes: Int) {
        let channels = condition.withLock { ring.channels }
        let frames = bytes / (MemoryLayout<Float>.size * channels)
        let output = UnsafeMutableRawPointer(stream).bindMemory(to: Float.self, capacity: frames * channels)
        let handedAt = timing == .pacedByCallback ? keepSchedule(frames: frames) : clock.now
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if timing == .none && feed.isPlaying && feed.fading == 0 { skipToSchedule(frames: frames, at: handedAt) }
        let next = ring.nextMediaTime
        let plan = feed.plan(frames: frames, buffered: ring.buffered, capacity: ring.capacity)
        if plan.idle {
            output.update(repeating: 0, count: frames * channels)
            lastBuffer = nil
            if timing == .none { schedule = nil }  // real time owes nothing while silent
            return
        }
        if plan.fadeOut > 0 {
            // The sound before a seek: out over this buffer, never counted as heard.
            let moved = ring.take(into: output, frames: plan.fadeOut, gain: (plan.gainFrom, 0), total: plan.fadeOut)
            (output + moved * channels).update(repeating: 0, count: (frames - moved) * channels)
            if discardAfterFade > 0 {  // a realign's skip, after its fade
                ring.discard(discardAfterFade)
                discardAfterFade = 0
            }
            lastBuffer = nil
            return
        }
        output.update(repeating: 0, count: plan.leadingSilence * channels)
        let moved = ring.take(into: output + plan.leadingSilence * channels, frames: plan.take,
                              gain: (plan.gainFrom, plan.gainTo), total: frames - plan.leadingSilence)
        let filled = plan.leadingSilence + moved
        (output + filled * channels).update(repeating: 0, count: (frames - filled) * channels)
        if plan.underrun { underrunCount += 1 }
        let heardFrom = handedAt + Double(plan.leadingSilence) / Double(deviceFormat?.rate ?? 1)
        lastBuffer = plan.heard ? next.map { (heardFrom, $0.time, $0.step, moved, plan.leadingSilence > 0, $0.epoch) } : nil
    }

    /// For the callback-paced driver: waits until this buffer is due on an exact schedule, so the
    /// device consumes exactly `rate` frames per second. Returns when the buffer goes out.
    private func keepSchedule(frames: Int) -> Double {
        let now = clock.now
        let rate = Double(deviceFormat?.rate ?? Self.leastRate)
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
        let rate = Double(deviceFormat?.rate ?? Self.leastRate)
        var current = schedule ?? (now, 0)
        if now - (current.start + Double(current.frames) / rate) > 1 { current = (now, 0) }
        let owed = Int((now - current.start) * rate) - Int(current.frames) - frames
        if owed > 0 { ring.discard(min(owed, ring.buffered)) }
        current.frames += Int64(frames + max(0, owed))
        schedule = current
    }
}

/// One source's way into the player's `SoundOutput`: its sound stage claims the device (waiting
/// for its turn: a playlist's next item waits until the engine hands the device over), writes, and
/// finishes; the engine reads the clock of what it hears through it. Stopping the source cancels it.
package final class SoundWriter: Sendable {
    fileprivate let output: SoundOutput
    package let epoch: Int
    /// Made for a new source (it took the device at once): it may reopen the device in its format.
    fileprivate let fresh: Bool

    fileprivate init(output: SoundOutput, epoch: Int, fresh: Bool) {
        self.output = output
        self.epoch = epoch
        self.fresh = fresh
    }

    deinit { output.forget(self) }

    /// Waits until this writer has the device, opens it if none is open (in the format of a source of
    /// `rate` Hz and `channels` channels), and accepts writes of `generation`. Nil once cancelled.
    package func claim(rate: Int, channels: Int, driver: String, generation: Int) throws(PlayerError) -> AudioDeviceFormat? {
        try output.claim(self, rate: rate, channels: channels, driver: driver, generation: generation)
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int, mediaTime: Double, step: Double, generation: Int) -> Bool {
        output.write(self, samples, frames: frames, mediaTime: mediaTime, step: step, generation: generation)
    }

    package func finish(generation: Int) { output.finish(self, generation: generation) }
    package func flush(generation: Int) { output.flush(self, generation: generation) }
    package func cancel() { output.cancel(self) }

    /// The device plays this writer's samples (or will, once its turn comes: held or queued after).
    package var hasDevice: Bool { output.isActive(self) }
    /// All of this writer's sound is queued: the next item may take the device.
    package var isFinished: Bool { output.isFinished(self) }
    package var speed: Double { output.playbackSpeed }
    package var rateCorrection: Double? { output.rateCorrection }

    package func audibleMediaTime(at now: Double) -> Double? { output.audibleMediaTime(of: self, at: now) }
}

/// SDL's callback: `userdata` is the `SoundOutput`, alive until `close()` has closed the device.
private let soundCallback: SDL_AudioCallback = { userdata, stream, length in
    guard let userdata, let stream else { return }
    Unmanaged<SoundOutput>.fromOpaque(userdata).takeUnretainedValue().fill(stream, bytes: Int(length))
}
