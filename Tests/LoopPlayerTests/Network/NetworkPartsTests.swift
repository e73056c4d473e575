import Foundation
@testable import LoopPlayer
import XCTest

/// The small parts network playback is made of, without a server: container boundaries and
/// interruptions in the pipe, the segment cache's rule, the throughput estimate's clock decay, which
/// variant a picture is, the schedule's segment lookup, and how a source is read.
final class NetworkPartsTests: XCTestCase {
    private func read(_ pipe: SegmentPipe, _ maximum: Int, deadline: Double = .infinity) -> (SegmentPipe.ReadResult, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let result = buffer.withUnsafeMutableBytes { pipe.read(into: $0.baseAddress!, maximum: maximum, deadline: deadline) }
        if case let .bytes(count) = result { return (result, Array(buffer.prefix(count))) }
        return (result, [])
    }

    /// A read never crosses a boundary: the container before it ends there, once.
    func testPipeBoundaries() {
        let pipe = SegmentPipe(capacity: 64)
        pipe.markBoundary()   // nothing written yet: no boundary
        _ = [UInt8](0..<5).withUnsafeBytes { pipe.write($0) }
        pipe.markBoundary()
        pipe.markBoundary()   // the same place twice: one boundary
        _ = [UInt8](5..<9).withUnsafeBytes { pipe.write($0) }
        XCTAssertEqual(read(pipe, 100).1, [0, 1, 2, 3, 4])
        XCTAssertEqual(read(pipe, 100).0, .boundary)
        XCTAssertEqual(pipe.totalRead, 5)
        XCTAssertEqual(read(pipe, 100).1, [5, 6, 7, 8])
        pipe.finish()
        XCTAssertEqual(read(pipe, 100).0, .end)
    }

    /// A reader waiting for bytes is woken by an interruption (a seek) and by its deadline.
    func testPipeInterruptionAndDeadline() {
        let pipe = SegmentPipe(capacity: 8)
        let woke = ThreadResult<SegmentPipe.ReadResult>()
        let reader = WorkerThread(name: "lp-test-reader") {
            var buffer = [UInt8](repeating: 0, count: 8)
            woke.set(buffer.withUnsafeMutableBytes { pipe.read(into: $0.baseAddress!, maximum: 8) })
        }
        defer { pipe.close(); reader.join() }  // closing wakes a reader still waiting
        XCTAssertTrue(waitUntilBlocked(threadsNamed: "lp-test-reader"), "the reader waits for bytes")
        pipe.interruptRead()
        XCTAssertEqual(woke.wait(timeout: 2), .interrupted)
        let started = MonotonicCondition.now
        XCTAssertEqual(read(pipe, 8, deadline: started + 0.1).0, .timedOut)
        XCTAssertGreaterThanOrEqual(MonotonicCondition.now - started, 0.1, "not before its deadline")
    }

    func testSegmentCacheKeepsWhatALoopNeeds() throws {
        let cache = SegmentCache(budget: 100)
        let url = { (name: String) in URL(string: "http://x/\(name)")! }
        cache.store([UInt8](repeating: 1, count: 40), for: .init(url: url("a0"), range: nil), variant: 0)
        cache.store([UInt8](repeating: 2, count: 40), for: .init(url: url("a1"), range: nil), variant: 0)
        XCTAssertEqual(cache.bytes(for: .init(url: url("a1"), range: nil))?.first, 2)
        XCTAssertEqual(cache.byteCount, 80)
        // Another variant: the first one's segments make room.
        cache.store([UInt8](repeating: 3, count: 40), for: .init(url: url("b0"), range: nil), variant: 1)
        XCTAssertNil(cache.bytes(for: .init(url: url("a0"), range: nil)))
        XCTAssertEqual(cache.byteCount, 40)
        // A variant that does not fit alone is not cached at all, and no longer collected.
        cache.store([UInt8](repeating: 4, count: 40), for: .init(url: url("b1"), range: nil), variant: 1)
        cache.store([UInt8](repeating: 5, count: 40), for: .init(url: url("b2"), range: nil), variant: 1)
        XCTAssertEqual(cache.byteCount, 0)
        XCTAssertFalse(cache.accepts(variant: 1))
        XCTAssertTrue(cache.accepts(variant: 0))
        // Byte ranges of one resource are different segments.
        cache.store([1], for: .init(url: url("c"), range: HLSByteRange(offset: 0, length: 1)), variant: 0)
        XCTAssertNil(cache.bytes(for: .init(url: url("c"), range: HLSByteRange(offset: 1, length: 1))))
        XCTAssertFalse(SegmentCache(budget: 0).accepts(variant: 0))
    }

