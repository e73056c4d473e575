import Foundation
import XCTest

/// A private Xvfb server for window tests; it picks a free display itself (`-displayfd`).
/// Sendable by audit: every stored property is immutable after `init`, and the process is only
/// touched again by `deinit`; its methods run external tools and keep no state.
final class VirtualDisplay: @unchecked Sendable {
    let name: String
    private let process: Process

    /// Starts Xvfb, or skips the test when it is not installed.
    init(width: Int = 1280, height: Int = 720) throws {
        let binary = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else { throw requirementMissing("Xvfb is not installed") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = pipe.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw requirementMissing("Xvfb did not start: \(text)")
        }
        name = ":\(number)"
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// Geometry (x, y, width, height) of the viewable window titled `title`, once it is mapped.
    func window(titled title: String, timeout: Double = 10) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        let found = try pollFor(timeout: timeout) { () throws -> [Int]? in
            let info = try TestMedia.run("xwininfo", ["-display", name, "-name", title])
            guard info.status == 0, info.output.contains("IsViewable") else { return nil }
            func value(_ key: String) -> Int? {
                info.output.split(separator: "\n").first { $0.contains(key) }
                    .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
            }
            guard let x = value("Absolute upper-left X"), let y = value("Absolute upper-left Y"),
                  let w = value("Width"), let h = value("Height") else { return nil }
            return [x, y, w, h]
        }
        return found.map { ($0[0], $0[1], $0[2], $0[3]) }
    }

    /// The window titled `title` that `player` opens; if it does not appear, an error that says
    /// whether loopplay was still running or how it ended, and what it wrote on stderr.
    func window(titled title: String, shownBy player: Process, stderr: Pipe) throws -> (x: Int, y: Int, width: Int, height: Int) {
        if let window = try window(titled: title) { return window }
        let running = player.isRunning
        stop(player)
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        throw NoWindowError(description: "the window \"\(title)\" did not appear; loopplay "
                            + "\(running ? "was still running" : "had exited (\(player.terminationReason) \(player.terminationStatus))"), "
                            + "stderr: \(said.suffix(1500))")
    }

    /// Types `keys` (xdotool names: `space`, `q`, `shift+l`) into the window titled `title`, in
    /// order. It returns once they are sent, not once the player acted on them: a test waits for
    /// what a key does (an event, the picture, a file).
    func press(_ keys: [String], window title: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { throw requirementMissing("xdotool is not installed") }
        let found = try TestMedia.run("xdotool", ["search", "--name", "^\(title)$"], environment: ["DISPLAY": name])
        guard let id = found.output.split(separator: "\n").first.map(String.init), !id.isEmpty else {
            throw TestMediaError.ffmpegFailed("xdotool search", found.output)
        }
        // No window manager: give the window the keyboard focus directly, then type (XTEST).
        try TestMedia.run("xdotool", ["windowfocus", "--sync", id], environment: ["DISPLAY": name])
        for key in keys {
            try TestMedia.run("xdotool", ["key", key], environment: ["DISPLAY": name])
        }
    }

    /// The screen's pixels in a rectangle, as RGB triples (captured by ffmpeg's x11grab).
    func capture(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("grab-\(UUID().uuidString).rgb").path
        let result = try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "x11grab",
                                                  "-video_size", "\(width)x\(height)", "-i", "\(name)+\(x),\(y)",
                                                  "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", output])
        guard result.status == 0 else { throw TestMediaError.ffmpegFailed("x11grab", result.output) }
        defer { try? FileManager.default.removeItem(atPath: output) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}

/// One Xvfb for the windows a test opens in this very process (SDL's video subsystem starts once per
/// process, on the first display it is given). It is stopped when the test process exits.
enum SharedDisplay {
    private static let started: Result<String, Error> = {
        do {
            let display = try VirtualDisplay()
            setenv("DISPLAY", display.name, 1)
            keep = display
            atexit { SharedDisplay.keep = nil }
            return .success(display.name)
        } catch {
            return .failure(error)
        }
    }()

    nonisolated(unsafe) private static var keep: VirtualDisplay?

    /// The display, started on first use; its window tools (capture, keys) go through `display`.
    static var display: VirtualDisplay {
        get throws {
            _ = try started.get()
            guard let keep else { throw requirementMissing("the shared display is gone") }
            return keep
        }
    }
}

/// An EWMH window manager (openbox) on a display while it lives: what keeps a window above the
/// others (the picture-in-picture window). Without one, a bare Xvfb honours no such request.
final class WindowManager {
    private let process: Process
    private let display: String

    /// Starts openbox on `display` and waits until it announces itself, or skips the test when it
    /// is not installed (`scripts/install-deps.sh` installs it).
    init(display: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openbox") else {
            throw requirementMissing("openbox is not installed")
        }
        self.display = display
        // One that ran before leaves its announcement naming a window that is gone: forget it, so
        // only this one's counts.
        _ = try? TestMedia.run("xprop", ["-display", display, "-root", "-remove", "_NET_SUPPORTING_WM_CHECK"])
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("openbox-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        // Again (three times in all) if it quits at once; otherwise what it said goes into the error.
        var attempt = 0
        var said = ""
        let started = try pollFor(timeout: 60) { () throws -> Process? in
            attempt += 1
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openbox")
            process.arguments = ["--sm-disable"]
            process.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            // A failure bound, not a speed one: beside two busy loops and the suite, openbox has taken
            // over 10 s to announce itself.
            if waitFor(timeout: 60, { Self.isAnnounced(on: display) || !process.isRunning }), process.isRunning,
               Self.answers(on: display) {
                return process
            }
            let quitByItself = !process.isRunning
            stop(process)
            said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard attempt < 3, quitByItself else {
                throw WindowManagerError.didNotStart(display: display, said: said)
            }
            return nil
        }
        guard let started else { throw WindowManagerError.didNotStart(display: display, said: said) }
        process = started
    }

    deinit { stop(process) }

    /// Its event loop runs: a pager's request for two desktops, then one, is carried out (the
    /// announcement comes before the loop: on a loaded machine a window mapped in between waited
    /// for a MapNotify that never came, and SDL with it).
    private static func answers(on display: String) -> Bool {
        func desktops() -> String? {
            (try? TestMedia.run("xprop", ["-display", display, "-root", "_NET_NUMBER_OF_DESKTOPS"]))?.output
                .split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        let environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }
        for count in ["2", "1"] {
            _ = try? TestMedia.run("xdotool", ["set_num_desktops", count], environment: environment)
            guard waitFor(timeout: 30, { desktops() == count }) else { return false }
        }
        return true
    }

    /// The root window names the window manager's check window, which names itself (EWMH).
    private static func isAnnounced(on display: String) -> Bool {
        func checkWindow(_ target: [String]) -> String? {
            let answer = try? TestMedia.run("xprop", ["-display", display] + target + ["_NET_SUPPORTING_WM_CHECK"])
            guard let output = answer?.output, let range = output.range(of: "window id # ") else { return nil }
            return output[range.upperBound...].split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
        guard let named = checkWindow(["-root"]) else { return false }
        return checkWindow(["-id", named]) == named
    }
}

enum WindowManagerError: Error {
    case didNotStart(display: String, said: String)
}

/// A window under test did not appear (see `VirtualDisplay.window(titled:shownBy:stderr:)`).
struct NoWindowError: Error, CustomStringConvertible {
    let description: String
}
