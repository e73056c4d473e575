import CFFmpeg
import FFmpegSupport
import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// The HLS byte stream under libavformat: packets across segments, across a variant switch
/// (decoded: the picture size changes, timestamps run on), fMP4, a server restarted mid-stream, a
/// 404, giving up, and the variant selector going down under a throttle and up when it lifts.
final class HLSByteStreamTests: XCTestCase {
    private var server: FaultServer!
    private var root: URL!
    /// Media playlists of the TS fixtures, lowest variant first.
    private var variants: [HLSMediaPlaylist] = []

    override func setUpWithError() throws {
        try require(TestMedia.hasEncoder("libx264"), "ffmpeg with libx264")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stream-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("hls"), withDestinationURL: try HLSFixtures.set(.mpegts))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("fmp4"), withDestinationURL: try HLSFixtures.set(.fmp4))
        server = try FaultServer(root: root)
        variants = try mediaPlaylists("/hls/master-low-first.m3u8")
    }

    override func tearDown() {
        server?.stop()
        server = nil
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func mediaPlaylists(_ path: String) throws -> [HLSMediaPlaylist] {
        let loader = HLSPlaylistLoader(fetcher: HTTPFetcher())
        guard case let .master(master) = try loader.load(URL(string: server.url(path))!) else { throw TestMediaError.ffmpegFailed(path, "not a master") }
        return try master.variants.map { try loader.loadMedia($0.url, listedBy: master.url) }
    }

    /// A schedule taking segment i from `plan[i]` (a variant number), then the end.
    private func scripted(_ plan: [Int], _ playlists: [HLSMediaPlaylist]) -> HLSByteStream.Schedule {
        { index, _ in
            guard index < plan.count else { return nil }
            return HLSByteStream.Segment(playlists[plan[index]].segments[index], variant: plan[index])
        }
    }

    func testPacketsAcrossSegments() throws {
        let stream = HLSByteStream(fetcher: HTTPFetcher(), schedule: scripted([1, 1, 1, 1], variants))
        defer { stream.stop() }
        let result = try Demuxed(stream, format: "mpegts")
        XCTAssertEqual(result.frames.count, 120)
        XCTAssertEqual(Set(result.frames.map(\.width)), [640])
        result.assertContinuous()
        XCTAssertGreaterThan(result.audioPackets, 100, "the sound comes along")
        XCTAssertEqual(result.end, FFmpegError.endOfFile)
        // Every packet's position maps back to its segment: about 30 video packets each.
        let perSegment = Dictionary(grouping: result.videoPositions) { stream.segment(at: $0)?.segment.sequenceNumber ?? -1 }
        XCTAssertEqual(perSegment.keys.sorted(), [0, 1, 2, 3])
        XCTAssertEqual(stream.delivered.map(\.byteCount), try variants[1].segments.map { try Data(contentsOf: localFile($0.url)).count })
    }

    /// Segments 0–1 from 240p, 2–3 from 720p: one demuxer, one decoder; the picture changes size
    /// at 2 s and the timestamps run on without a gap.
    func testVariantSwitchKeepsTimestampsContinuous() throws {
        let stream = HLSByteStream(fetcher: HTTPFetcher(), schedule: scripted([0, 0, 2, 2], variants))
        defer { stream.stop() }
        let result = try Demuxed(stream, format: "mpegts")
        XCTAssertEqual(result.frames.count, 120)
        XCTAssertEqual(result.frames.prefix(60).map(\.width), Array(repeating: 426, count: 60))
        XCTAssertEqual(result.frames.suffix(60).map(\.width), Array(repeating: 1280, count: 60))
        result.assertContinuous()
        XCTAssertEqual(result.decodeErrors, 0)
        XCTAssertEqual(stream.delivered.map(\.segment.variant), [0, 0, 2, 2])
        // Down again: 720p → 360p.
        let down = HLSByteStream(fetcher: HTTPFetcher(), schedule: scripted([2, 1, 1, 0], variants))
        defer { down.stop() }
        let second = try Demuxed(down, format: "mpegts")
        XCTAssertEqual(second.frames.map(\.width), Array(repeating: 1280, count: 30) + Array(repeating: 640, count: 60) + Array(repeating: 426, count: 30))
        second.assertContinuous()
    }

    /// fMP4: the init section goes first, then the fragments, through the mov demuxer.
    func testFragmentedMP4() throws {
        let fmp4 = try mediaPlaylists("/fmp4/master-low-first.m3u8")
        let stream = HLSByteStream(fetcher: HTTPFetcher(), schedule: scripted([1, 1, 1, 1], fmp4))
        defer { stream.stop() }
        let result = try Demuxed(stream, format: "mov")
        XCTAssertEqual(result.frames.count, 120)
        XCTAssertEqual(Set(result.frames.map(\.width)), [640])
        result.assertContinuous()
        let log = try server.requestLog().filter { $0.path.hasPrefix("/fmp4/v360/") && !$0.path.hasSuffix(".m3u8") }.map(\.path)
        XCTAssertEqual(log.first, "/fmp4/v360/init_1.mp4", "the init section is fetched once, first")
        XCTAssertEqual(log.count, 5)
    }

    /// The server dies while it sends the third segment and comes back once the stream retries:
    /// the stream resumes, and the demuxer sees every frame exactly once.
    func testServerRestartMidStream() throws {
        try server.setFaults([FaultRule(prefix: "/hls/v360/", throttle: 150_000)])
        let stream = HLSByteStream(fetcher: HTTPFetcher(), giveUpAfter: 20, schedule: scripted([1, 1, 1, 1], variants))
        defer { stream.stop() }
        let restarted = ThreadResult<Double>()
        let port = server.port
        let killer = Thread { [server] in
            // Inside segment 2: two delivered, the third asked for (it comes at the throttle's pace).
            _ = waitFor(timeout: 10) { stream.delivered.count >= 2 }
            _ = try? server?.waitForRequest(timeout: 10) { $0.path.hasSuffix("/v360/seg002.ts") }
            server?.stop()
            let killed = Date()
            // Back once the stream noticed and is retrying.
            _ = waitFor(timeout: 10) { stream.retrying != nil }
            try? server?.restart()
            restarted.set(Date().timeIntervalSince(killed))
        }
        killer.start()
        let result = try Demuxed(stream, format: "mpegts")
        XCTAssertNotNil(restarted.wait(timeout: 10))
        XCTAssertEqual(server.port, port)
        XCTAssertEqual(result.frames.count, 120, "every frame once")
        result.assertContinuous()
        XCTAssertEqual(result.decodeErrors, 0)
        XCTAssertNil(stream.failure)
        let retried = stream.delivered.map(\.retries)
        XCTAssertGreaterThan(retried.reduce(0, +), 0, "\(retried)")
        let resumed = try server.requestLog().filter { $0.path.hasSuffix("seg002.ts") }.compactMap(\.range)
        print("HLSByteStreamTests: retries \(retried), seg002 requests with ranges \(resumed)")
    }

    /// A 404 is final: the demuxer gets the segments before it, then an error; the stream names it.
    func testPermanentFailureReachesTheDemuxer() throws {
        try server.setFaults([FaultRule(pattern: "v360/seg002", status: 404)])
        let stream = HLSByteStream(fetcher: HTTPFetcher(), schedule: scripted([1, 1, 1, 1], variants))
        defer { stream.stop() }
        let result = try Demuxed(stream, format: "mpegts")
        XCTAssertEqual(result.end, -EIO)
        XCTAssertEqual(result.frames.count, 60, "the first two segments play")
        XCTAssertEqual(stream.failure, .fetch(.httpStatus(url: server.url("/hls/v360/seg002.ts"), status: .notFound)))
    }

    /// Nobody comes back: a typed error once the give-up time has passed.
    func testGivesUpAfterTheLimit() throws {
        // The second segment cannot complete (1000 bytes, then the server holds it): the server is
        // stopped while it arrives, however long the first one took.
        try server.setFaults([FaultRule(pattern: "v360/seg00[1-9]\\.ts$", stallAfter: 1000)])
        let stream = HLSByteStream(fetcher: HTTPFetcher(), giveUpAfter: 2, schedule: scripted([1, 1, 1, 1], variants))
        defer { stream.stop() }
        _ = waitFor(timeout: 30) { !stream.delivered.isEmpty }
        XCTAssertEqual(stream.delivered.count, 1, "stopped while the second segment arrives")
        // From before the stop: the failing (and so the give-up time) starts after it.
        let started = Date()
        server.stop()
        let result = try Demuxed(stream, format: "mpegts")
        let waited = Date().timeIntervalSince(started)
        XCTAssertEqual(result.end, -EIO)
        XCTAssertEqual(stream.failure?.kind, "connectionFailed", "\(String(describing: stream.failure))")
        print("HLSByteStreamTests: give-up time 2 s, the demuxer saw the error after \(waited) s")
        // Not before the give-up time (how much later depends on the machine: not bounded here).
        XCTAssertGreaterThanOrEqual(waited, 2 - 0.05, "gave up after \(waited) s")
    }

    /// The variant selector drives the schedule: a throttled 720p makes it go down, lifting the
    /// throttle makes it go up again. (The stream loops over the 4 segments; only bytes are read.)
    func testSelectorGoesDownUnderAThrottleAndUpWhenItLifts() throws {
        var tuning = VariantSelector.Tuning()
        tuning.upHoldSeconds = 0.5
        tuning.minSwitchInterval = 0.5
        let candidates = [510_400, 1_170_400, 3_370_400].map { VariantSelector.Candidate(bandwidth: $0) }
        var initial = VariantSelector(variants: candidates, tuning: tuning)!
        initial.record(bytes: 2_000_000, seconds: 0.5)   // a fast probe: start high
        let selector = SelectorBox(initial)
        let playlists = variants
        try server.setFaults([FaultRule(prefix: "/hls/v720/", throttle: 100_000)])
        let throttled: FaultServer = server
        let stream = HLSByteStream(fetcher: HTTPFetcher(), schedule: { index, previous in
            guard index < 40 else { return nil }
            let variant = selector.state.withLock { selector in
                if let previous { selector.record(bytes: previous.byteCount, seconds: previous.networkSeconds) }
                // Playback at 10× real time on the selector's clock: segment i is asked for at i × 0.1 s.
                return index == 0 ? selector.start().variant : selector.next(bufferSeconds: 6, now: Double(index) * 0.1).variant
            }
            // Down under the throttle: it lifts now, before the next segment is asked for.
            if variant < 2, selector.isFirstDown() { try? throttled.clearFaults() }
            return HLSByteStream.Segment(playlists[variant].segments[index % 4], variant: variant)
        })
        defer { stream.stop() }
        let drain = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let reader = stream.makeReader()
            while let context = reader.ioContext, avio_read(context, &buffer, 65536) > 0 {}
        }
        drain.start()
        _ = waitFor(timeout: 30) { stream.delivered.count >= 40 || stream.failure != nil }
        let sequence = stream.delivered.map(\.segment.variant)
        print("HLSByteStreamTests: variants chosen \(sequence)")
        XCTAssertEqual(sequence.first, 2, "starts high after a fast probe")
        let down = try XCTUnwrap(sequence.firstIndex { $0 < 2 }, "went down under the throttle")
        XCTAssertLessThanOrEqual(down, 2)
        XCTAssertTrue(sequence[down...].contains(2), "went up again once the throttle lifted: \(sequence)")
    }

    private func localFile(_ url: URL) -> URL {
        root.appendingPathComponent(url.path)
    }
}

