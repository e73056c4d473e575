import CFFmpeg
import Filters
import Foundation
import Synchronization

/// One opened source: a demux thread feeding a video decode thread and an audio decode thread
/// through bounded queues.
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

    struct Control {
        var looping: Bool
        var pendingSeek: (position: Double, pass: Int)?
        var generation = 0
        /// Frames before this timeline timestamp are skipped after a seek (accurate seeking).
        var seekFloor: (generation: Int, timestamp: Int64)?
        /// An audio track to switch to (`.some(nil)`: none), applied with the next seek.
        var pendingAudioTrack: AudioTrack??
    }

    /// What the engine sets for the sound; applied to the device when it opens.
    struct AudioControls: Equatable {
        var volume: Float = 1
        var muted = false
        var paused = true
        var speed = 1.0
    }

    let location: MediaLocation
    /// Four decoded frames (130 ms at 30 fps) absorb decode-time jitter; more only costs memory
    /// (12 MiB at 1080p).
    let frames = BoundedQueue<FrameItem>(maxCount: 4, maxBytes: 64 << 20)
    /// About 4 s of read-ahead at 30 fps, capped at 8 MiB, like ffplay's bounded packet queues.
    let packets = BoundedQueue<PacketItem>(maxCount: 120, maxBytes: 8 << 20)
    /// The same read-ahead for audio: 400 AAC packets are 8.5 s at 48 kHz.
    let audioPackets = BoundedQueue<PacketItem>(maxCount: 400, maxBytes: 4 << 20)
    let audioOptions: AudioOptions
    /// SDL's audio driver (or why there is none); nil when no sound is wanted.
    let audioDriver: Result<String, PlayerError>?
    let audioControls: Mutex<AudioControls>
    /// The open device (from when the demux thread opened it until `stop()`).
    let audioOutputState = Mutex<AudioOutput?>(nil)
    /// The source's audio tracks and the one playing, once opened.
    let audioTrackState = Mutex<(all: [AudioTrack], current: AudioTrack?)>(([], nil))
    /// A decoder for a newly selected track, taken by the audio thread at its next generation.
    let audioDecoderHandoff = Mutex<StreamDecoder?>(nil)
    /// Audio problems the engine has not reported yet (no device, undecodable track).
    let audioFailures = Mutex<[PlayerError]>([])
    let abort = AbortFlag()
    let controlCondition = NSCondition()
    // Guarded by `controlCondition`.
    var control: Control
    let phaseState = Mutex<Phase>(.opening)
    let timelineState = Mutex<LoopTimeline?>(nil)
    let decodedCount = Atomic<Int>(0)
    /// The pass the demuxer is reading (the audio thread pads a pass only once it is read).
    let readingPass = Atomic<Int>(0)
    /// An audio thread consumes `audioPackets` (audio-only media without one must not fill it).
    let audioThreadRunning = Atomic<Bool>(false)
    let decodeErrorCount = Atomic<Int>(0)
    /// Started threads; `closed` once `stop()` ran, so a decode thread cannot start behind its back.
    let threads = Mutex<(list: [WorkerThread], closed: Bool)>(([], false))
    /// The filters the decode thread applies (it rebuilds its chain when the revision changes), and
    /// how many times they were set (a stack set again is tried again even if it failed before).
    let filterState = Mutex<(stack: FilterStack, epoch: Int)>((FilterStack(), 0))
    /// A stack that failed at run time (after validation) and the stack the decoder went back to.
    let filterFailure = Mutex<(error: FilterError, runningInstead: FilterStack)?>(nil)
    let frameReady: @Sendable () -> Void

    /// Starts opening `location` on a new demux thread. `frameReady` is called from the decode
    /// thread after each frame is queued (to wake the presenter).
    init(location: MediaLocation, looping: Bool, audio: AudioOptions = AudioOptions(),
         audioDriver: Result<String, PlayerError>? = nil, audioControls controls: AudioControls = AudioControls(),
         frameReady: @escaping @Sendable () -> Void) {
        FFmpegLogBridge.install
        self.location = location
        audioOptions = audio
        audioControls = Mutex(controls)
        self.audioDriver = audio.track == .none ? nil : audioDriver
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
    func seek(to position: Double, inPass pass: Int, audioTrack: AudioTrack?? = nil) -> Int {
        controlCondition.withLock {
            control.pendingSeek = (position, pass)
            if let audioTrack { control.pendingAudioTrack = audioTrack }
            control.generation += 1
            // Stale sound stops at once; in the same critical section, so no write of the new
            // generation can come before it.
            audioOutput?.flush(generation: control.generation)
            controlCondition.broadcast()
            return control.generation
        }
    }

    /// Stops both threads, waits for them and releases every queued packet and frame. Idempotent.
    func stop() {
        abort.raise()
        controlCondition.withLock { controlCondition.broadcast() }
        packets.close()
        audioPackets.close()
        frames.close()
        audioOutput?.close()
        let running = threads.withLock { state in
            defer { state = ([], true) }
            return state.list
        }
        running.forEach { $0.join() }
    }

    deinit { stop() }
}
