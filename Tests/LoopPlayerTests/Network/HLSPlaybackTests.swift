import Foundation
@testable import LoopPlayer
import XCTest

/// HLS through the player's own client, from a real HTTP server on loopback: the start variant,
/// adaptive switching under a throttle, switches without a gap, the seamless loop, the segment cache.
final class HLSPlaybackTests: XCTestCase {
    private var fixture: NetworkFixture!

    override func setUpWithError() throws { fixture = try NetworkFixture() }
    override func tearDown() { fixture = nil }

    /// Both master orders: with nothing measured yet the lowest variant the output allows, and the
    /// fixed preferences whatever the order. `variantChanged` names the first variant too.
    func testStartVariantInBothMasterOrders() throws {
        let cases: [(VariantPreference, PixelSize?, Int)] = [
            (.automatic, PixelSize(width: 640, height: 360), 426), (.maxBitrate, nil, 1280),
            (.minBitrate, nil, 426), (.bitrate(1_200_000), nil, 640), (.bitrate(100), nil, 426),
        ]
        for order in ["master-low-first.m3u8", "master-high-first.m3u8"] {
            for (preference, area, width) in cases {
                let probe = NetworkProbe({ $0.network.variant = preference }, area: area, untimed: true)
                probe.run(fixture.url("/hls/\(order)"), timeout: 10) { $0.frames.count >= 5 }
                let label = "\(order) \(preference)"
                XCTAssertNil(probe.failure, label)
                XCTAssertEqual(probe.frames.first?.width, width, label)
                XCTAssertEqual(probe.variantChanges.first?.size.width, width, label)
                XCTAssertEqual(probe.variantChanges.count, 1, label)
            }
        }
        // Nothing of FFmpeg's hls demuxer: every request is ours (playlists, then whole segments).
        let paths = try fixture.server.requestLog().map(\.path)
        XCTAssertTrue(paths.allSatisfy { $0.hasSuffix(".m3u8") || $0.hasSuffix(".ts") }, "\(Set(paths))")
    }

    /// On a link with room to spare the automatic choice climbs from the lowest variant to the top
    /// one the output allows within the first seconds (it stayed at 240p for 35 s, or for good on
    /// a looping stream read from the cache): in a 1280x720 area, headless, in either master order,
    /// the 720p variant is on screen before 10 s of media have played (300 frames at 30 fps).
    func testTheChoiceClimbsToTheTopVariantWithinTenSeconds() throws {
        for order in ["master-low-first.m3u8", "master-high-first.m3u8"] {
            for area in [PixelSize(width: 1280, height: 720), nil] {
                let probe = NetworkProbe(area: area)
                probe.run(fixture.url("/hls/\(order)"), timeout: 30) { probe in
                    probe.failure != nil || probe.frames.contains { $0.width == 1280 } || probe.frames.count >= 300
                }
                let label = "\(order), \(area.map { "\($0)" } ?? "headless")"
                XCTAssertNil(probe.failure, label)
                XCTAssertEqual(probe.frames.first?.width, 426, "\(label): the first segment at the safe level")
                let top = try XCTUnwrap(probe.frames.firstIndex { $0.width == 1280 }, "\(label): 720p within 300 frames")
                print("HLSPlaybackTests: \(label): 720p from frame \(top), \(String(format: "%.2f", probe.frames[top].wall)) s after the start")
                assertNoFrameLostOrRepeated(probe, label)
            }
        }
    }

    /// The throughput measured by one source starts the next one (a retry, a reload) higher, but
    /// never above what the output's size needs.
    func testStartVariantFollowsMeasuredThroughputAndTheOutputSize() throws {
        for (area, width) in [(PixelSize(width: 640, height: 360), 640), (PixelSize(width: 1280, height: 720), 1280)] {
            let probe = NetworkProbe(area: area, untimed: true)
            let source = fixture.url("/hls/master-high-first.m3u8")
            probe.run(source, timeout: 10) { $0.frames.count >= 60 }
            XCTAssertEqual(probe.frames.first?.width, 426, "nothing measured: the lowest")
            let before = probe.frames.count
            probe.run(source, timeout: 10) { $0.frames.count >= before + 5 }
            XCTAssertEqual(probe.frames.dropFirst(before).first?.width, width, "\(area): measured, capped by the output")
        }
    }

