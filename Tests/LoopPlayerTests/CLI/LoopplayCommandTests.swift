import Foundation
import XCTest

/// `loopplay` as scripts use it: flags, exit codes, one-line errors, statistics, snapshots.
final class LoopplayCommandTests: XCTestCase {
    private let statsKeys = ["framesDecoded", "framesPresented", "framesDropped", "loopsCompleted",
                             "nominalFrameIntervalMs", "loopDurationMs", "seamIntervalsMs", "seamMaxDeviationMs",
                             "loopPeriodsMs", "firstFrameMs", "peakRSSBytes", "cpuSeconds", "audioDevice",
                             "audioUnderruns", "avOffsetMeanMs", "avOffsetMaxMs", "avOffsetSamples",
                             "syncOffsetMeanMs", "syncOffsetMaxMs", "syncOffsetSamples", "seamsMeasured", "sinceStart",
                             "readAheadPackets", "readAheadBytes"]

    func testLoopsWritesEveryStatisticAndExitsZero() throws {
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--loops", "3",
                                           "--stats-json", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let stats = try XCTUnwrap(LoopplayTool.json(result.stdout), result.stdout)
        for key in statsKeys { XCTAssertNotNil(stats[key], "missing \(key)") }
        XCTAssertEqual(stats["framesPresented"] as? Int, 360)
        XCTAssertEqual(stats["loopsCompleted"] as? Int, 3)
        XCTAssertEqual((stats["seamIntervalsMs"] as? [Double])?.count, 2)
        XCTAssertEqual(stats["loopDurationMs"] as? Double ?? 0, 4000, accuracy: 0.01)
    }

    /// The sound flags, the device in the statistics, and a track that does not exist said in one
    /// line while playback goes on.
    func testSoundFlagsAndTheAudioDeviceInTheStatistics() throws {
        let sound = NSTemporaryDirectory() + "cli-sound-\(UUID().uuidString).raw"
        defer { try? FileManager.default.removeItem(atPath: sound) }
        let result = try LoopplayTool.run(["--source", AudioTestMedia.sine(), "--headless", "--loop", "--frames", "45",
                                           "--audio-driver", "disk", "--audio-device", sound, "--volume", "50",
                                           "--speed", "1.5", "--audio-track", "fr", "--stats-json", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("loopplay:") }
        XCTAssertEqual(warnings.count, 1, result.stderr)
        XCTAssertTrue(warnings.first?.contains("no audio track matches 'fr'") == true, result.stderr)
        let stats = try XCTUnwrap(LoopplayTool.json(result.stdout), result.stdout)
        let device = try XCTUnwrap(stats["audioDevice"] as? [String: Any])
        XCTAssertEqual(device["rate"] as? Int, 48_000)
        XCTAssertEqual(device["channels"] as? Int, 2, "a mono source opens a stereo device")
        XCTAssertEqual(device["format"] as? String, "f32")
        XCTAssertEqual(device["driver"] as? String, "disk")
        XCTAssertEqual(stats["framesPresented"] as? Int, 45, "1 s at speed 1.5")
        let samples = try Data(contentsOf: URL(fileURLWithPath: sound)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let first = try XCTUnwrap(samples.firstIndex { abs($0) > 1e-6 })
        guard samples.count >= first + 24_000 else { return XCTFail("\(samples.count - first) samples of sound written") }
        // The sine's amplitude is 1/8: its RMS at half volume is 0.0625/√2.
        XCTAssertEqual(Signal.rms(samples[(first + 2400)..<(first + 24_000)]), 0.0625 / 2.0.squareRoot(), accuracy: 0.004)
    }

    /// The sound's file is a FIFO whose reader stopped reading: SDL's audio thread blocks in its
    /// write, and closing the device would join it for ever. SIGTERM still ends the process: the
    /// close gives up after 2 s (one line says so) and the process ends without stdio's flush.
    func testAFIFONobodyReadsDoesNotHoldTheStop() throws {
        let fifo = NSTemporaryDirectory() + "cli-stuck-\(UUID().uuidString).fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        // Opens the FIFO for reading (so the player's open succeeds) and never reads.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "exec sleep 600 < \"$0\"", fifo]
        try reader.run()
        defer { reader.terminate() }
        let player = try LoopplayTool.start(["--source", AudioTestMedia.sine(), "--headless", "--loop",
                                             "--audio-driver", "disk", "--audio-device", fifo])
        defer { stop(player.process) }
        // Waits until one of its threads blocks writing into the full pipe (the kernel says where:
        // `pipe_write`, `anon_pipe_write` in newer kernels).
        let blocked = waitFor(timeout: 60) {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(player.process.processIdentifier)/task")) ?? []
            return tasks.contains { task in
                (try? String(contentsOfFile: "/proc/\(player.process.processIdentifier)/task/\(task)/wchan", encoding: .utf8))?.hasSuffix("pipe_write") == true
            }
        }
        XCTAssertTrue(blocked, "the sound never filled the pipe")
        player.process.terminate()
        // A bound against a hang only: without the fix the process never ends.
        XCTAssertTrue(waitFor(timeout: 60) { !player.process.isRunning }, "SIGTERM did not end the process")
        guard !player.process.isRunning else { return }
        XCTAssertEqual(player.process.terminationReason, .exit)
        XCTAssertEqual(player.process.terminationStatus, 0)
        let errors = String(decoding: player.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(errors.contains("the sound device did not close in 2.0 s"), errors)
    }

    func testWithoutLoopItExitsAtTheEnd() throws {
        let result = try LoopplayTool.run([TestMedia.loopClip(), "--headless", "--untimed", "--stats-json", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(LoopplayTool.json(result.stdout)?["framesPresented"] as? Int, 120)
    }

    func testFramesAndDurationLimits() throws {
        let frames = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--loop",
                                           "--frames", "50", "--stats-json", "-"])
        XCTAssertEqual(LoopplayTool.json(frames.stdout)?["framesPresented"] as? Int, 50)
        let duration = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--loop",
                                             "--duration", "5", "--stats-json", "-"])
        XCTAssertEqual(LoopplayTool.json(duration.stdout)?["framesPresented"] as? Int, 150)
    }

