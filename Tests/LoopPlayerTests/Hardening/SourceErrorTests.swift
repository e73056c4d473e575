import Foundation
import LoopPlayer
import XCTest

/// Each way a local source cannot be played says what is wrong, in one line that names the source
/// (escaped): not one "source not found" for everything.
final class SourceErrorTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("source-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        chmod(scratch.path, 0o755)  // the permission tests run loopplay as nobody
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Loads `source` in an engine and returns the error it fails with (none: a test failure).
    private func failure(of source: String, file: StaticString = #filePath, line: UInt = #line) throws -> PlayerError? {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(output: .offscreen, untimed: true,
                                                                           stop: StopCondition(frames: 1)))
        do {
            try engine.load(source)
            if case let .failed(error) = engine.run() { return error }
        } catch {
            return error
        }
        XCTFail("\(source) played", file: file, line: line)
        return nil
    }

    func testSymbolicLinkLoop() throws {
        let a = scratch.appendingPathComponent("a.mp4").path, b = scratch.appendingPathComponent("b.mp4").path
        XCTAssertEqual(symlink(b, a), 0)
        XCTAssertEqual(symlink(a, b), 0)
        let error = try XCTUnwrap(try failure(of: a))
        XCTAssertEqual(error.kind, "sourceInaccessible")
        XCTAssertEqual(error.description, "\(a): cannot open the source: a loop of symbolic links")
        XCTAssertTrue(error.isMediaError)
    }

    /// A FIFO is refused before it is opened (opening one without a writer would block forever: no
    /// writer ever comes, so an answer at all shows it was not opened).
    func testNamedPipeSocketAndDevice() throws {
        let fifo = scratch.appendingPathComponent("pipe.mp4").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let pipeError = try XCTUnwrap(try failure(of: fifo))
        XCTAssertEqual(pipeError, .specialFile(source: fifo, type: .namedPipe))
        XCTAssertTrue(pipeError.description.hasPrefix("\(fifo): not a media file: it is a named pipe (FIFO)"), pipeError.description)

        let socketPath = scratch.appendingPathComponent("socket.mp4").path
        let made = try TestMedia.run("python3", ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", socketPath])
        XCTAssertEqual(made.status, 0, made.output)
        let socketError = try XCTUnwrap(try failure(of: socketPath))
        XCTAssertEqual(socketError.description, "\(socketPath): not a media file: it is a socket")

        let deviceError = try XCTUnwrap(try failure(of: "/dev/zero"))
        XCTAssertEqual(deviceError.description, "/dev/zero: not a media file: it is a character device")
        XCTAssertEqual(deviceError.kind, "specialFile")
    }

    /// The container names a codec tag FFmpeg does not know: the message names the tag, not "none".
    func testUnknownCodecNamesItsTag() throws {
        let avi = try TestMedia.testPattern("unknown-tag-source.avi", frames: 10, codec: ["-c:v", "mpeg4", "-vtag", "FMP4"])
        var data = try Data(contentsOf: URL(fileURLWithPath: avi))
        // The tag is in the stream header (fccHandler) and in the format (biCompression).
        var replaced = 0
        for offset in 0..<(data.count - 4) where data[offset..<(offset + 4)].elementsEqual("FMP4".utf8) {
            data.replaceSubrange(offset..<(offset + 4), with: Array("QZX9".utf8))
            replaced += 1
        }
        XCTAssertGreaterThanOrEqual(replaced, 1)
        let path = scratch.appendingPathComponent("unknown-tag.avi").path
        try data.write(to: URL(fileURLWithPath: path))
        let error = try XCTUnwrap(try failure(of: path))
        XCTAssertEqual(error.kind, "decoderUnavailable")
        XCTAssertTrue(error.description.contains("codec tag 'QZX9'"), error.description)
        XCTAssertFalse(error.description.contains("for none"), error.description)
    }

    /// A size past what the player shows is said at open, with the size.
    func testAbsurdPictureSizeIsSaidAtOpen() throws {
        let path = try TestMedia.clip("wide-100000x2.nut", ["-f", "lavfi", "-i", "color=s=100000x2:r=10", "-frames:v", "1",
                                                            "-c:v", "rawvideo", "-pix_fmt", "yuv420p"])
        let error = try XCTUnwrap(try failure(of: path))
        XCTAssertEqual(error, .unsupportedVideoSize(source: path, width: 100_000, height: 2))
        XCTAssertEqual(error.description, "\(path): the video size 100000x2 is over the picture size limit (PictureSizeLimit)")
    }

    /// Over 36 Mpixel (a 16000x16000 header, as a corrupt AVI had) is refused, whatever the sides;
    /// `PictureSizeLimit` moves the limit, down (a 320x180 clip refused at 50 000 pixels) or up.
    func testPicturesOverTheLimitAreRefused() throws {
        XCTAssertFalse(VideoSizeLimit.standard.allows(width: 16_000, height: 16_000))
        XCTAssertFalse(VideoSizeLimit.standard.allows(width: 8200, height: 4400), "36 Mpixel")
        XCTAssertTrue(VideoSizeLimit.standard.allows(width: 7680, height: 4320), "8K")
        XCTAssertTrue(VideoSizeLimit.standard.allows(width: 11_520, height: 2160), "a 6x1 wall of 1080p panels")
        XCTAssertTrue(VideoSizeLimit.largest.allows(width: 16_000, height: 16_000))
        let clip = try TestMedia.loopClip()
        var configuration = EngineConfiguration(output: .offscreen, untimed: true, stop: StopCondition(frames: 1))
        configuration.pictureSizeLimit = VideoSizeLimit(maxSide: 4096, maxPixels: 50_000)
        let engine = try PlaybackEngine(configuration: configuration)
        try engine.load(clip)
        XCTAssertEqual(engine.run(), .failed(.unsupportedVideoSize(source: clip, width: 320, height: 180)))
        engine.close()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); PictureSizeLimit(maxSide: 4096, maxPixels: 50_000) } }
        XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(frames: 1)),
                       .failed(.unsupportedVideoSize(source: clip, width: 320, height: 180)))
    }

    func testNameWithControlCharactersIsEscapedInEveryError() throws {
        let name = scratch.appendingPathComponent("a\nb\u{1B}[2J\u{9B}c\u{202E}.mp4").path
        let error = try XCTUnwrap(try failure(of: name))
        let escaped = scratch.path + "/a\\nb\\x1b[2J\\x9bc\\u{202e}.mp4"
        XCTAssertEqual(error.description, "\(escaped): source not found")
        XCTAssertEqual(PlayerError.unreadableMedia(source: "x\r\ty", cause: FFmpegError(code: -1, message: "bad\nthing")).description,
                       "x\\r\\ty: cannot read the media: bad\\nthing")
        XCTAssertEqual(PrintableText.escaping("plain: é ü 日本 \\ ok"), "plain: é ü 日本 \\ ok")
        XCTAssertEqual(PrintableText.escaping(PrintableText.escaping("\u{0}\u{1F}\u{7F}\u{9F}\u{2028}")),
                       "\\x00\\x1f\\x7f\\x9f\\u{2028}", "escaping twice changes nothing")
    }

    /// The CLI has the bytes of a name that is not UTF-8 and shows them; the library, which gets a
    /// String, says what U+FFFD means.
    func testFileNameThatIsNotUTF8() throws {
        var bytes = Array(scratch.path.utf8) + Array("/clip-".utf8) + [0xFF, 0xFE] + Array(".mp4".utf8)
        bytes.append(0)
        let descriptor = bytes.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self),
                                                              O_CREAT | O_WRONLY, 0o644) }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let clip = try Data(contentsOf: URL(fileURLWithPath: TestMedia.loopClip()))
        _ = clip.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        let result = try TestMedia.run("sh", ["-c", "exec \"$0\" --headless --untimed \"$(printf '%s/clip-\\377\\376.mp4' \"$1\")\"",
                                              LoopplayTool.path, scratch.path])
        XCTAssertEqual(result.status, 65, result.output)
        XCTAssertEqual(result.output.split(separator: "\n").count, 1, result.output)
        XCTAssertTrue(result.output.contains("clip-\\xff\\xfe.mp4: cannot open the source: the file name is not valid UTF-8"),
                      result.output)

        let repaired = scratch.path + "/clip-\u{FFFD}\u{FFFD}.mp4"
        let error = try XCTUnwrap(try failure(of: repaired))
        XCTAssertEqual(error.kind, "sourceNotFound")
        XCTAssertTrue(error.description.contains("U+FFFD in place of bytes that were not valid UTF-8"), error.description)
    }

    /// A directory on the path that cannot be searched, and a file that cannot be read. Root reads
    /// everything, so as root loopplay runs as nobody.
    func testPermissionDenied() throws {
        let locked = scratch.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let hidden = locked.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: try TestMedia.loopClip(), toPath: hidden)
        let unreadable = scratch.appendingPathComponent("unreadable.mp4").path
        try FileManager.default.copyItem(atPath: try TestMedia.loopClip(), toPath: unreadable)
        chmod(locked.path, 0o000)
        chmod(unreadable, 0o000)
        defer { chmod(locked.path, 0o755) }

        for (path, reason) in [(hidden, "permission denied: a directory on its path cannot be searched"),
                               (unreadable, "permission denied: the file cannot be read")] {
            var command = [LoopplayTool.path, "--headless", "--untimed", path]
            if getuid() == 0 {
                try require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv (util-linux) is not installed")
                command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
            }
            let result = try TestMedia.run(command[0], Array(command.dropFirst()))
            XCTAssertEqual(result.status, 65, result.output)
            XCTAssertEqual(result.output, "loopplay: \(path): cannot open the source: \(reason)\n")
        }
    }
}