    /// A throttled server makes the automatic choice go down, lifting the throttle makes it go up
    /// again, and the picture never stops meanwhile.
    func testThrottleMakesTheChoiceGoDownAndLiftingItUp() throws {
        let probe = NetworkProbe { configuration in
            configuration.network.bufferAhead = 3
            configuration.network.segmentCacheBytes = 0
            configuration.network.variantTuning.upHoldSeconds = 0.5
            configuration.network.variantTuning.minSwitchInterval = 0.5
            configuration.network.variantTuning.upBufferSeconds = 1
            configuration.network.variantTuning.lowBufferSeconds = 1
        }
        var phase = 0
        var throttledAt = 0.0, liftedAt = 0.0
        let server = fixture.server
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 40) { probe in
            let width = probe.frames.last?.width ?? 0
            switch phase {
            case 0 where width == 1280:
                try? server.setFaults([FaultRule(throttle: 180_000)])   // 1.4 Mb/s: 720p needs 3.4
                throttledAt = probe.now
                phase = 1
            case 1 where width < 1280 && probe.now > throttledAt:
                try? server.clearFaults()
                liftedAt = probe.now
                phase = 2
            case 2 where width == 1280:
                phase = 3
            default: break
            }
            return phase == 3 && probe.now > liftedAt + 0.5
        }
        let widths = probe.variantChanges.map(\.size.width)
        print("HLSPlaybackTests: variants shown \(widths); throttled at \(throttledAt) s, lifted at \(liftedAt) s, done at \(probe.now) s; longest gap \(probe.longestGap()) s")
        XCTAssertEqual(phase, 3, "up, down under the throttle, up again: \(widths)")
        XCTAssertNil(probe.failure)
        XCTAssertLessThan(probe.longestGap(after: 0.5), 0.5, "the picture never stops")
        XCTAssertFalse(probe.states.contains(.buffering), "\(probe.states)")
    }

    /// A switch is a segment from another variant, fetched ahead: the frame interval at the switch
    /// is one frame, like any other (MPEG-TS: the same demuxer goes on; fMP4: a new demuxer at the
    /// boundary, the decoder kept with the new parameters sent in line).
    func testSwitchHasNoVisibleGap() throws {
        for set in ["hls", "fmp4"] {
            let probe = NetworkProbe { configuration in
                configuration.network.variant = .minBitrate
                configuration.network.bufferAhead = 2
                configuration.network.segmentCacheBytes = 0
            }
            var switched = false
            probe.run(fixture.url("/\(set)/master-low-first.m3u8"), timeout: 15) { probe in
                if !switched, probe.frames.count >= 15 {
                    switched = true
                    var options = probe.engine.configuration.network
                    options.variant = .maxBitrate
                    probe.engine.setNetworkOptions(options)
                }
                return probe.frames.last?.width == 1280 && probe.frames.count >= (probe.frames.firstIndex { $0.width == 1280 } ?? 0) + 30
            }
            let first = try XCTUnwrap(probe.frames.firstIndex { $0.width == 1280 }, set)
            XCTAssertGreaterThan(first, 0)
            let gap = probe.frames[first].wall - probe.frames[first - 1].wall
            let step = probe.frames[first].time - probe.frames[first - 1].time
            print("HLSPlaybackTests: \(set) switch 426 → 1280 at frame \(first): interval \(String(format: "%.1f", gap * 1000)) ms on screen, \(String(format: "%.1f", step * 1000)) ms in media time")
            XCTAssertEqual(step, 1.0 / 30, accuracy: 1e-3, "\(set): media time runs on")
            XCTAssertLessThan(gap, 1.0 / 30 + 0.02, "\(set): shown one frame after the last 240p frame")
            XCTAssertEqual(probe.variantChanges.map(\.bandwidth), [510_400, 3_370_400], set)
            XCTAssertEqual(probe.engine.statistics.decodeErrors, 0, set)
            assertNoFrameLostOrRepeated(probe, "\(set):")
        }
    }

    /// The loop over HLS is the files' loop: the schedule wraps to segment 0 and every pass moves on
    /// by one pass length, so every step, the wrap included, is one frame (fMP4: a new demuxer at
    /// every wrap).
    func testLoopIsSeamlessInBothContainers() throws {
        for set in ["hls", "fmp4"] {
            let record = try playUntimed(fixture.url("/\(set)/master-low-first.m3u8"), looping: true,
                                         stop: StopCondition(loops: 3, exitAtEnd: true))
            XCTAssertEqual(record.statistics.framesPresented, 360, set)
            XCTAssertEqual(record.statistics.loopsCompleted, 3, set)
            XCTAssertEqual(record.statistics.loopDurationMs ?? 0, 4000, accuracy: 0.1, set)
            let worst = zip(record.times, record.times.dropFirst()).map { abs($1 - $0 - 1.0 / 30) }.max() ?? 1
            XCTAssertLessThan(worst, 1e-4, "\(set): every step, wraps included, is one frame interval")
        }
    }

    /// A seek starts a new stream at the segment holding the target; the frames before it in that
    /// segment are decoded and skipped, as for files.
    func testSeekLandsOnTheRequestedFrame() throws {
        for set in ["hls", "fmp4"] {
            let engine = try PlaybackEngine(configuration: EngineConfiguration(
                output: .offscreen, looping: true, untimed: true, stop: StopCondition(frames: 1)))
            try engine.load(fixture.url("/\(set)/master-low-first.m3u8"))
            XCTAssertEqual(engine.waitUntilReady(timeout: 10), .loading)
            engine.seek(to: 2.5)
            XCTAssertEqual(engine.run(), .finished)
            XCTAssertEqual(engine.screen.currentFrame?.positionInPass ?? 0, 2.5, accuracy: 1e-6, set)
            // And from pass 1, after a wrap, to 1 s into the pass.
            let later = try PlaybackEngine(configuration: EngineConfiguration(
                output: .offscreen, looping: true, untimed: true, stop: StopCondition(frames: 130)))
            var shown: [(pass: Int, position: Double)] = []
            var seeked = false
            later.onFramePresented = { [unowned later] frame in
                shown.append((frame.pass, frame.positionInPass))
                if frame.pass == 1, !seeked {
                    seeked = true
                    later.seek(to: 1)
                }
            }
            try later.load(fixture.url("/\(set)/master-low-first.m3u8"))
            later.run()
            let after = try XCTUnwrap(shown.firstIndex { $0.pass == 1 }.map { shown[($0 + 1)...] }?.first, set)
            XCTAssertEqual(after.pass, 1, set)
            XCTAssertEqual(after.position, 1, accuracy: 1e-6, set)
        }
    }

    /// In real time: the interval at each wrap, measured by the presenter, is one frame interval.
    func testSeamInRealTime() throws {
        let probe = NetworkProbe { $0.network.variant = .minBitrate }
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 15) { $0.engine.statistics.loopsCompleted >= 2 }
        let statistics = probe.engine.statistics
        print("HLSPlaybackTests: real-time seams \(statistics.seamIntervalsMs) ms, periods \(statistics.loopPeriodsMs) ms")
        XCTAssertEqual(statistics.seamIntervalsMs.count, 2)
        for seam in statistics.seamIntervalsMs { XCTAssertEqual(seam, 1000.0 / 30, accuracy: 12) }
        XCTAssertEqual(statistics.framesDropped, 0)
        XCTAssertNil(probe.failure)
    }

    /// A short VOD loop is kept in memory: after its first pass the server may go away for good and
    /// the loop plays on, without a request and without buffering.
    func testCachedLoopSurvivesLosingTheServer() throws {
        let probe = NetworkProbe { configuration in
            configuration.network.variant = .minBitrate
            configuration.network.bufferAhead = 3   // less than a pass: later passes need the cache
        }
        var killedAt: Double?
        let server = fixture.server
        probe.run(fixture.url("/hls/master-low-first.m3u8"), timeout: 20) { probe in
            let loops = probe.engine.statistics.loopsCompleted
            if killedAt == nil, loops >= 1 {
                server.stop()
                killedAt = probe.now
            }
            return loops >= 3
        }
        XCTAssertNotNil(killedAt)
        XCTAssertEqual(probe.engine.statistics.loopsCompleted, 3)
        XCTAssertNil(probe.failure)
        XCTAssertFalse(probe.errors.contains { $0.kind == "networkError" }, "\(probe.errors)")
        XCTAssertFalse(probe.states.contains(.buffering))
        XCTAssertLessThan(probe.longestGap(after: killedAt ?? 0), 0.1)
    }
}