    /// With the clock, a slow spell fades once the link is fast again, however short the new
    /// downloads are; without it, the fast downloads' few milliseconds could never outweigh it.
    func testThroughputRecoversWithTheClock() throws {
        var timed = ThroughputEstimate()
        var untimed = ThroughputEstimate()
        var now = 0.0
        for _ in 0..<4 {   // 1.2 Mb/s: 300 kB in 2 s
            now += 2
            timed.add(bytes: 300_000, seconds: 2, at: now)
            untimed.add(bytes: 300_000, seconds: 2)
        }
        XCTAssertEqual(try XCTUnwrap(timed.bitsPerSecond), 1_200_000, accuracy: 1)
        for _ in 0..<10 {   // then 150 kB segments in 3 ms, one a second
            now += 1
            timed.add(bytes: 150_000, seconds: 0.003, at: now)
            untimed.add(bytes: 150_000, seconds: 0.003)
        }
        XCTAssertGreaterThan(try XCTUnwrap(timed.bitsPerSecond), 3 * 1_200_000, "believed again within ten segments")
        XCTAssertLessThan(try XCTUnwrap(untimed.bitsPerSecond), try XCTUnwrap(timed.bitsPerSecond))
        // And a drop is seen at once: one slow download after many instant ones.
        var dropping = ThroughputEstimate()
        for second in 1...10 { dropping.add(bytes: 150_000, seconds: 0.003, at: Double(second)) }
        dropping.add(bytes: 300_000, seconds: 2, at: 12)
        XCTAssertLessThan(try XCTUnwrap(dropping.bitsPerSecond), 4_000_000)
    }

    /// Pictures from the first packet of a new variant on (in presentation time) are that variant's.
    func testVariantMarks() {
        let low = StreamVariant(index: 0, bandwidth: 500_000, resolution: nil)
        let high = StreamVariant(index: 2, bandwidth: 3_000_000, resolution: nil)
        var marks = VariantMarks()
        XCTAssertNil(marks.variant(at: 0))
        marks.packet(low, pts: 100)
        marks.packet(low, pts: 200)
        marks.packet(high, pts: 3000)
        marks.packet(high, pts: 2900)   // B-frames: decode order
        XCTAssertEqual(marks.variant(at: 50), low, "before the first mark: the first variant")
        XCTAssertEqual(marks.variant(at: 2999), low)
        XCTAssertEqual(marks.variant(at: 3000), high)
        marks.packet(nil, pts: 4000)
        XCTAssertNil(marks.variant(at: 4000))
    }

