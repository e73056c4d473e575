import CFFmpeg
import FFmpegSupport
import Filters

/// The picture stage's thread: decodes the demuxer's packets (FFmpeg's own frame threads), gives
/// each picture its place on the loop's timeline, converts formats the renderers cannot take,
/// filters, and queues `VideoFrame`s for the presenter.
///
/// It learns everything from its input, in order: seeks (flush, skip to the floor), the end of each
/// pass (the loop's length), the end of the stream (drain). A source whose packets decode to no
/// picture at all ends with `noDecodableFrames` instead of looping over nothing.
///
/// With a `LoopFrameCache`, a loop whose whole pass fits it is decoded once: at the end of the
/// collected pass the decoder gives up its last pictures (drained), and from then on each packet
/// brings the next cached picture, stamped for its pass, instead of a decode. The demuxer still
/// reads, so seeks, the loop's end and looping switched off arrive as before; a seek decodes again
/// until the next pass begins.
final class VideoDecodeStage {
    private let source: any FrameSource
    private let info: VideoStreamInfo
    private var timeline: LoopTimeline
    private let input: BoundedQueue<StageMessage>
    private let output: BoundedQueue<FrameItem>
    private let filters: FilterMailbox
    private let status: PipelineStatus
    private let sourceName: String
    private let frameReady: @Sendable () -> Void

    private var generation = 0
    /// After a seek: frames ending before `floor` are skipped, unless they belong to a pass after `floorPass`.
    private var floor: (timestamp: Int64, pass: Int)?
    private var timestamps: TimestampRepair
    private let normalizer = PixelFormatNormalizer()
    private var filterRunner: VideoFilterRunner
    private var progress = DecodeProgress()
    /// Where the HLS variant changes: pictures from each timestamp on come from that variant.
    private var variants = VariantMarks()
    /// The pictures of one whole pass, for later passes (nil: not kept).
    private let cache: LoopFrameCache?
    /// Replaying `cache`: the pass being replayed and the index of its next picture.
    private var replay: (pass: Int, next: Int)?
    /// The pass of the last packet of this generation (nil after a seek, until its first packet).
    private var packetPass: Int?
    private let isLooping: @Sendable () -> Bool
    /// The source's sound plays and may play alone: a picture that never decodes leaves it playing
    /// under a black one.
    private let hasSound: Bool
    private let sizeLimit: VideoSizeLimit
    /// A decoded picture was over the size limit: the stage has failed and decodes nothing more.
    private var refusedSize = false
    /// The last picture size found within the limit.
    private var allowedSize: (width: Int32, height: Int32) = (0, 0)

    init(opened: OpenedSource, input: BoundedQueue<StageMessage>, output: BoundedQueue<FrameItem>,
         filters: FilterMailbox, status: PipelineStatus, sourceName: String, frameCacheBytes: Int,
         soundMayPlayAlone: Bool = false, sizeLimit: VideoSizeLimit = .standard, isLooping: @escaping @Sendable () -> Bool, frameReady: @escaping @Sendable () -> Void) {
        source = opened.pictures
        info = opened.info
        timeline = opened.timeline
        self.input = input
        self.output = output
        self.filters = filters
        self.status = status
        self.sourceName = sourceName
        self.frameReady = frameReady
        self.isLooping = isLooping
        hasSound = soundMayPlayAlone && opened.sound != nil && opened.pictures is StreamDecoder
        self.sizeLimit = sizeLimit
        // MPEG-TS may jump in time; ten seconds is ffplay's limit for such formats.
        timestamps = TimestampRepair(jumpLimit: opened.discontinuousTimestamps
                                     ? Int64((10 / opened.timeline.tick).rounded()) : nil)
        filterRunner = VideoFilterRunner(timeBase: opened.info.timeBase)
        // Only a decoder's pictures are kept (the black picture of audio-only media is not), and only
        // when the file's announced length may fit: a clip far too long never starts filling memory.
        let mayFit = LoopFrameCache.mayFit(budget: frameCacheBytes, width: opened.info.width, height: opened.info.height,
                                           duration: opened.info.announcedDuration,
                                           frameInterval: opened.info.nominalFrameInterval)
        cache = mayFit && opened.pictures is StreamDecoder ? LoopFrameCache(budget: frameCacheBytes) : nil
    }

