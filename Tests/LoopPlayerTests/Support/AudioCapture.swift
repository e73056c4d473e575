import Foundation
import LoopPlayer
import XCTest

/// A real-time headless run whose sound goes through SDL's real audio path into SDL's `disk`
/// driver: the file holds exactly what the device was given, at the moment it was due.
struct AudioCapture {
    /// Channel 0 of what was played, from the device's first buffer (silence before the start included).
    var samples: [Float] = []
    var format: AudioDeviceFormat?
    var statistics = PlaybackStatistics()
    var events: [PlayerEvent] = []
    /// How many times the player's sound device opened.
    var deviceOpens = 0
    /// For every frame shown: its timeline time and when it was shown (monotonic seconds).
    var shown: [(time: Double, at: Double)] = []
    /// Every time SDL's write reached the file: when (monotonic seconds, polled every 0.2 ms) and
    /// how many frames the file held then.
    var writes: [(at: Double, frames: Int)] = []

    /// Plays `source` for `stop`; `prepare` runs before it loads, `during` on the engine's thread
    /// after every frame shown.
    static func play(_ source: String, looping: Bool = true, stop: StopCondition, audio: AudioOptions = AudioOptions(),
                     controller: TestController = TestController(),
                     during: ((PlaybackEngine, VideoFrame) -> Void)? = nil,
                     prepare: ((PlaybackEngine) -> Void)? = nil) throws -> AudioCapture {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lp-audio-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        var options = audio
        options.driver = "disk"
        options.device = file
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: looping, stop: stop, audio: options))
        var capture = AudioCapture()
        let previous = controller.onEvent
        controller.onEvent = { event in
            if case let .player(event) = event { capture.events.append(event) }
            previous?(event)
        }
        let clock = MonotonicClock()
        engine.onFramePresented = { [unowned engine] frame in
            capture.shown.append((frame.time, clock.now))
            during?(engine, frame)
        }
        let watcher = FileGrowthWatcher(path: file)
        prepare?(engine)
        try engine.load(source)
        _ = engine.run(controller: controller)
        let growth = watcher.stop()
        capture.statistics = engine.statistics
        capture.deviceOpens = engine.sound.deviceOpens
        capture.format = capture.statistics.audioDevice
        engine.close()
        engine.unload()  // the device is closed (by close(), and here again): the file is complete
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let channels = capture.format?.channels ?? 1
        capture.writes = growth.map { ($0.at, $0.bytes / (4 * channels)) }
        capture.samples = data.withUnsafeBytes { raw in
            let floats = raw.bindMemory(to: Float.self)
            return stride(from: 0, to: floats.count - channels + 1, by: channels).map { floats[$0] }
        }
        return capture
    }
}

/// FFmpeg's own decode of `path`'s audio, channel 0, as 32-bit floats at `rate`.
func referenceAudio(_ path: String, rate: Int = 48_000) throws -> [Float] {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("ref-\(UUID().uuidString).raw").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let result = try TestMedia.run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-i", path,
                                              "-af", "pan=mono|c0=c0", "-ar", "\(rate)", "-f", "f32le", output])
    guard result.status == 0 else { throw TestMediaError.ffmpegFailed("reference audio", result.output) }
    let data = try Data(contentsOf: URL(fileURLWithPath: output))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// Largest |a[i] − b[i]| over `range` of `b`, with `a` shifted by `offset`.
func largestDifference(_ a: [Float], at offset: Int, _ b: [Float], over range: Range<Int>) -> Float {
    var largest: Float = 0
    for i in range where offset + i < a.count { largest = max(largest, abs(a[offset + i] - b[i])) }
    return offset + range.upperBound <= a.count ? largest : .infinity
}

/// The offset in `played` where `reference` starts, searched in `window`: the one with the
/// smallest difference over the reference's middle (the first buffer fades in).
func alignment(of reference: [Float], in played: [Float], window: Range<Int>, compare: Range<Int>) -> (offset: Int, error: Float) {
    var best = (offset: window.lowerBound, error: Float.infinity)
    for offset in window {
        let error = largestDifference(played, at: offset, reference, over: compare)
        if error < best.error { best = (offset, error) }
    }
    return best
}

/// Records when a file grows, on its own thread: inotify wakes it at each write into the file's
/// folder (or its creation), and the file's size then says whether it grew. Each growth is stamped
/// when the write happened, to within the wakeup of a waiting thread.
final class FileGrowthWatcher: @unchecked Sendable {  // `growth` guarded by `lock`; the descriptors are the thread's
    private let lock = NSLock()
    private var growth: [(at: Double, bytes: Int)] = []
    private let path: String
    /// inotify, watching the file's folder.
    private let events: Int32
    /// Written to by `stop()` to end the thread's wait.
    private let stopRead: Int32, stopWrite: Int32
    private let ended = ThreadResult<Bool>()

    init(path: String) {
        self.path = path
        events = inotify_init1(Int32(IN_CLOEXEC))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if events >= 0 {
            _ = inotify_add_watch(events, folder, UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE))
        }
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        stopRead = ends[0]
        stopWrite = ends[1]
        Thread { [self] in watch() }.start()
    }

    private func watch() {
        let clock = MonotonicClock()
        var last = -1
        func look() {
            var status = stat()
            if stat(path, &status) == 0, Int(status.st_size) != last {
                last = Int(status.st_size)
                let now = clock.now
                lock.withLock { growth.append((now, last)) }
            }
        }
        look()
        var descriptors = [pollfd(fd: events, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while events >= 0 {
            // Waits for a change in the folder (or for `stop()`), with no timeout.
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { break }
            if descriptors[1].revents != 0 { break }
            if descriptors[0].revents != 0, read(events, &buffer, buffer.count) > 0 { look() }
        }
        look()
        if events >= 0 { close(events) }
        close(stopRead)
        ended.set(true)
    }

    /// Ends the watch; what it recorded, in order.
    func stop() -> [(at: Double, bytes: Int)] {
        var byte: UInt8 = 1
        _ = write(stopWrite, &byte, 1)
        _ = ended.wait(timeout: 10)
        close(stopWrite)
        return lock.withLock { growth }
    }
}
