import LoopPlayer
import XCTest

/// What the device really played (SDL's `disk` driver) at every wrap: no gap, no overlap, no
/// click, and each pass exactly one loop duration long.
final class GaplessAudioLoopTests: XCTestCase {
    /// 1.9 s at 48 kHz.
    private let pass = 91_200

    func testAACLoopIsSampleExactAndUnbroken() throws {
        try checkGaplessLoop(try AudioTestMedia.sine(codec: "aac"))
    }

    func testMP3LoopIsSampleExactAndUnbroken() throws {
        try require(TestMedia.hasEncoder("libmp3lame"), "ffmpeg without libmp3lame")
        try checkGaplessLoop(try AudioTestMedia.sine(codec: "libmp3lame"))
    }

    /// Opus in WebM: the codec trims its pre-skip (312 samples) when it opens, and must at every wrap
    /// too; the sound starts 7 ms (336 samples) before the picture, which pass 0 cuts and every later
    /// pass plays at the end of the pass before, where its timestamps put it.
    func testOpusLoopIsSampleExactAndUnbroken() throws {
        try require(TestMedia.hasEncoder("libopus") && TestMedia.hasEncoder("libvpx-vp9"), "ffmpeg without libopus/libvpx")
        try checkGaplessLoop(try AudioTestMedia.sine(codec: "libopus", container: "webm"), lead: 336)
    }

    /// Opus in Ogg: its first packet is stamped before the stream's start (−312, the pre-skip) and
    /// carries its skip only when the file opens; every pass must still start from a clean decoder
    /// (it carried the last pass's state on: the first 73 ms of each pass were up to 0.15 off).
    func testOggOpusLoopIsSampleExactAndUnbroken() throws {
        try require(TestMedia.hasEncoder("libopus") && TestMedia.hasEncoder("libtheora"), "ffmpeg without libopus/libtheora")
        try checkGaplessLoop(try AudioTestMedia.sine(codec: "libopus", container: "ogg"))
    }

    /// After a track change the new track's first frame at the next wrap measures how early its
    /// sound starts again: from the wrap after it on, its passes join without a gap or a click.
    func testOpusLoopStaysUnbrokenAfterATrackChange() throws {
        try require(TestMedia.hasEncoder("libopus") && TestMedia.hasEncoder("libvpx-vp9"), "ffmpeg without libopus/libvpx")
        var switched = false
        let capture = try AudioCapture.play(try AudioTestMedia.twoOpusTracks(), stop: StopCondition(loops: 4, exitAtEnd: true)) { engine, frame in
            if !switched, frame.time >= 0.5 {
                switched = true
                engine.soundControl.cycleAudioTrack()
            }
        }
        XCTAssertTrue(switched)
        XCTAssertEqual(capture.statistics.audioUnderruns, 0)
        let played = capture.samples
        let first = try XCTUnwrap(played.firstIndex(where: { abs($0) > 1e-3 }), "nothing was played")
        // The first sample heard is the picture's start; each later pass's sound starts 336 samples before its picture.
        for wrap in 2...3 {
            let seam = first + wrap * pass - 336
            XCTAssertLessThan(Signal.discontinuity(played, around: seam, frequency: 1000), 0.01, "a click at wrap \(wrap)")
            XCTAssertLessThanOrEqual(Signal.longestSilence(played[(seam - 4800)..<(seam + 4800)]), 2, "a gap at wrap \(wrap)")
        }
        XCTAssertEqual(Signal.frequency(played[(first + 2 * pass)..<(first + 3 * pass)]), 1000, accuracy: 10, "the second track")
    }

    /// Audio 300 ms longer than the video: every pass is cut at 1.9 s, so the next starts on time.
    func testLongerAudioIsCutAtTheLoopDuration() throws {
        let clip = try AudioTestMedia.sine(audio: 2.2)
        let (played, start, _) = try playAndAlign(clip, passes: 3)
        let reference = try referenceAudio(clip)
        for k in 0..<3 {
            XCTAssertLessThan(largestDifference(played, at: start + k * pass, reference, over: 4096..<(pass - 64)), 1e-3,
                              "pass \(k) is not the file's first 1.9 s at sample \(k * pass)")
        }
        XCTAssertLessThan(Signal.discontinuity(played, around: start + pass, frequency: 440), 0.005)
    }

    /// Audio 300 ms shorter than the video: silence fills each pass up to 1.9 s.
    func testShorterAudioIsPaddedToTheLoopDuration() throws {
        let clip = try AudioTestMedia.sine(audio: 1.6)
        let (played, start, _) = try playAndAlign(clip, passes: 3)
        let reference = try referenceAudio(clip)
        for k in 0..<3 {
            let passStart = start + k * pass
            XCTAssertLessThan(largestDifference(played, at: passStart, reference, over: 4096..<76_000), 1e-3,
                              "pass \(k) does not start at sample \(k * pass)")
            // After 1.6 s and the codec's last frame of padding, silence until the next pass.
            XCTAssertEqual(Signal.peak(played[(passStart + 78_000)..<(passStart + pass - 1)]), 0, "pass \(k) is not padded")
        }
        XCTAssertGreaterThan(Signal.peak(played[(start + 2 * pass)..<(start + 2 * pass + 4800)]), 0.1, "pass 2 is silent")
    }

    // MARK: Helpers