    /// The thread's body: returns when the input is closed or the source proved undecodable.
    func run() {
        while let message = input.pop() {
            switch consume message {
            case let .packet(packet, context):
                guard context.generation == generation else { continue }
                if context.pass != packetPass {
                    // Until a pass is held, the file's first packet (a pass's first, or the first read
                    // after opening) must start a picture alone: a pass replayed forever must not
                    // begin with pictures that could not be decoded, and a drained decoder decodes
                    // again from there. Once a pass is held no pass start is decoded again.
                    let startsAPass = packetPass != nil || generation == 0
                    if let cache, !cache.isComplete, startsAPass, packet.pointer.pointee.flags & AV_PKT_FLAG_KEY == 0 {
                        cache.refuse()
                    }
                    packetPass = context.pass
                }
                if replay != nil {
                    progress.packet(pts: packet.pointer.pointee.pts, tick: timeline.tick)
                    replayNext()
                    continue
                }
                variants.packet(context.variant, pts: packet.pointer.pointee.pts)
                progress.packet(pts: packet.pointer.pointee.pts, tick: timeline.tick)
                source.decode(packet.pointer, timeline: timeline) { emit($0) }
                if refusedSize { return }
                if let problem = progress.verdict() { return fail(problem) }
            case let .seek(marker):
                replay = nil
                packetPass = nil
                cache?.interrupt()
                generation = marker.generation
                floor = (marker.floor, marker.pass)
                source.flush()
                timestamps.reset()
                progress.restart()
                variants = VariantMarks()
            case let .passEnded(boundary):
                timeline.learn(loopDuration: boundary.loopDuration)
                endPass(boundary.pass)
                progress.passEnded()
                if let problem = progress.verdict() { return fail(problem) }
            case let .endOfStream(endGeneration, resumable):
                guard endGeneration == generation else { continue }
                if replay != nil {
                    replayRest()
                    // Looping switched on again: the next pass's end drains the (flushed) decoder
                    // and replay resumes; a seek decodes.
                    replay = nil
                } else {
                    source.decode(nil, timeline: timeline) { emit($0) }
                    source.flush()  // accept packets again if the user seeks or switches looping on
                    if !isLooping() { cache?.interrupt() }  // the pass will not come again as it is
                }
                if let problem = progress.verdictAtEnd() { return fail(problem) }
                guard output.push(.endOfStream(generation: endGeneration, resumable: resumable)) == .queued else { return }
                frameReady()
            }
            status.setDecodeErrors(source.errorCount)
            if let cache { status.setFrameCacheBytes(cache.bytes) }
        }
    }

    private func fail(_ detail: String) {
        guard hasSound, !progress.decodedAny else {
            return status.post(.fatal(.noDecodableFrames(source: sourceName, detail: detail)))
        }
        status.post(.pictureUndecodable(.noDecodableFrames(source: sourceName,
                                                           detail: detail + "; its sound plays under a black picture")))
    }

