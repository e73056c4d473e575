import CFFmpeg
import FFmpegSupport
import Filters
import Foundation
import Synchronization

/// The decode thread: decodes, skips frames before a seek target, normalises the pixel format and
/// runs the filter stack, then queues frames for the presenter.
extension MediaPipeline {
    func runDecoder(_ decoder: any FrameSource, info: VideoStreamInfo) {
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
            var outputs: [(UnsafeMutablePointer<AVFrame>, UnsafeMutablePointer<AVFrame>?)] = []
            let input = OwnedFrame(taking: av_frame_clone(picture)!)
            try chain.process(input, time: time) { outputs.append(($0.release(), av_frame_clone(picture))) }
            return (outputs, context.stamp)
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
