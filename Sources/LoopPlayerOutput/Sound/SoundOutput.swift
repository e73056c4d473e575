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
package final class SoundOutput: Sendable {
    private let options: AudioOptions
    private let guarded: WaitableState<State>
    private let clock = MonotonicClock()

    /// Everything the engine's thread, the sound stages and SDL's audio thread share.
    private struct State {
        var device: SDL_AudioDeviceID = 0
        var deviceFormat: AudioDeviceFormat?
        /// What the device was asked for (SDL may give another channel count or rate).
        var openedFor: (rate: Int, channels: Int, driver: String)?
        var timing: SDLAudio.Timing = .none
        /// How long after the callback a sample is heard: one buffer on a real device.
        var latency = 0.0
        var ring = AudioRing(channels: 1, capacity: 1)
        var feed = AudioFeed(prefill: 0)
        /// The writer whose samples go in now (nil: none), and the generation of its writes accepted.
        var epoch: Int?
        var generation = 0
        /// The writer before the last hand-over, while the engine may still give the device back to it
        /// (the next item was dropped before it played).
        var handedFrom: (epoch: Int?, generation: Int, ended: Bool)?
        var lastEpoch = 0
        /// A writer is opening the device (outside the lock: opening can block on a sound server).
        var opening = false
        var cancelled: Set<Int> = []
        /// Writers that claimed the device (their sound stage runs), by epoch.
        var claimed: Set<Int> = []
        var speed = 1.0
        var correction: Double?
        var underrunCount = 0
        var opens = 0
        /// Frames of incoming sound to drop (`realign` of sound that was behind, beyond what was queued).
        var skip = 0
        /// Frames to drop once the buffer fading out before a realign has played.
        var discardAfterFade = 0
        /// The last buffer handed to the device: when it starts playing, the timeline time of its first
        /// sample, the timeline seconds per sample, how many real samples it held and whose they were.
        var lastBuffer: (time: Double, mediaTime: Double, step: Double, frames: Int, delayed: Bool, epoch: Int)?
        /// The exact schedule of a callback-paced or clockless driver: when it started and how many
        /// frames have been handed over since.
        var schedule: (start: Double, frames: Int64)?

        /// A fade of one buffer of what plays now (none if nothing is heard).
        var fadeOfOneBuffer: Int { feed.gain > 0 && feed.started ? min(ring.buffered, deviceFormat?.bufferFrames ?? 0) : 0 }

        /// `epoch` takes the device for good, now: what was queued fades out, and the sound waits for
        /// its item's first picture (`PlaybackEngine.updateSound` unpauses it).
        mutating func takeOver(_ epoch: Int) {
            activate(epoch, cut: true)
            handedFrom = nil
            feed.held = false
            feed.paused = true
        }

        /// `epoch` takes the device; the previous writer's unfinished sound fades out over one buffer
        /// (`cut`), a finished one plays out. A blocked previous writer is refused from now on.
        mutating func activate(_ epoch: Int, cut: Bool) {
            self.epoch = epoch
            feed.closed = false  // closed with nothing to play; a writer's claim opens it again
            if cut {
                // A fade already under way (the writer before was cancelled) goes on.
                if feed.fading == 0 { feed.fading = fadeOfOneBuffer }
                ring.truncate(keeping: feed.fading)
                feed.started = false
            }
            feed.ended = false
            feed.delay = 0
            skip = 0
            discardAfterFade = 0
        }

        /// Takes `id` as the device (still paused: the claim starts it).
        mutating func use(_ id: SDL_AudioDeviceID, format: AudioDeviceFormat, asked: (rate: Int, channels: Int, driver: String)) {
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

        /// The timeline time of `epoch`'s sound being heard at `now`, or nil while nothing plays, the
        /// driver is no clock, or another writer's sound is heard.
        func audibleMediaTime(of epoch: Int, at now: Double) -> Double? {
            // A buffer that starts with silence (`delay`) is not heard before its sound begins.
            guard timing != .none, let format = deviceFormat, let buffer = lastBuffer, buffer.epoch == epoch,
                  !buffer.delayed || now >= buffer.time + latency else { return nil }
            let rate = Double(format.rate)
            let elapsed = ((now - buffer.time - latency) * rate)
                .clamped(to: -latency * rate...Double(buffer.frames + format.bufferFrames))
            return buffer.mediaTime + elapsed * buffer.step
        }

        /// One callback's buffer of `frames` frames, handed to the device at `handedAt`.
        mutating func fill(_ output: UnsafeMutablePointer<Float>, frames: Int, handedAt: Double) {
            let channels = ring.channels
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

        /// For a clockless driver: drops what real time has already consumed beyond what SDL asked
        /// for, so the sound stays where the picture is (nobody hears it).
        private mutating func skipToSchedule(frames: Int, at now: Double) {
            let rate = Double(deviceFormat?.rate ?? SoundOutput.leastRate)
            var current = schedule ?? (now, 0)
            if now - (current.start + Double(current.frames) / rate) > 1 { current = (now, 0) }
            let owed = Int((now - current.start) * rate) - Int(current.frames) - frames
            if owed > 0 { ring.discard(min(owed, ring.buffered)) }
            current.frames += Int64(frames + max(0, owed))
            schedule = current
        }
    }

    /// No device until a writer claims it. Sound starts paused.
    package init(options: AudioOptions, volume: Float, muted: Bool, speed: Double) {
        self.options = options
        var state = State()
        state.feed.volume = volume
        state.feed.muted = muted
        state.speed = speed
        guarded = WaitableState(state)
    }

    /// Never with a device open after `close()`; otherwise SDL's thread still calls back into this
    /// object, so the close joins it here, unbounded.
    deinit {
        if let id = takeDevice() {
            SDL_CloseAudioDevice(id)
            SDLAudio.deviceClosed()
        }
    }

    /// The device's least rate.
    fileprivate static let leastRate = 48_000

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
        let epoch = guarded.change { state in
            state.lastEpoch += 1
            if takesDevice { state.takeOver(state.lastEpoch) }
            return state.lastEpoch
        }
        return SoundWriter(output: self, epoch: epoch, fresh: takesDevice)
    }

    /// Gives the device to `writer` (a playlist's next item) once the current writer's sound is all
    /// queued: its samples follow in the same ring. `held`: the current item has no sound, and the
    /// next one's plays only once it is current (`commit`). The engine may still `reclaim` it.
    package func handOver(to writer: SoundWriter, held: Bool) {
        guarded.change { state in
            state.handedFrom = (state.epoch, state.generation, state.feed.ended)
            state.activate(writer.epoch, cut: !state.feed.ended)
            state.feed.held = held
        }
    }

    /// The next item plays: the device is its writer's for good (taken over now, what was queued
    /// fading out, if the hand-over did not happen yet: a skip, or an item without sound).
    package func commit(_ writer: SoundWriter) {
        guarded.change { state in
            guard state.epoch == writer.epoch else { return state.takeOver(writer.epoch) }
            state.handedFrom = nil
            state.feed.held = false
        }
    }

    /// Gives the device back to the writer before the last hand-over (the next item was dropped
    /// before it played): what `writer` queued is dropped, the previous writer's writes count again.
    package func reclaim(from writer: SoundWriter) {
        guarded.change { state in
            guard state.epoch == writer.epoch, let from = state.handedFrom else { return }
            state.handedFrom = nil
            state.ring.truncate(keeping: state.ring.buffered(before: writer.epoch))
            state.epoch = from.epoch
            state.generation = from.generation
            state.feed.ended = from.ended
            state.feed.held = false
            if !state.feed.ended { state.feed.started = state.ring.buffered > 0 && state.feed.started }
        }
    }

    // MARK: Controls (the engine's thread)

    package func setPaused(_ paused: Bool) {
        guarded.update { state in
            state.feed.paused = paused
            if paused { state.lastBuffer = nil }
        }
    }

    package var isPaused: Bool { guarded.read { $0.feed.paused } }

    package func setVolume(_ volume: Float, muted: Bool) {
        guarded.update { state in
            state.feed.volume = volume
            state.feed.muted = muted
        }
    }

    /// The tempo the sound stages convert to (1: as recorded).
    package var playbackSpeed: Double {
        get { guarded.read { $0.speed } }
        set { guarded.update { $0.speed = newValue } }
    }

    /// The rate the sound stages resample to, to keep the sound on a shared timeline (1.001: 0.1 %
    /// faster); nil: not resampled (the player's own clock).
    package var rateCorrection: Double? {
        get { guarded.read { $0.correction } }
        set { guarded.update { $0.correction = newValue } }
    }

    /// Moves the sound by `seconds` of media against the device: positive skips queued sound (it
    /// was behind), negative delays it with silence (it was ahead). Only what is queued can be
    /// skipped (200 ms); the presenter's join takes up any rest. Sound that plays fades out over
    /// one buffer first and back in after the move: a move is a short dip, never a click.
    package func realign(by seconds: Double) {
        guarded.change { state in
            guard let step = state.ring.nextMediaTime?.step, step > 0 else { return }
            let frames = Int((seconds / step).rounded())
            let fade = state.feed.fading == 0 && frames != 0 ? state.fadeOfOneBuffer : 0
            state.feed.fading = max(state.feed.fading, fade)
            if frames > 0 {
                // What is queued beyond the fade and the prefill is skipped now (after the fade);
                // the rest as it arrives, so the device never runs dry for it.
                let now = min(frames, max(0, state.ring.buffered - state.feed.fading - state.feed.prefill))
                if state.feed.fading > 0 { state.discardAfterFade += now } else { state.ring.discard(now) }
                state.skip += frames - now
            } else {
                state.feed.delay += -frames
            }
            state.lastBuffer = nil
        }
    }

    /// What the device was opened with (nil before any writer claimed it).
    package var format: AudioDeviceFormat? { guarded.read { $0.deviceFormat } }
    package var underruns: Int { guarded.read { $0.underrunCount } }
    /// How many times the device opened (once per format a new source asks for).
    package var deviceOpens: Int { guarded.read { $0.opens } }

    /// Closes the device (joins SDL's audio thread) and wakes every blocked writer; the next claim
    /// opens it again. Idempotent.
    package func close() {
        guard let id = takeDevice() else { return }
        SDLAudio.close(id, owner: self)  // joins SDL's audio thread (for at most 2 s); never under our lock
    }

    /// Marks the output closed and hands over its device, if one is open.
    private func takeDevice() -> SDL_AudioDeviceID? {
        let id = guarded.withLock {
            guarded.waitLocked { $0.opening }  // a claim opening or reopening the device finishes first
            return guarded.changeLocked { state in
                state.feed.closed = true
                state.epoch = nil
                state.handedFrom = nil
                defer { state.device = 0 }
                return state.device
            }
        }
        return id == 0 ? nil : id
    }

    // MARK: For the writers (the sound stages' threads)

    fileprivate func claim(_ writer: SoundWriter, rate: Int, channels: Int, driver: String,
                           generation: Int) throws(PlayerError) -> AudioDeviceFormat? {
        let wanted = Self.wantedFormat(rate: rate, channels: channels, maxChannels: options.maxChannels)
        let turn = guarded.withLock { () -> (old: SDL_AudioDeviceID, opens: Bool)? in
            guarded.waitLocked { ($0.epoch != writer.epoch || $0.opening) && !$0.cancelled.contains(writer.epoch) }
            return guarded.changeLocked { state in
                guard !state.cancelled.contains(writer.epoch) else { return nil }
                // A new source of another format reopens the device; a hand-over converts (a reopen
                // would stop the sound between the items).
                let reopen = state.device != 0 && writer.fresh
                    && (state.openedFor.map { $0.rate != wanted.rate || $0.channels != wanted.channels || $0.driver != driver } ?? true)
                let old = reopen ? state.device : 0
                if reopen { state.device = 0 }
                state.opening = state.device == 0
                return (old, state.opening)
            }
        }
        guard let turn else { return nil }
        // Closing joins SDL's audio thread and opening can block on a sound server: neither under
        // the lock the engine's thread takes every iteration.
        if turn.old != 0 {
            SDL_CloseAudioDevice(turn.old)
            SDLAudio.deviceClosed()
        }
        var opened: Result<(SDL_AudioDeviceID, AudioDeviceFormat), PlayerError>?
        if turn.opens {
            do throws(PlayerError) { opened = .success(try openDevice(rate: wanted.rate, channels: wanted.channels, driver: driver)) }
            catch { opened = .failure(error) }
        }
        let outcome = guarded.change { state -> ClaimOutcome in
            if turn.opens { state.opening = false }
            let stillMine = state.epoch == writer.epoch && !state.cancelled.contains(writer.epoch) && !state.feed.closed
            switch opened {
            case let .failure(error)?:
                return .failed(error)
            case let .success((id, _))? where !stillMine:
                return .unwanted(id)  // cancelled (or closed) meanwhile: the device never starts
            case let .success((id, format))?:
                state.use(id, format: format, asked: (wanted.rate, wanted.channels, driver))
            case nil:
                guard stillMine, state.device != 0 else { return .refused }
            }
            state.generation = generation
            state.claimed.insert(writer.epoch)
            // SDL calls back from now on. Under our lock, so that no close runs between taking the
            // device and starting it; a paused device never enters the callback, so SDL's lock, taken
            // here, is never held by a callback waiting for ours.
            if turn.opens { SDL_PauseAudioDevice(state.device, 0) }
            return .claimed(state.deviceFormat)
        }
        switch outcome {
        case let .failed(error): throw error
        case let .unwanted(id):
            SDL_CloseAudioDevice(id)
            SDLAudio.deviceClosed()
            return nil
        case .refused: return nil
        case let .claimed(format): return format
        }
    }

    private enum ClaimOutcome: Sendable {
        case failed(PlayerError)
        /// Opened for a writer cancelled meanwhile: closed again.
        case unwanted(SDL_AudioDeviceID)
        case refused
        case claimed(AudioDeviceFormat?)
    }

    private static func wantedFormat(rate: Int, channels: Int, maxChannels: Int?) -> (rate: Int, channels: Int) {
        (max(rate, leastRate), deviceChannels(for: min(max(channels, 2), maxChannels ?? 8)))
    }

    /// Opens a device, paused (SDL calls back only once the claim has set every field and
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

    /// Queues `frames` interleaved frames in the device format, blocking while the ring is full.
    /// False once closed, cancelled, if `generation` is stale (a seek happened) or the device went
    /// to another writer: the caller drops them. `tempo` is the speed the samples were made at (nil:
    /// kept whatever the speed, as the old graph's drain is).
    fileprivate func write(_ writer: SoundWriter, _ samples: UnsafePointer<Float>, frames: Int, mediaTime: Double,
                           step: Double, tempo: Double?, generation: Int) -> Bool {
        guarded.withLock {
            var done = 0
            var speedChanged = false
            repeat {
                // Nothing waits for what a write changes: no wakeup (the callback wakes a blocked write).
                let taken = guarded.update { state -> Int? in
                    guard !state.feed.closed, generation == state.generation, state.epoch == writer.epoch else { return nil }
                    // Sound made at another tempo stops at a change of speed: at 0.01 one decoded frame
                    // is seconds of it, and the new speed would be heard only after them. The rest is
                    // skipped (the next sound's times say so; the picture follows). Speed 0 pauses the
                    // feed and keeps the tempo: nothing is cut then.
                    if let tempo, state.speed > 0, abs(state.speed - tempo) > 1e-6 {
                        speedChanged = true
                        return 0
                    }
                    let dropped = min(state.skip, frames - done)
                    state.skip -= dropped
                    let start = done + dropped
                    let appended = start < frames
                        ? state.ring.append(samples + start * state.ring.channels, frames: frames - start,
                                            mediaTime: mediaTime + Double(start) * step, step: step, epoch: writer.epoch)
                        : 0
                    state.feed.ended = false
                    return dropped + appended
                }
                guard let taken else { return false }
                if speedChanged { return true }
                done += taken
                if taken == 0 && done < frames { guarded.condition.wait() }
            } while done < frames
            return true
        }
    }

    /// The source ended with looping off: what is queued plays out, then silence without underruns.
    fileprivate func finish(_ writer: SoundWriter, generation: Int) {
        guarded.change { state in
            if generation == state.generation && state.epoch == writer.epoch { state.feed.ended = true }
        }
    }

    /// All of `writer`'s sound is queued (`finish`): the next item may take the device.
    fileprivate func isFinished(_ writer: SoundWriter) -> Bool {
        guarded.read { $0.epoch == writer.epoch && $0.claimed.contains(writer.epoch) && $0.feed.ended && !$0.feed.closed }
    }

    fileprivate func isActive(_ writer: SoundWriter) -> Bool { guarded.read { $0.epoch == writer.epoch } }

    /// Forgets what `writer` queued (a seek or a track change); only writes of `generation` count
    /// now. Generations only move forward: the engine flushes at once, the sound stage again when the
    /// seek reaches it in line with the packets, and the second call changes nothing.
    fileprivate func flush(_ writer: SoundWriter, generation: Int) {
        guarded.change { state in
            guard state.epoch == writer.epoch, state.claimed.contains(writer.epoch), generation > state.generation else { return }
            state.generation = generation
            state.feed.delay = 0
            state.skip = 0
            state.discardAfterFade = 0
            // One buffer of the old sound stays, to fade out instead of stopping with a click.
            state.feed.fading = state.fadeOfOneBuffer
            state.ring.truncate(keeping: state.feed.fading)
            state.feed.started = false
            state.feed.ended = false
            state.lastBuffer = nil
        }
    }

    /// `writer`'s pipeline stops: a claim or write it is blocked in returns; if it has the device,
    /// its sound fades out and the device waits, silent, for the next writer.
    fileprivate func cancel(_ writer: SoundWriter) {
        guarded.change { state in
            state.cancelled.insert(writer.epoch)
            guard state.epoch == writer.epoch else { return }
            state.feed.fading = state.fadeOfOneBuffer
            state.ring.truncate(keeping: state.feed.fading)
            state.feed.started = false
            state.feed.ended = true
            state.epoch = nil
            state.handedFrom = nil
        }
    }

    fileprivate func forget(_ writer: SoundWriter) {
        guarded.change { state in
            state.cancelled.remove(writer.epoch)
            state.claimed.remove(writer.epoch)
        }
    }

    /// The timeline time of `writer`'s sound being heard at `now` (monotonic seconds), or nil while
    /// nothing plays, the driver is no clock, or another writer's sound is heard.
    fileprivate func audibleMediaTime(of writer: SoundWriter, at now: Double) -> Double? {
        guarded.read { $0.audibleMediaTime(of: writer.epoch, at: now) }
    }

    // MARK: SDL's audio thread

    fileprivate func fill(_ stream: UnsafeMutablePointer<UInt8>, bytes: Int) {
        let (channels, timing) = guarded.read { ($0.ring.channels, $0.timing) }
        let frames = bytes / (MemoryLayout<Float>.size * channels)
        let output = UnsafeMutableRawPointer(stream).bindMemory(to: Float.self, capacity: frames * channels)
        let handedAt = timing == .pacedByCallback ? keepSchedule(frames: frames) : clock.now
        guarded.change { $0.fill(output, frames: frames, handedAt: handedAt) }
    }

    /// For the callback-paced driver: waits until this buffer is due on an exact schedule, so the
    /// device consumes exactly `rate` frames per second. Returns when the buffer goes out.
    private func keepSchedule(frames: Int) -> Double {
        let now = clock.now
        let (rate, schedule) = guarded.read { (Double($0.deviceFormat?.rate ?? Self.leastRate), $0.schedule) }
        var current = schedule ?? (now, 0)
        // Behind by less than a second: no sleep until caught up. More (a real stall): start anew.
        if now - (current.start + Double(current.frames) / rate) >= 1 { current = (now, 0) }
        let due = current.start + Double(current.frames) / rate
        sleep(untilMonotonic: due)
        current.frames += Int64(frames)
        guarded.update { [current] in $0.schedule = current }
        return max(due, now)  // when catching up, the buffer goes out now
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

    /// Queues samples made at `tempo` (nil: kept at any speed); see `SoundOutput.write`.
    package func write(_ samples: UnsafePointer<Float>, frames: Int, mediaTime: Double, step: Double, tempo: Double?,
                       generation: Int) -> Bool {
        output.write(self, samples, frames: frames, mediaTime: mediaTime, step: step, tempo: tempo, generation: generation)
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