    func testRealTimeHeadlessPlaybackKeepsTheClock() throws {
        // Two passes of the 4 s clip, however long the start takes: one seam between them.
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--loops", "2",
                                           "--stats-json", "-"])
        let stats = try XCTUnwrap(LoopplayTool.json(result.stdout))
        XCTAssertEqual(stats["loopsCompleted"] as? Int, 2)
        XCTAssertEqual((stats["framesPresented"] as? Int ?? 0) + (stats["framesDropped"] as? Int ?? 0), 240, "\(stats)")
        let seam = try XCTUnwrap((stats["seamIntervalsMs"] as? [Double])?.first)
        // One frame interval, plus one for each frame a loaded machine dropped (the seam is measured
        // in docs/benchmarks.md, not here).
        let dropped = Double(stats["framesDropped"] as? Int ?? 0)
        XCTAssertEqual(seam, 33.3, accuracy: 15 + 33.3 * dropped, "one frame interval, loosely")
    }

    func testSnapshotWritesTheFrameAtTheRequestedTime() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).png").path
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--snapshot", output,
                                           "--snapshot-at", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let probe = try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", output])
        XCTAssertEqual(probe.output.trimmingCharacters(in: .whitespacesAndNewlines), "320,180")
        XCTAssertGreaterThan(try TestMedia.psnr(output, TestMedia.reference(TestMedia.loopClip(), frame: 60)), 40, "frame 60 = 2 s")
        XCTAssertLessThan(try TestMedia.psnr(output, TestMedia.reference(TestMedia.loopClip(), frame: 0)), 40)
    }

    /// The snapshot's format is the one its name says (`.jpg`: JPEG, as mpv writes it), and `-`
    /// writes the PNG to stdout (it wrote a file named `-`, and `.jpg` got PNG bytes).
    func testSnapshotIsWrittenInTheFormatItsNameSaysAndDashIsStdout() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-format-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpeg = directory.appendingPathComponent("shot.jpg").path
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--snapshot", jpeg, "--snapshot-at", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)).prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG file")
        let probe = try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", jpeg])
        XCTAssertEqual(probe.output.trimmingCharacters(in: .whitespacesAndNewlines), "mjpeg,320,180")
        XCTAssertGreaterThan(try TestMedia.psnr(jpeg, TestMedia.reference(TestMedia.loopClip(), frame: 60)), 35, "frame 60 = 2 s")

        let piped = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--headless", "--snapshot", "-"],
                                           directory: directory.path)
        let stdout = piped.stdout.fileHandleForReading.readDataToEndOfFile()
        piped.process.waitUntilExit()
        XCTAssertEqual(piped.process.terminationStatus, 0,
                       String(decoding: piped.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        XCTAssertEqual([UInt8](stdout.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG on stdout")
        let png = directory.appendingPathComponent("stdout.png").path
        try stdout.write(to: URL(fileURLWithPath: png))
        let image = try TestMedia.rgbPixels(of: png)
        XCTAssertEqual([image.width, image.height], [320, 180])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path), "no file named -")
        let both = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--snapshot", "-", "--stats-json", "-"])
        XCTAssertEqual(both.status, 64, both.stderr)
        XCTAssertEqual(both.stderr.split(separator: "\n").count, 1, both.stderr)
    }

    /// `--snapshot` to a FIFO is refused at once (it waited forever for a reader at the end of the
    /// run, and SIGTERM did not end it); so are a directory and a device.
    func testSnapshotToAFIFOIsRefusedAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-fifo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("ff.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (target, kind) in [(fifo, "FIFO"), (directory.path, "directory"), ("/dev/null", "device")] {
            let player = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--headless", "--snapshot", target])
            let stderr = PipeText(player.stderr)
            // A hang guard, not a speed bound: before, it never ended.
            let ended = waitFor(timeout: 60) { !player.process.isRunning }
            stop(player.process, grace: 1)
            XCTAssertTrue(ended, "\(target): still running")
            XCTAssertEqual(player.process.terminationStatus, 64, stderr.whole())
            XCTAssertTrue(stderr.whole().contains(kind), stderr.whole())
            XCTAssertEqual(stderr.whole().split(separator: "\n").count, 1, stderr.whole())
        }
    }

    /// A snapshot that cannot be written says which file and why, in one line (it said "rendering
    /// failed: … (NSCocoaErrorDomain error 512.)"), exit 70.
    func testASnapshotThatCannotBeWrittenSaysWhy() throws {
        let missing = "/nonexistent-\(UUID().uuidString.prefix(8))/dir/x.png"
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--snapshot", missing])
        XCTAssertEqual(result.status, 70, result.stderr)
        XCTAssertEqual(result.stderr, "loopplay: cannot write \(missing): No such file or directory\n")
    }

    /// `--stats-json` that cannot be written is said in one line, exit 70 (it failed silently with
    /// 0): a full device, and a folder deleted during the run.
    func testStatisticsThatCannotBeWrittenAreSaidWithExit70() throws {
        let full = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--frames", "1", "--stats-json", "/dev/full"])
        XCTAssertEqual(full.status, 70, full.stderr)
        XCTAssertEqual(full.stderr, "loopplay: cannot write /dev/full: No space left on device\n")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-gone-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stats = folder.appendingPathComponent("stats.json").path
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString.prefix(8)).sock").path
        let player = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--headless", "--loop", "--stats-json", stats,
                                             "--input-ipc-server", socket], environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let stderr = PipeText(player.stderr)
        let client = try XCTUnwrap(pollFor(timeout: 30) { try? IPCClient(path: socket) }, stderr.text)
        try FileManager.default.removeItem(at: folder)  // during the run
        XCTAssertEqual(try client.request(["quit"])?["error"] as? String, "success")
        let ended = waitFor(timeout: 60) { !player.process.isRunning }
        XCTAssertTrue(ended, "quit ends loopplay")
        guard ended else { return }
        XCTAssertEqual(player.process.terminationStatus, 70, stderr.whole())
        XCTAssertEqual(stderr.whole(), "loopplay: cannot write \(stats): No such file or directory\n")
    }

    /// SIGTERM ends loopplay at once while the end of its run waits for a reader of a `--stats-json`
    /// FIFO (the signal stopped a player that had stopped already: nothing happened).
    func testSIGTERMEndsARunWhoseStatisticsWaitForAReader() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-term-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("stats.fifo").path
        let socket = directory.appendingPathComponent("term.sock").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // A reader while the command line is checked, gone before the run ends: the end's write waits.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        let player = try LoopplayTool.start(["--source", TestMedia.loopClip(), "--headless", "--loop", "--stats-json", fifo,
                                             "--input-ipc-server", socket], environment: ["SDL_AUDIODRIVER": "dummy"])
        defer { stop(player.process) }
        let client = try XCTUnwrap(pollFor(timeout: 30) { try? IPCClient(path: socket) })
        close(reader)
        XCTAssertEqual(try client.request(["quit"])?["error"] as? String, "success")
        // The main thread waits in the kernel for a reader of the FIFO.
        let wchan = "/proc/\(player.process.processIdentifier)/wchan"
        XCTAssertTrue(waitFor(timeout: 60) { (try? String(contentsOfFile: wchan, encoding: .utf8)) == "wait_for_partner" },
                      "blocked opening the FIFO")
        player.process.terminate()
        // A hang guard: before, one SIGTERM did nothing.
        let ended = waitFor(timeout: 60) { !player.process.isRunning }
        XCTAssertTrue(ended, "one SIGTERM ends it")
        guard ended else { return }  // the deferred stop kills it
        XCTAssertEqual(player.process.terminationStatus, 128 + SIGTERM)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket file is not left behind")
    }

    /// `--overlay` and `--overlay-text` are in the snapshot exactly as in the window; a bad SVG is
    /// one line on stderr and the rest plays.
    func testSnapshotShowsTheOverlayLayers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-overlay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let svg = directory.appendingPathComponent("square.svg").path
        try Data(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect x="4" y="4" width="2" height="2" fill="#00ff00"/></svg>"##.utf8)
            .write(to: URL(fileURLWithPath: svg))
        let output = directory.appendingPathComponent("shot.png").path
        let result = try LoopplayTool.run(["--source", TestMedia.redThenBlue(), "--headless", "--snapshot", output,
                                           "--overlay", svg, "--overlay", directory.appendingPathComponent("absent.svg").path,
                                           "--overlay-text", "LOOP"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("absent.svg"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)

        let image = try TestMedia.rgbPixels(of: output)
        XCTAssertEqual([image.width, image.height], [320, 180])
        // The SVG is fitted into the 320x180 picture keeping its aspect: a 180 px square in the middle,
        // so its 2x2 unit square covers 144…180 across and 72…108 down.
        let centre = image.pixel(160, 90)
        XCTAssertTrue(centre[0] < 40 && centre[1] > 220 && centre[2] < 40, "\(centre): the SVG's square")
        let beside = image.pixel(130, 90)
        XCTAssertTrue(beside[0] > 200 && beside[1] < 60, "\(beside): the red picture around it")
        // The text layer sits at the top left: light glyphs with a dark outline over the red.
        var light = 0, dark = 0
        for y in 0..<40 { for x in 0..<120 {
            let p = image.pixel(x, y)
            if p.allSatisfy({ $0 > 200 }) { light += 1 }
            if p.allSatisfy({ $0 < 60 }) { dark += 1 }
        } }
        XCTAssertGreaterThan(light, 30, "glyph pixels in the top-left corner")
        XCTAssertGreaterThan(dark, 30, "outline pixels in the top-left corner")
        let corner = image.pixel(300, 170)
        XCTAssertTrue(corner[0] > 200 && corner[1] < 60, "\(corner): nothing drawn elsewhere")
    }

    /// A real-time snapshot shows the subtitle on screen at its time (the renderer is ready before
    /// the only frame), in the track's style: the German ASS track's red "Red text" at 1.5 s.
    func testRealTimeSnapshotShowsTheSubtitles() throws {
        func redPixels(sid: String) throws -> Int {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("cli-subs-\(UUID().uuidString).png").path
            let result = try LoopplayTool.run(["--source", SubtitleTestMedia.mkv(), "--headless", "--sid", sid,
                                               "--snapshot", output, "--snapshot-at", "1.5"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let image = try TestMedia.rgbPixels(of: output)
            var red = 0
            for y in 0..<image.height { for x in 0..<image.width {
                let p = image.pixel(x, y)
                if p[0] > 180 && p[1] < 80 && p[2] < 80 { red += 1 }
            } }
            return red
        }
        let picture = try redPixels(sid: "no")
        XCTAssertGreaterThan(try redPixels(sid: "2") - picture, 20, "red subtitle glyphs over the picture's own red")
    }

    func testMissingSourceIsAMediaErrorOnOneLine() throws {
        let result = try LoopplayTool.run(["--source", "/nonexistent/clip.mp4", "--headless"])
        XCTAssertEqual(result.status, 65)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("/nonexistent/clip.mp4") && result.stderr.contains("not found"), result.stderr)
    }

    func testUnreadableFileIsAMediaError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("text-\(UUID().uuidString).mp4").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        let result = try LoopplayTool.run(["--source", path, "--headless", "--stats-json", "-"])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("cannot read the media"), result.stderr)
        XCTAssertEqual((LoopplayTool.json(result.stdout)?["errors"] as? [String: Int])?["unreadableMedia"], 1)
    }

    func testUnknownGravityIsAUsageError() throws {
        let result = try LoopplayTool.run(["--source", "swipe", "--headless", "--gravity", "sideways"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("gravity"), result.stderr)
    }

    func testBareNameFindsTheBundledSample() throws {
        let result = try LoopplayTool.run(["--source", "swipe", "--headless", "--untimed", "--frames", "3",
                                           "--stats-json", "-"], directory: NSTemporaryDirectory())
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(LoopplayTool.json(result.stdout)?["framesPresented"] as? Int, 3)
    }

    func testNoDisplayFallsBackToHeadlessWithStatsAndASnapshot() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nodisplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try LoopplayTool.run(["--source", "swipe", "--loop", "--untimed"],
                                          environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil],
                                          directory: directory.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(lines.first?.contains("no display") == true, result.stderr)
        XCTAssertEqual(LoopplayTool.json(result.stdout)?["loopsCompleted"] as? Int, 3)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("loopplay-snapshot.png").path))
    }

    /// A DISPLAY that names no X server (a stale ssh forward, a server that has gone) is said as
    /// such, not as an unset variable; SDL does not go on to probe Wayland and print its noise.
    func testADisplayWithNoServerIsNamedInTheFallbackLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deaddisplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try LoopplayTool.run(["--source", "swipe", "--untimed", "--frames", "2"],
                                          environment: ["DISPLAY": ":987", "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil],
                                          directory: directory.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(lines.first?.contains("no display (cannot connect to the display :987") == true, result.stderr)
    }

    func testEventsAndTimesArePrintedAsJSONLines() throws {
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--loops", "2",
                                           "--events", "--time-publishing"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let batches = objects.compactMap { $0["events"] as? [[String: Any]] }.map { $0.compactMap { $0["type"] as? String } }
        XCTAssertEqual(batches, [["currentItemChanged", "itemStatusChanged", "duration", "playing", "boundsChanged"],
                                 ["loopCompleted", "played"], ["loopCompleted", "played"]])
        let times = objects.compactMap { $0["time"] as? Double }.map { ($0 * 1000).rounded() / 1000 }
        XCTAssertEqual(times, [1, 2, 3, 0, 1, 2, 3])
    }

    func testTimePublishingTakesAnInterval() throws {
        let result = try LoopplayTool.run(["--source", TestMedia.loopClip(), "--headless", "--untimed", "--duration", "2.1",
                                           "--time-publishing", "0.5"])
        let times = result.stdout.split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["time"] as? Double
        }
        XCTAssertEqual(times.map { ($0 * 1000).rounded() / 1000 }, [0.5, 1, 1.5, 2])
        let bad = try LoopplayTool.run(["--source", "swipe", "--time-publishing", "-2"])
        XCTAssertEqual(bad.status, 64)
    }
}