    private func emit(_ decoded: consuming OwnedFrame) {
        let picture = decoded.pointer.pointee
        // A size the container did not say (or lied about) is checked on the picture itself, once
        // per size: pictures of one stream nearly never change it.
        guard !refusedSize else { return }
        if picture.width != allowedSize.width || picture.height != allowedSize.height {
            guard sizeLimit.allows(width: Int(picture.width), height: Int(picture.height)) else {
                refusedSize = true
                status.post(.fatal(.unsupportedVideoSize(source: sourceName, width: Int(picture.width), height: Int(picture.height))))
                return
            }
            allowedSize = (picture.width, picture.height)
        }
        progress.picture()
        let nominal = timeline.nominalFrameTicks
        // A missing, absurd or corrupt duration falls back to the stream's frame rate.
        let duration = picture.pkt_duration > 0 && picture.pkt_duration <= nominal * 300 ? picture.pkt_duration : nominal
        var candidate = picture.best_effort_timestamp
        if candidate == noTimestamp { candidate = picture.pts }
        let timestamp = timestamps.timestamp(for: candidate == noTimestamp ? nil : candidate, duration: duration,
                                             start: timeline.origin)
        if let floor {
            if timeline.pass(of: timestamp) > floor.pass {
                self.floor = nil
            } else if timestamp + duration <= floor.timestamp {
                return
            }
        }
        decoded.pointer.pointee.pts = timestamp
        let normalized = normalizer.normalize(decoded)
        if let cache, cache.isCollecting {
            if !isLooping() {
                cache.interrupt()  // a source played once (no loop, a playlist's item) keeps nothing
            } else if timestamps.offset != 0 {
                cache.refuse()  // timestamps that jump were repaired: a replay could not follow them
            } else {
                let pass = timeline.pass(of: timestamp)
                cache.offer(normalized, timestamp: timestamp, duration: duration, pass: pass,
                            passStart: timeline.origin + timeline.offset(forPass: pass), tolerance: timeline.nominalFrameTicks / 2)
            }
        }
        deliver(normalized, timestamp: timestamp, duration: duration, replayed: false)
    }

    /// Filters a picture stamped `timestamp` on the timeline and queues it for the presenter.
    private func deliver(_ picture: consuming OwnedFrame, timestamp: Int64, duration: Int64, replayed: Bool) {
        let pass = timeline.pass(of: timestamp)
        let time = timeline.seconds(timestamp)
        let position = time - timeline.seconds(timeline.origin + timeline.offset(forPass: pass))
        let generation = self.generation
        let variant = variants.variant(at: timestamp)
        filterRunner.run(picture, time: time, mailbox: filters, status: status) { shown, unfiltered, stamp in
            let frame = VideoFrame(picture: shown, unfiltered: unfiltered, filtering: stamp, time: time,
                                   duration: Double(duration) * timeline.tick, pass: pass, positionInPass: position,
                                   generation: generation, rotation: info.rotation, streamAspect: info.sampleAspectRatio,
                                   variant: variant)
            if replayed { status.countReplayedFrame() } else { status.countDecodedFrame() }
            if output.push(.frame(frame), bytes: frame.byteCount) == .queued { frameReady() }
        }
    }

    // MARK: Replaying a whole pass

    /// The demuxer finished reading `pass`. A replayed pass gives its remaining pictures and the
    /// next one begins; a pass that completes the cache (or the first after a seek, once it is
    /// complete) drains the decoder of its last pictures, and replay begins with the next pass.
    private func endPass(_ pass: Int) {
        if replay != nil {
            replayRest()
            replay = (pass + 1, 0)
            return
        }
        guard let cache else { return }
        guard cache.wantsDrain(atEndOf: pass) else {
            _ = cache.passEnded(pass)
            return
        }
        source.decode(nil, timeline: timeline) { emit($0) }
        source.flush()
        if cache.passEnded(pass) {
            replay = (pass + 1, 0)
            floor = nil  // a seek's floor concerned decoded pictures only
        }
    }

    /// Delivers the replayed pass's next picture, if any is left.
    private func replayNext() {
        guard let cache, let (pass, next) = replay, next < cache.count else { return }
        replay = (pass, next + 1)
        guard let replayed = cache.picture(at: next, forPass: pass, offset: timeline.offset(forPass:)) else { return }
        progress.picture()
        let timestamp = replayed.timestamp, duration = replayed.duration
        deliver(replayed.picture, timestamp: timestamp, duration: duration, replayed: true)
    }

    /// Delivers every picture left in the replayed pass (its packets were fewer than its pictures).
    private func replayRest() {
        while let cache, let (_, next) = replay, next < cache.count { replayNext() }
    }
}

