import CFFmpeg
import FFmpegSupport
import Filters
@testable import LoopPlayer
import XCTest

/// A short loop decoded once: later passes replay the first pass's pictures, and what is shown is
/// the same, picture for picture and time for time, as when every pass is decoded.
final class LoopFrameCacheTests: XCTestCase {
    private let interval = 1.0 / 30

    /// One second of testsrc2 (30 pictures, B-frames, so the decoder holds pictures back at the end
    /// of a pass).
    private func clip() throws -> String {
        try TestMedia.testPattern("cache-30.mp4", frames: 30, codec: TestMedia.h264 + ["-bf", "2"])
    }

    private struct Shown {
        var time: Double
        var pass: Int
        var position: Double
        var picture: UInt64
    }

    /// Plays `path` untimed and offscreen with `cacheBytes`, recording every picture shown.
    private func play(_ path: String, cacheBytes: Int, stop: StopCondition, filters: FilterStack? = nil,
                      during: ((PlaybackEngine, Int) -> Void)? = nil) throws -> (shown: [Shown], statistics: PlaybackStatistics) {
        var configuration = EngineConfiguration(output: .offscreen, looping: true, untimed: true, stop: stop)
        configuration.frameCacheBytes = cacheBytes
        let engine = try PlaybackEngine(configuration: configuration)
        if let filters { try engine.filterControl.setFilters(filters) }
        var shown: [Shown] = []
        engine.onFramePresented = { [unowned engine] frame in
            shown.append(Shown(time: frame.time, pass: frame.pass, position: frame.positionInPass,
                               picture: Self.lumaHash(frame.pointer)))
            during?(engine, shown.count)
        }
        try engine.load(path)
        XCTAssertEqual(engine.run(), .finished)
        return (shown, engine.statistics)
    }