    /// Video without B-frames starts at 0, after the sound's priming packet: every pass must still
    /// start with it, so later passes equal the decoded file from their very first sample.
    func testEveryPassStartsWithThePrimingPacketWithoutBFrames() throws {
        let clip = try AudioTestMedia.sine(bFrames: false)
        let (played, start, _) = try playAndAlign(clip, passes: 3)
        let reference = try referenceAudio(clip)
        for k in 1..<3 {
            XCTAssertLessThan(largestDifference(played, at: start + k * pass, reference, over: 0..<(pass - 64)), 1e-3,
                              "pass \(k) from its first sample")
        }
    }

    /// Audio-only media loop under a black picture; the sound's own packets measure the loop.
    func testAudioOnlyLoopIsSampleExactUnderABlackPicture() throws {
        let clip = try TestMedia.clip("tone-1.5.m4a", ["-f", "lavfi", "-i", "sine=f=440:r=48000:d=1.5", "-c:a", "aac"])
        let capture = try checkGaplessLoop(clip, pass: 72_000)
        XCTAssertEqual(capture.statistics.loopDurationMs ?? 0, 1500, accuracy: 0.05)
        XCTAssertEqual(capture.statistics.nominalFrameIntervalMs, 100, accuracy: 0.01, "10 black frames a second")
        XCTAssertEqual(capture.shown.count, 45, "15 frames a pass, 3 passes")
    }

    /// Audio-only Opus in Matroska (stamped from before its pre-skip) and Ogg (durations already
    /// trimmed), and MP3 (encoder delay and padding): the loop is the sound heard, not its packets'
    /// span (a 21 ms gap at every wrap; in Ogg, counting the padding twice, 93 ms).
    func testAudioOnlyOpusAndMP3LoopsAreSampleExact() throws {
        for (name, codec) in [("tone-1.5-opus.mka", "libopus"), ("tone-1.5.opus", "libopus"), ("tone-1.5.mp3", "libmp3lame")] {
            try require(TestMedia.hasEncoder(codec), "ffmpeg without \(codec)")
            let clip = try TestMedia.clip(name, ["-f", "lavfi", "-i", "sine=f=440:r=48000:d=1.5", "-c:a", codec])
            let capture = try checkGaplessLoop(clip, pass: 72_000)
            XCTAssertEqual(capture.statistics.loopDurationMs ?? 0, 1500, accuracy: 0.05, name)
        }
    }

    /// Ogg Vorbis, audio-only: the loop is its 1.5 s (its padding was counted twice: 5 ms short).
    func testAudioOnlyVorbisLoopLastsItsSound() throws {
        try require(TestMedia.hasEncoder("libvorbis"), "ffmpeg without libvorbis")
        let clip = try TestMedia.clip("tone-1.5.ogg", ["-f", "lavfi", "-i", "sine=f=440:r=48000:d=1.5", "-c:a", "libvorbis"])
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop() } }
        XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(loops: 2)), .finished)
        XCTAssertEqual(player.statistics.loopDurationMs ?? 0, 1500, accuracy: 0.05)
    }

    /// `lead`: samples of the file's sound before its picture starts (cut from pass 0 only).
    @discardableResult
    private func checkGaplessLoop(_ clip: String, pass: Int = 91_200, lead: Int = 0, file: StaticString = #filePath,
                                  line: UInt = #line) throws -> AudioCapture {
        let (played, start, capture) = try playAndAlign(clip, passes: 3, pass: pass, lead: lead)
        let reference = try referenceAudio(clip)
        for k in 0..<3 {
            XCTAssertLessThan(largestDifference(played, at: start + k * pass, reference, over: 4096..<(pass - 64)), 1e-3,
                              "pass \(k) is not the decoded file at sample \(k * pass)", file: file, line: line)
        }
        let loop = played[(start + lead)..<(start + 3 * pass)]
        XCTAssertLessThanOrEqual(Signal.longestSilence(loop), 2, "a gap in the sound", file: file, line: line)
        for wrap in 1...2 {
            // A one-sample gap or overlap of this sine leaves a residual of about 0.007.
            XCTAssertLessThan(Signal.discontinuity(played, around: start + wrap * pass, frequency: 440), 0.005,
                              "a click at wrap \(wrap)", file: file, line: line)
        }
        return capture
    }

    /// Plays `passes` passes and finds where pass 0's sound starts in the played samples (`lead`
    /// samples before the first one played).
    private func playAndAlign(_ clip: String, passes: Int, pass: Int = 91_200, lead: Int = 0, file: StaticString = #filePath,
                              line: UInt = #line) throws -> ([Float], Int, AudioCapture) {
        let capture = try AudioCapture.play(clip, stop: StopCondition(loops: passes, exitAtEnd: true))
        XCTAssertEqual(capture.format?.rate, 48_000, file: file, line: line)
        XCTAssertEqual(capture.format?.format, "f32", file: file, line: line)
        XCTAssertEqual(capture.statistics.audioUnderruns, 0, file: file, line: line)
        XCTAssertEqual(capture.statistics.loopsCompleted, passes, file: file, line: line)
        let reference = try referenceAudio(clip)
        guard let first = capture.samples.firstIndex(where: { abs($0) > 1e-6 }) else {
            XCTFail("nothing was played", file: file, line: line)
            throw XCTSkip("no sound")
        }
        let found = alignment(of: reference, in: capture.samples, window: max(-lead, first - lead - 16)..<(first - lead + 16),
                              compare: 4096..<min(40_000, pass - 64))
        XCTAssertLessThan(found.error, 1e-3, "the played sound does not match the file", file: file, line: line)
        XCTAssertGreaterThanOrEqual(capture.samples.count, found.offset + passes * pass, "too little was played",
                                    file: file, line: line)
        return (capture.samples, found.offset, capture)
    }
}