/// Tells a source that decodes to nothing from one that is merely slow to start: no picture after
/// two whole passes (a decoder's reorder delay can hold the first pictures of a very short clip
/// until the next pass), after a long stretch of packets, or at the end of the stream. Once any
/// picture was decoded the source is decodable for good; the counts restart at a seek. Pure.
struct DecodeProgress: Equatable {
    private(set) var decodedAny = false
    private(set) var pictures = 0
    /// Since the last picture: a source that decoded before can still stop yielding pictures
    /// (damaged later passes): whole passes of packets with none is the same failure.
    private(set) var packetsSincePicture = 0
    /// Whole passes since the last picture that brought packets but no picture.
    private(set) var barrenPasses = 0
    private var packetsThisPass = 0
    private var picturesThisPass = 0
    private(set) var packets = 0
    private(set) var passesEnded = 0
    private var earliestPTS: Double?
    private var latestPTS: Double?

    /// Packets and seconds of them without any picture before giving up in the middle of a pass
    /// (a stream starting mid-GOP may skip a long GOP first).
    static let packetLimit = 600
    static let secondsLimit = 20.0

    mutating func packet(pts: Int64, tick: Double) {
        packets += 1
        packetsSincePicture += 1
        packetsThisPass += 1
        guard pts != noTimestamp else { return }
        let seconds = Double(pts) * tick
        earliestPTS = min(earliestPTS ?? seconds, seconds)
        latestPTS = max(latestPTS ?? seconds, seconds)
    }

    mutating func picture() {
        pictures += 1
        picturesThisPass += 1
        decodedAny = true
        packetsSincePicture = 0
        barrenPasses = 0
    }

    mutating func passEnded() {
        passesEnded += 1
        if picturesThisPass == 0 && packetsThisPass > 0 { barrenPasses += 1 }
        packetsThisPass = 0
        picturesThisPass = 0
    }

    /// Packets without a picture, over two whole passes that had packets, after pictures were
    /// decoded: more than any decoder's reorder delay.
    static let packetsWithoutPictureLimit = 64

    mutating func restart() {
        let decoded = decodedAny
        self = DecodeProgress()
        decodedAny = decoded
    }

    /// Why the source counts as undecodable by now, or nil.
    func verdict() -> String? {
        if decodedAny {
            guard barrenPasses >= 2, packetsSincePicture >= Self.packetsWithoutPictureLimit else { return nil }
            return "\(packetsSincePicture) packets over \(barrenPasses) passes without a picture"
        }
        guard packets > 0 else { return nil }
        if passesEnded >= 2 { return "\(packets) packets in \(passesEnded) passes, no picture" }
        let span = (latestPTS ?? 0) - (earliestPTS ?? 0)
        if packets >= Self.packetLimit && span >= Self.secondsLimit {
            return "\(packets) packets over \(Int(span)) s, no picture"
        }
        return nil
    }

    /// At the end of the stream (after draining the decoder): any packets, no picture.
    func verdictAtEnd() -> String? {
        guard !decodedAny else { return nil }
        return packets == 0 ? "the stream holds no packets" : "\(packets) packets, no picture"
    }
}

/// Which HLS variant each picture comes from. Packets carry their variant; a switch happens at a
/// segment boundary, where a keyframe starts the new variant's pictures, so every picture from the
/// first packet of a new variant on (in presentation time) is that variant's. Pure.
struct VariantMarks: Equatable {
    private var marks: [(from: Int64, variant: StreamVariant?)] = []

    static func == (a: Self, b: Self) -> Bool {
        a.marks.map(\.from) == b.marks.map(\.from) && a.marks.map(\.variant) == b.marks.map(\.variant)
    }

    /// A packet (timeline timestamp `pts`) of `variant` goes to the decoder.
    mutating func packet(_ variant: StreamVariant?, pts: Int64) {
        guard marks.last.map({ $0.variant != variant }) ?? (variant != nil) else { return }
        marks.append((pts == noTimestamp ? marks.last?.from ?? .min : pts, variant))
        if marks.count > 64 { marks.removeFirst(marks.count - 64) }
    }

    /// The variant of the picture at `timestamp`.
    func variant(at timestamp: Int64) -> StreamVariant? {
        if let mark = marks.last(where: { $0.from <= timestamp }) { return mark.variant }
        return marks.first?.variant
    }
}