    /// FNV-1a over the visible luma rows.
    private static func lumaHash(_ frame: UnsafeMutablePointer<AVFrame>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height), stride = Int(frame.pointee.linesize.0)
        guard let luma = frame.pointee.data.0 else { return 0 }
        for row in 0..<height {
            for byte in UnsafeBufferPointer(start: luma + row * stride, count: width) {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return hash
    }

    func testLaterPassesReplayTheFirstPictureForPictureAndTimeForTime() throws {
        let path = try clip()
        let cached = try play(path, cacheBytes: 64 << 20, stop: StopCondition(loops: 5))
        let decoded = try play(path, cacheBytes: 0, stop: StopCondition(loops: 5))

        XCTAssertEqual(cached.statistics.framesPresented, 150)
        XCTAssertEqual(cached.statistics.framesDecoded, 30, "only the first pass is decoded")
        XCTAssertGreaterThanOrEqual(cached.statistics.framesReplayed, 120)
        XCTAssertEqual(decoded.statistics.framesReplayed, 0)
        XCTAssertGreaterThanOrEqual(decoded.statistics.framesDecoded, 150)
        XCTAssertEqual(cached.statistics.framesDropped, 0)
        XCTAssertEqual(cached.statistics.loopsCompleted, 5)
        XCTAssertLessThan(cached.statistics.seamMaxDeviationMs, 0.01)

        XCTAssertEqual(cached.shown.map(\.picture), decoded.shown.map(\.picture), "the same pictures")
        XCTAssertEqual(cached.shown.map(\.pass), decoded.shown.map(\.pass))
        XCTAssertEqual(cached.shown.map(\.time), decoded.shown.map(\.time), "the same timeline")
        let steps = zip(cached.shown, cached.shown.dropFirst()).map { abs($1.time - $0.time - interval) }
        XCTAssertLessThan(steps.max() ?? 1, 1e-6, "one frame interval everywhere, wraps included")
        let firstPass = cached.shown.prefix(30).map(\.picture)
        XCTAssertEqual(Set(firstPass).count, 30, "testsrc2 changes every picture")
        for pass in 1..<5 {
            XCTAssertEqual(cached.shown.filter { $0.pass == pass }.map(\.picture), firstPass, "pass \(pass)")
        }
    }

    /// Other codecs and containers, whose decoders hold pictures back differently at a pass's end
    /// (HEVC's reordering, VP9's hidden frames, 10-bit pictures that are converted before they are
    /// kept): the same pictures and times as decoding every pass.
    func testOtherCodecsReplayWhatTheyDecode() throws {
        var clips = [
            try TestMedia.clip("cache-10bit.mkv", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30", "-frames:v", "30",
                                                   "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p10le"]),
        ]
        if TestMedia.hasEncoder("libx265") {
            clips.append(try TestMedia.testPattern("cache-hevc.mkv", frames: 30, codec: [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error"]))
        }
        if TestMedia.hasEncoder("libvpx-vp9") {
            clips.append(try TestMedia.testPattern("cache-vp9.webm", frames: 30, codec: [
                "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"]))
        }
        for path in clips {
            let name = (path as NSString).lastPathComponent
            let cached = try play(path, cacheBytes: 64 << 20, stop: StopCondition(loops: 3))
            let decoded = try play(path, cacheBytes: 0, stop: StopCondition(loops: 3))
            XCTAssertEqual(cached.statistics.framesPresented, 90, name)
            XCTAssertEqual(cached.statistics.framesDecoded, 30, name)
            XCTAssertGreaterThanOrEqual(cached.statistics.framesReplayed, 60, name)
            XCTAssertEqual(cached.shown.map(\.picture), decoded.shown.map(\.picture), name)
            let worst = zip(cached.shown, decoded.shown).map { abs($0.time - $1.time) }.max() ?? 1
            XCTAssertLessThan(worst, 1e-9, name)
        }
    }

    /// MPEG-4 part 2 with packed B-frames in AVI: the first picture has no timestamp and the guessed
    /// ones put a pass's last picture on the next pass's first instant, so no pass is ever whole and
    /// nothing is replayed; what is shown is what decoding every pass shows.
    func testAFileWhosePicturesDoNotFollowItsPassesIsDecodedAsBefore() throws {
        let path = try TestMedia.testPattern("cache-mpeg4.avi", frames: 30, codec: ["-c:v", "mpeg4", "-q:v", "4", "-bf", "2"])
        try assertNothingReplayed(path, loops: 3)
    }

    /// With the cache on, `path` replays nothing and shows exactly what decoding every pass shows.
    private func assertNothingReplayed(_ path: String, loops: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let cached = try play(path, cacheBytes: 64 << 20, stop: StopCondition(loops: loops))
        let decoded = try play(path, cacheBytes: 0, stop: StopCondition(loops: loops))
        XCTAssertEqual(cached.statistics.framesReplayed, 0, file: file, line: line)
        XCTAssertEqual(cached.shown.map(\.picture), decoded.shown.map(\.picture), file: file, line: line)
        XCTAssertEqual(cached.shown.map(\.time), decoded.shown.map(\.time), file: file, line: line)
    }

    func testFiltersApplyToReplayedPictures() throws {
        let path = try clip()
        let stack = FilterStack([.invert], adjustment: ColorAdjustment(brightness: 0.1, contrast: 1.3))
        let cached = try play(path, cacheBytes: 64 << 20, stop: StopCondition(loops: 3), filters: stack)
        let decoded = try play(path, cacheBytes: 0, stop: StopCondition(loops: 3), filters: stack)
        let plain = try play(path, cacheBytes: 64 << 20, stop: StopCondition(loops: 1))
        XCTAssertGreaterThanOrEqual(cached.statistics.framesReplayed, 60)
        XCTAssertEqual(cached.shown.map(\.picture), decoded.shown.map(\.picture))
        XCTAssertNotEqual(cached.shown.prefix(30).map(\.picture), plain.shown.map(\.picture), "the filters ran")

        // Brightness and contrast alone change a picture in place when the chain owns it alone: a
        // replayed picture is shared with the cache, so pass after pass must come out the same.
        let adjusted = try play(path, cacheBytes: 64 << 20, stop: StopCondition(loops: 3),
                                filters: FilterStack(adjustment: ColorAdjustment(brightness: 0.2, contrast: 1.5)))
        XCTAssertGreaterThanOrEqual(adjusted.statistics.framesReplayed, 60)
        let passes = (0..<3).map { pass in adjusted.shown.filter { $0.pass == pass }.map(\.picture) }
        XCTAssertEqual(passes[1], passes[0])
        XCTAssertEqual(passes[2], passes[0])
        XCTAssertNotEqual(passes[0], plain.shown.map(\.picture), "the adjustment ran")
    }

    /// A seek while replaying decodes from the seek on; the next pass replays again.
    func testASeekWhileReplayingDecodesThenReplaysAgain() throws {
        let path = try clip()
        let reference = try play(path, cacheBytes: 0, stop: StopCondition(loops: 1)).shown.map(\.picture)
        var replayedAtSeek = -1
        let run = try play(path, cacheBytes: 64 << 20, stop: StopCondition(frames: 150)) { engine, count in
            guard count == 75 else { return }  // the middle of pass 2, replayed
            replayedAtSeek = engine.statistics.framesReplayed
            engine.seek(to: 0.5)
        }
        XCTAssertGreaterThanOrEqual(replayedAtSeek, 45, "pass 1 and half of pass 2 were replayed")
        XCTAssertGreaterThan(run.statistics.framesDecoded, 30, "the seek decoded again")
        XCTAssertGreaterThanOrEqual(run.statistics.framesReplayed - replayedAtSeek, 30, "and replay resumed after it")
        let afterSeek = run.shown[75...]
        XCTAssertEqual(afterSeek.first?.position ?? -1, 0.5, accuracy: 1e-6)
        for shown in run.shown {
            let index = Int((shown.position / interval).rounded())
            XCTAssertEqual(shown.picture, reference[index], "pass \(shown.pass) at \(shown.position) s")
        }
    }

    /// Over the budget while collecting: the announced length seems to fit (30 × 86 400 bytes at
    /// 1.5 bytes a pixel), but 28 of the decoder's padded pictures are all the budget holds.
    func testALoopLargerThanTheBudgetDecodesEveryPass() throws {
        let path = try clip()
        var pictureBytes = 0
        let decoded = try play(path, cacheBytes: 0, stop: StopCondition(loops: 3)) { engine, _ in
            if let frame = engine.screen.currentFrame { pictureBytes = max(pictureBytes, LoopFrameCache.byteCount(frame.pointer)) }
        }
        let budget = 28 * pictureBytes
        XCTAssertTrue(LoopFrameCache.mayFit(budget: budget, width: 320, height: 180, duration: 1, frameInterval: interval))
        let run = try play(path, cacheBytes: budget, stop: StopCondition(loops: 3))
        XCTAssertEqual(run.statistics.framesReplayed, 0)
        XCTAssertGreaterThanOrEqual(run.statistics.framesDecoded, 90)
        XCTAssertEqual(run.statistics.framesPresented, 90)
        XCTAssertEqual(run.shown.map(\.picture), decoded.shown.map(\.picture), "refused while draining: nothing lost")
        XCTAssertEqual(run.shown.map(\.time), decoded.shown.map(\.time))
    }

    /// A file whose first packet is not a keyframe (cut with its leading non-key packets kept) is
    /// never replayed: its first pictures cannot be decoded, later passes decode them from the pass
    /// before, and a replay of either would repeat that forever.
    func testAFileThatDoesNotStartOnAKeyframeIsNotReplayed() throws {
        let whole = try TestMedia.testPattern("cache-keyed.mp4", frames: 60, codec: TestMedia.h264 + ["-bf", "0"])
        let cut = try TestMedia.clip("cache-not-keyed.ts", ["-i", whole, "-ss", "0.5", "-c", "copy", "-copyinkf", "-f", "mpegts"])
        let first = try TestMedia.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=flags",
                                                  "-of", "csv=p=0", "-read_intervals", "%+#1", cut])
        XCTAssertFalse(first.output.contains("K"), "the cut starts on a non-key packet: \(first.output)")
        try assertNothingReplayed(cut, loops: 4)
    }

    /// A seek in the first pass: the collection starts again with the next pass (the pictures the
    /// decoder gives late from the pass before are left out) and the passes after it replay.
    func testASeekInTheFirstPassCachesTheNextPass() throws {
        let path = try clip()
        let reference = try play(path, cacheBytes: 0, stop: StopCondition(loops: 1)).shown.map(\.picture)
        let run = try play(path, cacheBytes: 64 << 20, stop: StopCondition(frames: 150)) { engine, count in
            if count == 5 { engine.seek(to: 0.6) }
        }
        XCTAssertGreaterThanOrEqual(run.statistics.framesReplayed, 60, "passes 2 and after replay pass 1")
        for shown in run.shown {
            XCTAssertEqual(shown.picture, reference[Int((shown.position / interval).rounded())],
                           "pass \(shown.pass) at \(shown.position) s")
        }
    }

    func testAFilePlayedOnceKeepsNothing() throws {
        var configuration = EngineConfiguration(output: .offscreen, looping: false, untimed: true,
                                                stop: StopCondition(exitAtEnd: true))
        configuration.frameCacheBytes = 64 << 20
        let engine = try PlaybackEngine(configuration: configuration)
        var held: [Int] = []
        engine.onFramePresented = { [unowned engine] _ in
            held.append(engine.item?.pipeline.status.frameCacheBytes ?? -1)
        }
        try engine.load(try clip())
        XCTAssertEqual(engine.run(), .finished)
        XCTAssertEqual(engine.statistics.framesPresented, 30)
        XCTAssertEqual(engine.statistics.framesReplayed, 0)
        XCTAssertEqual(held.count, 30)
        XCTAssertEqual(held.max(), 0, "no picture was kept")

        // The same file looping holds its pass.
        let looping = try play(try clip(), cacheBytes: 64 << 20, stop: StopCondition(loops: 2))
        XCTAssertGreaterThan(looping.statistics.framesReplayed, 0)
    }

    // MARK: The cache alone

    private struct OutOfMemory: Error {}

    private func picture(_ value: UInt8) throws -> OwnedFrame {
        guard let frame = OwnedFrame() else { throw OutOfMemory() }
        frame.pointer.pointee.width = 64
        frame.pointer.pointee.height = 32
        frame.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        XCTAssertEqual(av_frame_get_buffer(frame.pointer, 0), 0)
        guard let luma = frame.pointer.pointee.data.0 else { throw OutOfMemory() }
        memset(luma, Int32(value), Int(frame.pointer.pointee.linesize.0) * 32)
        return frame
    }

    func testCollectsOneWholePassAndStampsReplaysForTheirPass() throws {
        let first = try picture(1), second = try picture(2)
        let size = LoopFrameCache.byteCount(first.pointer)
        XCTAssertGreaterThanOrEqual(size, 64 * 32 * 3 / 2)
        let cache = LoopFrameCache(budget: 2 * size)
        cache.offer(first, timestamp: 0, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        cache.offer(second, timestamp: 10, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        XCTAssertTrue(cache.wantsDrain(atEndOf: 0))
        XCTAssertTrue(cache.passEnded(0))
        XCTAssertEqual(cache.state, .complete(pass: 0))
        XCTAssertEqual(cache.bytes, 2 * size)

        guard let replayed = cache.picture(at: 1, forPass: 3, offset: { Int64($0) * 20 }) else {
            return XCTFail("the second picture is held")
        }
        XCTAssertEqual(replayed.timestamp, 70)
        XCTAssertEqual(replayed.duration, 10)
        XCTAssertEqual(replayed.picture.pointer.pointee.pts, 70)
        XCTAssertEqual(replayed.picture.pointer.pointee.data.0?.pointee, 2)
        XCTAssertEqual(replayed.picture.pointer.pointee.data.0, second.pointer.pointee.data.0, "a reference, not a copy")
        switch cache.picture(at: 2, forPass: 3, offset: { Int64($0) * 20 }) {
        case .some: XCTFail("only two pictures are held")
        case .none: break
        }
        cache.interrupt()
        XCTAssertEqual(cache.state, .complete(pass: 0), "a complete pass survives a seek")
    }

    func testOverTheBudgetIsRefusedForGood() throws {
        let first = try picture(1)
        let cache = LoopFrameCache(budget: LoopFrameCache.byteCount(first.pointer) + 1)
        cache.offer(first, timestamp: 0, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        cache.offer(try picture(2), timestamp: 10, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        XCTAssertEqual(cache.state, .refused)
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.bytes, 0, "what was held is let go")
        XCTAssertFalse(cache.wantsDrain(atEndOf: 0))
        XCTAssertFalse(cache.passEnded(0))
        XCTAssertEqual(cache.state, .refused)
    }

    func testASeekOrAPictureOfAnotherPassRestartsTheCollectionAtTheNextPass() throws {
        let cache = LoopFrameCache(budget: 1 << 20)
        cache.offer(try picture(1), timestamp: 0, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        cache.interrupt()
        XCTAssertEqual(cache.state, .waiting)
        XCTAssertEqual(cache.count, 0)
        cache.offer(try picture(2), timestamp: 30, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        XCTAssertEqual(cache.count, 0, "nothing is collected in the middle of a pass")
        XCTAssertFalse(cache.wantsDrain(atEndOf: 0))
        XCTAssertFalse(cache.passEnded(0))
        XCTAssertEqual(cache.state, .collecting(pass: 1))

        cache.offer(try picture(3), timestamp: 38, duration: 2, pass: 0, passStart: 0, tolerance: 5)
        XCTAssertEqual(cache.state, .collecting(pass: 1), "pass 0's last picture, given late, is left out")
        XCTAssertEqual(cache.count, 0)
        cache.offer(try picture(4), timestamp: 40, duration: 10, pass: 1, passStart: 40, tolerance: 5)
        XCTAssertEqual(cache.count, 1)
        XCTAssertTrue(cache.wantsDrain(atEndOf: 1))
        cache.offer(try picture(5), timestamp: 80, duration: 10, pass: 2, passStart: 80, tolerance: 5)
        XCTAssertEqual(cache.state, .waiting, "a picture of a later pass: pass 1 was not whole")
        XCTAssertEqual(cache.count, 0)
    }

    /// A pass whose first picture comes late lost its leading pictures (a decoder drops those that
    /// reference the pass before it, after opening): it is not replayed; the next pass is.
    func testAPassThatStartsLateIsNotCollected() throws {
        let cache = LoopFrameCache(budget: 1 << 20)
        cache.offer(try picture(1), timestamp: 20, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        XCTAssertEqual(cache.state, .waiting)
        XCTAssertEqual(cache.count, 0)
        XCTAssertFalse(cache.passEnded(0))
        cache.offer(try picture(2), timestamp: 42, duration: 10, pass: 1, passStart: 40, tolerance: 5)
        cache.offer(try picture(3), timestamp: 52, duration: 10, pass: 1, passStart: 40, tolerance: 5)
        XCTAssertEqual(cache.count, 2, "within the tolerance, and later pictures of a started pass")
        XCTAssertTrue(cache.passEnded(1))
        XCTAssertEqual(cache.state, .complete(pass: 1))
    }

    /// Every pass starting equally late is the file's own timing, not lost pictures: the second
    /// pass is collected.
    func testPassesThatAllStartEquallyLateAreCollectedFromTheSecond() throws {
        let cache = LoopFrameCache(budget: 1 << 20)
        cache.offer(try picture(1), timestamp: 10, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        XCTAssertEqual(cache.state, .waiting)
        XCTAssertFalse(cache.passEnded(0))
        cache.offer(try picture(2), timestamp: 110, duration: 10, pass: 1, passStart: 100, tolerance: 5)
        XCTAssertEqual(cache.count, 1)
        XCTAssertTrue(cache.passEnded(1))
        XCTAssertEqual(cache.state, .complete(pass: 1))

        let later = LoopFrameCache(budget: 1 << 20)
        later.offer(try picture(3), timestamp: 10, duration: 10, pass: 0, passStart: 0, tolerance: 5)
        XCTAssertFalse(later.passEnded(0))
        later.offer(try picture(4), timestamp: 130, duration: 10, pass: 1, passStart: 100, tolerance: 5)
        XCTAssertEqual(later.state, .waiting, "later than the pass before: pictures were lost")
    }

    func testTheSettingIsCheckedAgainstItsRange() throws {
        for megabytes in [-1, FrameCache.validRange.upperBound + 1] {
            let settings = VideoSettings { SourceName("swipe"); FrameCache(megabytes: megabytes) }
            XCTAssertThrowsError(try settings.validate(), "\(megabytes) MiB") { error in
                guard case let .invalidSetting(name, _, _)? = error as? PlayerError else { return XCTFail("\(error)") }
                XCTAssertEqual(name, "FrameCache")
            }
        }
        let settings = VideoSettings { SourceName("swipe"); FrameCache(megabytes: 48) }
        XCTAssertNoThrow(try settings.validate())
        XCTAssertEqual(settings.frameCacheMegabytes, 48)
    }

    func testWhetherALoopMayFitItsAnnouncedLength() {
        let rows: [(budget: Int, width: Int, height: Int, duration: Double?, fits: Bool)] = [
            (64 << 20, 320, 180, 1, true),           // 30 × 86 400 B
            (1 << 20, 320, 180, 1, false),
            (256 << 20, 1920, 1080, 2, true),        // 60 × 3.1 MB = 187 MB
            (256 << 20, 1920, 1080, 10, false),
            (256 << 20, 1920, 1080, nil, true),      // unknown: the running count decides
            (256 << 20, 1920, 1080, .infinity, true),
            (0, 16, 16, 1, false),
        ]
        for row in rows {
            XCTAssertEqual(LoopFrameCache.mayFit(budget: row.budget, width: row.width, height: row.height,
                                                 duration: row.duration, frameInterval: 1.0 / 30), row.fits, "\(row)")
        }
    }
}
