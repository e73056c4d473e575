import CFFmpeg
import Filters
import Foundation
import Synchronization

/// One opened source: a demux thread and a video decode thread joined by bounded queues.
///
/// The demux thread opens the input itself, so a slow network never blocks the caller. At the end
/// of the file it rewinds and keeps feeding the same decoder with timestamps shifted by one loop
/// duration per pass: no flush, no decoder re-open, no clock reset at the wrap.
final class MediaPipeline: @unchecked Sendable {
    enum Phase: Sendable {
        case opening
        case ready(VideoStreamInfo)
        case failed(PlayerError)
    }

    private struct Control {
        var looping: Bool
        var pendingSeek: (position: Double, pass: Int)?
        var generation = 0
        /// Frames before this timeline timestamp are skipped after a seek (accurate seeking).
        var seekFloor: (generation: Int, timestamp: Int64)?
    }

    let location: MediaLocation
    /// Four decoded frames (130 ms at 30 fps) absorb decode-time jitter; more only costs memory
    /// (12 MiB at 1080p).
    let frames = BoundedQueue<FrameItem>(maxCount: 4, maxBytes: 64 << 20)
    /// About 4 s of read-ahead at 30 fps, capped at 8 MiB, like ffplay's bounded packet queues.
    private let packets = BoundedQueue<PacketItem>(maxCount: 120, maxBytes: 8 << 20)
    private let abort = AbortFlag()
    private let controlCondition = NSCondition()
    // Guarded by `controlCondition`.
    private var control: Control
    private let phaseState = Mutex<Phase>(.opening)
    private let timelineState = Mutex<LoopTimeline?>(nil)
    private let decodedCount = Atomic<Int>(0)
    private let decodeErrorCount = Atomic<Int>(0)
    /// Started threads; `closed` once `stop()` ran, so a decode thread cannot start behind its back.
    private let threads = Mutex<(list: [WorkerThread], closed: Bool)>(([], false))
    /// The filters the decode thread applies (it rebuilds its chain when the revision changes), and
    /// how many times they were set (a stack set again is tried again even if it failed before).
    private let filterState = Mutex<(stack: FilterStack, epoch: Int)>((FilterStack(), 0))
    /// A stack that failed at run time (after validation) and the stack the decoder went back to.
    private let filterFailure = Mutex<(error: FilterError, runningInstead: FilterStack)?>(nil)
    private let frameReady: @Sendable () -> Void

    /// Starts opening `location` on a new demux thread. `frameReady` is called from the decode
    /// thread after each frame is queued (to wake the presenter).
    init(location: MediaLocation, looping: Bool, frameReady: @escaping @Sendable () -> Void) {
        FFmpegLogBridge.install
        self.location = location
        self.frameReady = frameReady
        control = Control(looping: looping)
        let demux = WorkerThread(name: "lp-demux") { [self] in runDemuxer() }
        threads.withLock { $0.list.append(demux) }
    }

    var phase: Phase { phaseState.withLock { $0 } }
    var timeline: LoopTimeline? { timelineState.withLock { $0 } }
    var framesDecoded: Int { decodedCount.load(ordering: .relaxed) }
    var decodeErrors: Int { decodeErrorCount.load(ordering: .relaxed) }

    /// Replaces the filters for the frames decoded from now on.
    func setFilters(_ stack: FilterStack) { filterState.withLock { $0 = (stack, $0.epoch + 1) } }

    /// The run-time filter failure since the last call, if any, with the stack now running instead.
    func takeFilterFailure() -> (error: FilterError, runningInstead: FilterStack)? {
        filterFailure.withLock { failure in defer { failure = nil }; return failure }
    }

    var isLooping: Bool {
        get { controlCondition.withLock { control.looping } }
        set { controlCondition.withLock { control.looping = newValue; controlCondition.broadcast() } }
    }

    /// Asks for a seek to `position` seconds inside pass `pass`. Returns the new generation.
    @discardableResult
    func seek(to position: Double, inPass pass: Int) -> Int {
        controlCondition.withLock {
            control.pendingSeek = (position, pass)
            control.generation += 1
            controlCondition.broadcast()
            return control.generation
        }
    }