    /// The schedule's lookups: by time inside the pass (durations rounded in the playlist), the
    /// segment holding a seek target, and where live playback starts.
    func testScheduleLookups() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:40\n"
            + (0..<6).map { "#EXTINF:\($0 == 5 ? "1.5" : "2.0"),\ns\($0).ts\n" }.joined()
        guard case let .media(playlist) = try HLSPlaylist.parse(text, url: URL(string: "http://x/live.m3u8")!) else {
            return XCTFail("not a media playlist")
        }
        let media = HLSMediaTimeline(playlist, at: 0)
        XCTAssertEqual(media.duration, 11.5)
        XCTAssertEqual(media.index(startingAt: 0), 0)
        XCTAssertEqual(media.index(startingAt: 4), 2)
        XCTAssertEqual(media.index(startingAt: 4.001), 2, "a cursor a hair past a start is that segment")
        XCTAssertEqual(media.index(startingAt: 3), 2, "a cursor inside a segment: the next one")
        XCTAssertNil(media.index(startingAt: 11.5), "past the end: the next pass")
        XCTAssertEqual(media.index(containing: 5.9), 2)
        XCTAssertEqual(media.index(containing: 0), 0)
        XCTAssertEqual(media.index(containing: 100), 5)
        XCTAssertEqual(media.liveStartSequence, 42, "at least three target durations (6 s) before the end")
        XCTAssertEqual(HLSSession.containerFormat(of: playlist.segments[0]), "mpegts")
        XCTAssertTrue(HLSJudgedPlaylistLoader.isAudioOnly(["mp4a.40.2"]))
        XCTAssertFalse(HLSJudgedPlaylistLoader.isAudioOnly(["avc1.64001f", "mp4a.40.2"]))
        XCTAssertFalse(HLSJudgedPlaylistLoader.isAudioOnly([]))
    }

    /// The fetch threads waiting for room in their buffers (the current playlist item's and the
    /// next one's) are each woken by the picture reaching the time they named, not before, once; at
    /// once if it is on screen already; by nothing once the source changed. A nudge taken before the
    /// wait began is not lost; a raise still ends any sleep.
    func testWaitingForRoomIsWokenByThePicture() {
        let controls = NetworkControls()
        let flag = AbortFlag(), next = AbortFlag()
        let mark = flag.nudgeMark, nextMark = next.nudgeMark
        controls.nudge(flag, whenPresented: 5)
        controls.nudge(next, whenPresented: 6)
        controls.presented(4.9, outputSize: nil)
        XCTAssertEqual(flag.nudgeMark, mark, "short of the time: no nudge")
        controls.presented(5, outputSize: nil)
        XCTAssertEqual(flag.nudgeMark, mark + 1)
        XCTAssertEqual(next.nudgeMark, nextMark, "the other waiter's time is not reached")
        controls.presented(6, outputSize: nil)
        XCTAssertEqual(flag.nudgeMark, mark + 1, "once")
        XCTAssertEqual(next.nudgeMark, nextMark + 1)
        let started = MonotonicCondition.now
        XCTAssertTrue(flag.sleep(until: started + 30, unlessNudgedSince: mark), "nudged before the sleep: it returns")
        controls.nudge(flag, whenPresented: 5.5)
        XCTAssertEqual(flag.nudgeMark, mark + 2, "that frame is on screen already: at once")

        controls.beginSource(preference: .automatic, outputSize: nil)
        controls.nudge(flag, whenPresented: 1)
        controls.beginSource(preference: .automatic, outputSize: nil)
        controls.presented(2, outputSize: nil)
        XCTAssertEqual(flag.nudgeMark, mark + 2, "a new source forgets the waiter")

        let woke = ThreadResult<Bool>()
        let waiting = flag.nudgeMark
        let sleeper = WorkerThread(name: "lp-test-nudged") {
            woke.set(flag.sleep(until: MonotonicCondition.now + 30, unlessNudgedSince: waiting))
        }
        XCTAssertTrue(waitUntilBlocked(threadsNamed: "lp-test-nudged"), "the sleeper sleeps")
        controls.nudge(flag, whenPresented: 3)
        controls.presented(3, outputSize: nil)
        XCTAssertEqual(woke.wait(timeout: 5), true, "a sleeper wakes at the nudge, not at its deadline")
        withExtendedLifetime(sleeper) {}  // not joined: one never woken ends at its deadline

        let raised = ThreadResult<Bool>()
        let raisedSleeper = WorkerThread(name: "lp-test-raised") {
            raised.set(flag.sleep(until: MonotonicCondition.now + 30, unlessNudgedSince: flag.nudgeMark))
        }
        XCTAssertTrue(waitUntilBlocked(threadsNamed: "lp-test-raised"), "the sleeper sleeps")
        flag.raise()
        XCTAssertEqual(raised.wait(timeout: 5), false)
        raisedSleeper.join()  // raised: it has returned or returns at once
    }

    /// The schedule's state: VOD segments by time with the wrap to the next pass (a new container)
    /// or the end, live segments from the edge, and the seconds fetched ahead of the picture.
    func testSegmentScheduleAndLiveReloadTimes() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:40\n"
            + (0..<3).map { "#EXTINF:2.0,\ns\($0).ts\n" }.joined()
        guard case let .media(playlist) = try HLSPlaylist.parse(text, url: URL(string: "http://x/live.m3u8")!) else {
            return XCTFail("not a media playlist")
        }
        let media = HLSMediaTimeline(playlist, at: 100)
        var schedule = HLSSegmentSchedule()
        schedule.restart(live: false, at: 2, pass: 0)
        let named = (0..<3).compactMap { schedule.nextVOD(in: media, variant: 1, streamIndex: $0, looping: true) }
        XCTAssertEqual(named.map(\.sequenceNumber), [41, 42, 40], "from the segment at 2 s, then the next pass")
        XCTAssertEqual(named.map(\.pass), [0, 0, 1])
        XCTAssertEqual(named.map(\.restartsContainer), [false, false, true])
        XCTAssertNotNil(schedule.nextVOD(in: media, variant: 1, streamIndex: 3, looping: true), "looping: it goes on")
        schedule.restart(live: false, at: 4, pass: 0)
        XCTAssertEqual(schedule.nextVOD(in: media, variant: 0, streamIndex: 0, looping: false)?.sequenceNumber, 42)
        XCTAssertNil(schedule.nextVOD(in: media, variant: 0, streamIndex: 1, looping: false), "not looping: the end")

        schedule.restart(live: true, at: 0, pass: 0)
        guard case let .segment(edge) = schedule.nextLive(in: media, variant: 0) else { return XCTFail("no live segment") }
        XCTAssertEqual(edge.sequenceNumber, 40, "three target durations before the end")
        XCTAssertFalse(edge.cacheable)
        _ = schedule.nextLive(in: media, variant: 0)
        _ = schedule.nextLive(in: media, variant: 0)
        guard case .notListedYet = schedule.nextLive(in: media, variant: 0) else { return XCTFail("past the list") }

        schedule.noteDelivered(index: 0, duration: 2)
        schedule.noteDelivered(index: 1, duration: 2)
        XCTAssertEqual(schedule.bufferSeconds(presented: nil), 4)
        XCTAssertTrue(schedule.noteDemuxed(time: 1, segmentIndex: 0), "segment 0 reached: the buffer ahead shrank")
        XCTAssertFalse(schedule.noteDemuxed(time: 3, segmentIndex: 0), "still in segment 0")
        XCTAssertEqual(schedule.bufferSeconds(presented: 1), 4, "2 s read beyond the picture + segment 1")

        XCTAssertEqual(media.reloadTime, 102, "a target duration after the load")
        let same = media.reloaded(with: playlist, at: 102)
        XCTAssertTrue(same.unchanged)
        XCTAssertEqual(same.changedAt, 100, "nothing new: it has not changed since the first load")
        XCTAssertEqual(same.reloadTime, 103, "half a target duration after a reload that brought nothing")
        let failed = same.failedReload(.liveStalled(url: "x", seconds: 1), at: 103)
        XCTAssertNotNil(failed.reloadError)
        XCTAssertEqual(failed.reloadTime, 104)
    }

    /// loopplay's `--hls-bitrate` words, and the settings' validation.
    func testVariantPreferenceWordsAndSettings() throws {
        XCTAssertEqual(try VariantPreference(parsing: "max"), .maxBitrate)
        XCTAssertEqual(try VariantPreference(parsing: "MIN"), .minBitrate)
        XCTAssertEqual(try VariantPreference(parsing: "auto"), .automatic)
        XCTAssertEqual(try VariantPreference(parsing: "1500000"), .bitrate(1_500_000))
        XCTAssertEqual(try VariantPreference(parsing: "1500k"), .bitrate(1_500_000))
        XCTAssertEqual(try VariantPreference(parsing: "1.5M"), .bitrate(1_500_000))
        for bad in ["", "fast", "-3", "0"] {
            XCTAssertThrowsError(try VariantPreference(parsing: bad), bad)
        }
        let settings = VideoSettings {
            SourceName("https://cdn.example.com/a.m3u8")
            HLSVariant(.bitrate(800_000))
            NetworkTimeout(12)
            AllowedSources(schemes: ["https"], hosts: ["*.example.com"])
        }
        XCTAssertNoThrow(try settings.validate())
        XCTAssertEqual(settings.networkOptions.variant, .bitrate(800_000))
        XCTAssertEqual(settings.networkOptions.timeout, 12)
        XCTAssertEqual(settings.networkOptions.allowedSources.hosts, ["*.example.com"])
        XCTAssertThrowsError(try VideoSettings { SourceName("x"); NetworkTimeout(0) }.validate())
        XCTAssertThrowsError(try VideoSettings { SourceName("x"); HLSVariant(.bitrate(0)) }.validate())
    }

    /// How each kind of source is read, and what FFmpeg may use for it.
    func testSourcePlansAndAccess() throws {
        let controls = NetworkControls()
        let plan = { (location: MediaLocation) -> SourcePlan? in
            try? SourcePlan.admit(location, network: NetworkOptions(), controls: controls).get()
        }
        XCTAssertEqual(plan(.url("https://cdn.example.com/a/master.M3U8?token=1"))?.reading, .hls)
        XCTAssertEqual(plan(.url("https://cdn.example.com/a/clip.mp4"))?.reading, .progressive)
        XCTAssertEqual(plan(.file("/srv/show/index.m3u8"))?.reading, .hls)
        XCTAssertEqual(plan(.file("/srv/show/clip.mp4"))?.reading, .file)
        XCTAssertEqual(plan(.file("/srv/show/../clip.mp4"))?.url.path, "/srv/clip.mp4")
        let formats = Set(InputAccess.safeFormats.split(separator: ",").map(String.init))
        XCTAssertTrue(formats.isSuperset(of: ["mov", "mpegts", "matroska", "mp3", "aac"]))
        XCTAssertTrue(formats.isDisjoint(with: ["hls", "dash", "concat", "imf"]))
        XCTAssertEqual(InputAccess.forSource(.localMedia, options: NetworkOptions()), .localFile)
        let remote = InputAccess.forSource(.remote, options: NetworkOptions(allowedSources: AllowedSources(hosts: ["a.example"])))
        XCTAssertEqual(remote.protocolWhitelist, "http,https,tls,tcp")
        XCTAssertEqual(remote.maxRedirects, 0, "hosts restricted: redirects are not followed")
    }
}