/// A selector shared with the fetch thread's schedule.
private final class SelectorBox: Sendable {
    let state: Mutex<VariantSelector>
    private let wentDown = Mutex(false)
    init(_ selector: VariantSelector) { state = Mutex(selector) }

    /// True the first time it is asked only: the selector has gone down (once).
    func isFirstDown() -> Bool {
        wentDown.withLock { down in
            let first = !down
            down = true
            return first
        }
    }
}

/// Everything libavformat and libavcodec make of a byte stream.
private struct Demuxed {
    var frames: [(pts: Double, width: Int32)] = []
    var videoPositions: [Int64] = []
    var audioPackets = 0
    var decodeErrors = 0
    /// `av_read_frame`'s last status.
    var end: Int32 = 0
    var frameInterval = 1.0 / 30

    init(_ stream: HLSByteStream, format name: String) throws {
        var context = avformat_alloc_context()
        let reader = stream.makeReader()
        guard let format = context, let io = reader.ioContext else { throw TestMediaError.ffmpegFailed("demux", "no context") }
        format.pointee.pb = io
        format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var options: OpaquePointer?
        // Nothing else may be opened from inside the stream.
        av_dict_set(&options, "protocol_whitelist", "none", 0)
        let opened = avformat_open_input(&context, nil, av_find_input_format(name), &options)
        av_dict_free(&options)
        guard opened >= 0, let context else { throw TestMediaError.ffmpegFailed("demux", FFmpegError(code: opened).message) }
        defer { var doomed: UnsafeMutablePointer<AVFormatContext>? = context; avformat_close_input(&doomed); withExtendedLifetime(reader) {} }
        guard avformat_find_stream_info(context, nil) >= 0 else { throw TestMediaError.ffmpegFailed("demux", "no stream info") }
        let videoIndex = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard videoIndex >= 0, let video = context.pointee.streams[Int(videoIndex)] else { throw TestMediaError.ffmpegFailed("demux", "no video") }
        let decoder = try StreamDecoder(stream: video, sourceName: "hls")
        let timeBase = video.pointee.time_base.seconds
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var frames: [(Double, Int32)] = []
        let collect = { (frame: consuming OwnedFrame) in
            frames.append((Double(frame.pointer.pointee.best_effort_timestamp) * timeBase, frame.pointer.pointee.width))
        }
        while true {
            end = av_read_frame(context, packet)
            if end < 0 { break }
            if packet?.pointee.stream_index == videoIndex {
                videoPositions.append(packet?.pointee.pos ?? -1)
                decoder.decode(packet, emit: collect)
            } else if context.pointee.streams[Int(packet?.pointee.stream_index ?? 0)]?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
                audioPackets += 1
            }
            av_packet_unref(packet)
        }
        decoder.decode(nil, emit: collect)
        self.frames = frames.map { (pts: $0.0, width: $0.1) }
        decodeErrors = decoder.errorCount
    }

    /// Every frame one frame interval after the one before.
    func assertContinuous(file: StaticString = #filePath, line: UInt = #line) {
        let steps = zip(frames, frames.dropFirst()).map { $1.pts - $0.pts }
        let worst = steps.map { abs($0 - frameInterval) }.max() ?? 0
        XCTAssertLessThan(worst, 1e-3, "steps \(Set(steps.map { ($0 * 1000).rounded() }))", file: file, line: line)
    }
}