    /// Stops both threads, waits for them and releases every queued packet and frame. Idempotent.
    func stop() {
        abort.raise()
        controlCondition.withLock { controlCondition.broadcast() }
        packets.close()
        frames.close()
        let running = threads.withLock { state in
            defer { state = ([], true) }
            return state.list
        }
        running.forEach { $0.join() }
    }

    deinit { stop() }

    // MARK: - Demux thread

    private func runDemuxer() {
        let input: MediaInput
        let decoder: VideoDecoder
        do {
            input = try MediaInput(location: location, abort: abort)
            decoder = try VideoDecoder(stream: input.videoStream, sourceName: location.description)
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
            let looping = control.looping
            if seek != nil { generation = control.generation }
            controlCondition.unlock()
            if abort.isRaised { return }

            if let seek {
                packets.removeAll()
                offset = performSeek(input, to: seek.position, inPass: seek.pass, generation: generation)
                pass = seek.pass
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
            let status = input.readVideoPacket(into: packet.pointer)
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
                }
                continue
            }
            packetsThisPass += 1
            stamp(packet.pointer, pass: pass, offset: offset)
            if !packets.push(.packet(packet), bytes: packet.byteCount) { return }
        }
    }

    /// Records pass-0 packets for the loop length and moves later passes onto the timeline.
    private func stamp(_ packet: UnsafeMutablePointer<AVPacket>, pass: Int, offset: Int64) {
        let pts = packet.pointee.pts
        if pass == 0, pts != noTimestamp, packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 {
            timelineState.withLock { $0?.observeFirstPass(pts: pts, duration: packet.pointee.duration) }
        }
        guard offset != 0 else { return }
        if pts != noTimestamp { packet.pointee.pts = pts + offset }
        if packet.pointee.dts != noTimestamp { packet.pointee.dts += offset }
    }

    /// Moves the input back to its start for the next pass. An input that cannot seek there (a
    /// server without range requests, a pipe) is opened again; the decoder is kept either way.
    private func wrap(_ input: inout MediaInput, pass: inout Int, offset: inout Int64) -> Bool {
        if !input.rewind() && !reopen(&input) {
            if abort.isRaised { return false }
            logger.error("\(location): cannot go back to the start; looping stops")
            controlCondition.withLock { control.looping = false }
            return packets.push(.endOfStream(generation: controlCondition.withLock { control.generation }))
        }
        offset = timelineState.withLock { $0?.wrap() ?? 0 }
        if pass == 0, let seconds = timeline?.loopDurationSeconds {
            logger.debug("\(location): one pass lasts \(seconds) s; looping on one timeline")
        }
        pass += 1
        return true
    }

    /// Opens the source again from its first byte (same stream required); the decoder is kept.
    private func reopen(_ input: inout MediaInput) -> Bool {
        guard let reopened = try? MediaInput(location: location, abort: abort),
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

    // MARK: - Decode thread

    private func runDecoder(_ decoder: VideoDecoder, info: VideoStreamInfo) {
        var context = DecodeContext(info: info)
        var generation = 0
        while let item = packets.pop() {
            switch item {
            case let .packet(packet):
                if packet.generation != generation {
                    decoder.flush()
                    generation = packet.generation
                    context.floor = controlCondition.withLock {
                        control.seekFloor?.generation == generation ? control.seekFloor?.timestamp : nil
                    }
                    context.floorPass = context.floor.flatMap { floor in timelineState.withLock { $0?.pass(of: floor) } }
                    context.lastTimestamp = nil
                }
                decoder.decode(packet.pointer) { frame in emit(frame, generation: generation, context: &context) }
            case let .endOfStream(endGeneration):
                decoder.decode(nil) { frame in emit(frame, generation: generation, context: &context) }
                decoder.flush()  // accept packets again if the user seeks or re-enables looping
                if !frames.push(.endOfStream(generation: endGeneration)) { return }
                frameReady()
            }
            decodeErrorCount.store(decoder.errorCount, ordering: .relaxed)
        }
    }

    /// What the decode thread carries from frame to frame.
    private struct DecodeContext {
        let info: VideoStreamInfo
        let normalizer = PixelFormatNormalizer()
        var floor: Int64?
        /// The pass the seek target is in: once frames of a later pass arrive (the target was past
        /// the end), nothing more is skipped.
        var floorPass: Int?
        var lastTimestamp: Int64?
        /// The last chain that worked and its stack, to fall back to when a new one fails.
        var fallback: (chain: FilterChain?, stack: FilterStack)?
        var chain: FilterChain?
        var stamp = FilterStamp()
        /// The stack `chain` runs.
        var running = FilterStack()
        var failedRevision: Int?
        var epoch = 0

        init(info: VideoStreamInfo) { self.info = info }
    }

    private func emit(_ decoded: UnsafeMutablePointer<AVFrame>, generation: Int, context: inout DecodeContext) {
        guard let timeline = timelineState.withLock({ $0 }) else { return }
        var frame: UnsafeMutablePointer<AVFrame>? = decoded
        defer { av_frame_free(&frame) }
        var duration = decoded.pointee.pkt_duration
        if duration <= 0 { duration = timeline.nominalFrameTicks }
        // The packet's own pts, reordered by the codec; FFmpeg's best-effort guess may switch to dts,
        // which is wrong for variable frame rates with B-frames.
        var timestamp = decoded.pointee.pts
        if timestamp == noTimestamp { timestamp = decoded.pointee.best_effort_timestamp }
        if timestamp == noTimestamp { timestamp = (context.lastTimestamp ?? timeline.origin - duration) + duration }
        context.lastTimestamp = timestamp
        if let floor = context.floor {
            if timeline.pass(of: timestamp) > (context.floorPass ?? 0) {
                context.floor = nil
            } else if timestamp + duration <= floor {
                return
            }
        }
        decoded.pointee.pts = timestamp

        let pass = timeline.pass(of: timestamp)
        let time = timeline.seconds(timestamp)
        let position = time - timeline.seconds(timeline.origin + timeline.offset(forPass: pass))
        let picture = context.normalizer.normalize(decoded)
        frame = picture
        let (outputs, stamp) = filtered(picture, time: time, context: &context)
        for (output, source) in outputs {
            let video = VideoFrame(taking: output, source: source, filtering: stamp, time: time,
                                   duration: Double(duration) * timeline.tick,
                                   pass: pass, positionInPass: position, generation: generation,
                                   rotation: context.info.rotation, streamAspect: context.info.sampleAspectRatio)
            decodedCount.add(1, ordering: .relaxed)
            if frames.push(.frame(video), bytes: video.byteCount) { frameReady() }
        }
    }

    /// Runs the current filter stack; with no filters the picture passes as it is. A stack that
    /// fails at run time is reported once, with the last working stack, which takes over again.
    private func filtered(_ picture: UnsafeMutablePointer<AVFrame>, time: Double, context: inout DecodeContext)
        -> ([(UnsafeMutablePointer<AVFrame>, UnsafeMutablePointer<AVFrame>?)], FilterStamp) {
        let (stack, epoch) = filterState.withLock { $0 }
        if epoch != context.epoch {
            context.epoch = epoch
            context.failedRevision = nil
        }
        if stack.revision != context.stamp.revision && stack.revision != context.failedRevision {
            context.fallback = (context.chain, context.running)
            context.chain = stack.isIdentity ? nil : FilterChain(stack: stack, timeBase: context.info.timeBase)
            context.running = stack
            context.stamp = FilterStamp(stack)
        } else if stack.revision == context.stamp.revision, stack.adjustment != context.stamp.adjustment {
            if let chain = context.chain {
                chain.setAdjustment(stack.adjustment)
            } else if !stack.isIdentity {
                context.chain = FilterChain(stack: stack, timeBase: context.info.timeBase)
            }
            context.running = stack
            context.stamp = FilterStamp(stack)
        }
        guard let chain = context.chain else { return ([(av_frame_clone(picture)!, nil)], context.stamp) }
        do {
            return (try chain.process(picture, time: time).map { ($0, av_frame_clone(picture)) }, context.stamp)
        } catch {
            context.failedRevision = stack.revision
            // The fallback is used once: if it fails too, the picture goes unfiltered.
            (context.chain, context.running) = context.fallback ?? (nil, FilterStack())
            context.fallback = nil
            context.stamp = FilterStamp(context.running)
            let instead = context.running
            filterFailure.withLock { $0 = (error, instead) }
            frameReady()
            return filtered(picture, time: time, context: &context)
        }
    }
}
