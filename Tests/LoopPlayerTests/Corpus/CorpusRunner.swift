import Foundation
import LoopPlayer

/// Runs the real `loopplay` on every corpus input, a few at a time, each bounded by a timeout, and
/// judges how it ended.
struct CorpusRunner {
    /// How one run ended, worst first. Everything but `played` and `failedCleanly` is a defect.
    enum Verdict: Equatable {
        /// Killed by a signal it did not get from us.
        case crashed(signal: Int32)
        /// Still running at the timeout: `spinning` when it used the CPU meanwhile, else blocked.
        case hung(spinning: Bool, cpuSeconds: Double, residentMB: Int)
        /// An exit status other than 0 and 65 (70: a failure that is not the media's; 66: a sanitizer report).
        case unexpectedStatus(Int32)
        /// Exit 0 with no picture shown (issue 16, item 1).
        case silentWithoutPicture
        /// Exit 0 before `--loops 3` or `--duration 10` was reached, and nothing said (item 14a).
        case silentShortOfTheLimits(loops: Int)
        /// Exit 65 without exactly one `loopplay: SOURCE: …` line (item 14a).
        case badFailureMessage(String)
        /// Exit 0 with stderr lines that are not loopplay's one-line format (raw FFmpeg/SDL output,
        /// unescaped control characters), or no statistics.
        case strayOutput(String)
        case failedCleanly
        case played

        var isDefect: Bool { self != .played && self != .failedCleanly }

        /// The class of defect, for the report.
        var category: String {
            switch self {
            case .crashed: "crash (killed by a signal)"
            case let .hung(spinning, _, _): spinning ? "spin (busy at the timeout)" : "hang (blocked at the timeout)"
            case let .unexpectedStatus(status): "exit status \(status)"
            case .silentWithoutPicture: "exit 0 with no picture (issue 16 item 1: should be noDecodableFrames, 65)"
            case .silentShortOfTheLimits: "silent exit 0 short of --loops 3 / --duration 10 (item 14a)"
            case .badFailureMessage: "exit 65 without exactly one line naming the source (item 14a)"
            case .strayOutput: "exit 0 with stray stderr output or no statistics"
            case .failedCleanly: "failed cleanly"
            case .played: "played"
            }
        }
    }

    struct Outcome {
        let input: CorruptCorpus.Input
        let source: String
        let verdict: Verdict
        let status: Int32
        let stderr: String
        let seconds: Double
    }

    /// The flags of every run: three passes or ten seconds of media time, as fast as it decodes.
    static let flags = ["--headless", "--untimed", "--loop", "--loops", "3", "--duration", "10", "--stats-json", "-"]

    let timeout: Double
    let jobs: Int

    /// Plays every input (`httpBase` serves the corpus root for HLS ones) and returns the outcomes in input order.
    func run(_ corpus: CorruptCorpus, httpBase: String) throws -> [Outcome] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var outcomes: [Int: Outcome] = [:]
        var running: [(index: Int, run: RunningTool)] = []
        var next = 0
        while next < corpus.inputs.count || !running.isEmpty {
            while running.count < jobs && next < corpus.inputs.count {
                let input = corpus.inputs[next]
                let source = input.isHLS ? "\(httpBase)/\(input.path)" : corpus.root.appendingPathComponent(input.path).path
                running.append((next, try RunningTool(LoopplayTool.path, Self.flags + [source], source: source,
                                                      output: scratch.appendingPathComponent("\(next)"))))
                next += 1
            }
            // Until one of them ends or runs out of time.
            _ = waitFor(timeout: timeout) { running.contains { $0.run.hasEnded || $0.run.elapsed >= timeout } }
            for (position, entry) in running.enumerated().reversed() {
                let ended = entry.run.hasEnded
                if !ended && entry.run.elapsed < timeout { continue }
                let hang = ended ? nil : entry.run.killAfterTimeout()
                outcomes[entry.index] = entry.run.outcome(input: corpus.inputs[entry.index], hang: hang)
                running.remove(at: position)
            }
        }
        return (0..<corpus.inputs.count).compactMap { outcomes[$0] }
    }
}

/// One loopplay process, its output going to files (a full pipe would block it and look like a hang).
final class RunningTool {
    private let process = Process()
    private let stdoutURL: URL
    private let stderrURL: URL
    private let started = Date()
    let source: String

    init(_ executable: String, _ arguments: [String], source: String, output: URL) throws {
        self.source = source
        stdoutURL = output.appendingPathExtension("out")
        stderrURL = output.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var hasEnded: Bool { !process.isRunning }
    var elapsed: Double { Date().timeIntervalSince(started) }

    /// Kills a process that outlived its timeout; returns what it was doing (CPU seconds, resident MB).
    func killAfterTimeout() -> (cpuSeconds: Double, residentMB: Int) {
        let pid = process.processIdentifier
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = fields.count > 12 ? (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0) : 0
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let resident = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        kill(pid, SIGKILL)
        process.waitUntilExit()
        return (ticks / Double(sysconf(Int32(_SC_CLK_TCK))), resident / 1024)
    }

    func outcome(input: CorruptCorpus.Input, hang: (cpuSeconds: Double, residentMB: Int)?) -> CorpusRunner.Outcome {
        process.waitUntilExit()
        let seconds = elapsed
        let stdout = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
        let stderr = String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self)
        let status = process.terminationStatus
        let verdict: CorpusRunner.Verdict
        if let hang {
            verdict = .hung(spinning: hang.cpuSeconds > 0.5 * seconds, cpuSeconds: hang.cpuSeconds, residentMB: hang.residentMB)
        } else if process.terminationReason == .uncaughtSignal {
            verdict = .crashed(signal: status)
        } else {
            verdict = Self.judge(status: status, stdout: stdout, stderr: stderr, source: source)
        }
        return CorpusRunner.Outcome(input: input, source: source, verdict: verdict, status: status, stderr: stderr, seconds: seconds)
    }

    static func judge(status: Int32, stdout: String, stderr: String, source: String) -> CorpusRunner.Verdict {
        let lines = stderr.isEmpty ? []
            : Array(stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast(stderr.hasSuffix("\n") ? 1 : 0))
        let raw = stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        switch status {
        case 0:
            guard let stats = LoopplayTool.json(stdout) else { return .strayOutput("no statistics on stdout") }
            if let line = lines.first(where: { !$0.hasPrefix("loopplay: ") }) { return .strayOutput(String(line.prefix(200))) }
            if raw { return .strayOutput("raw control characters") }
            let frames = stats["framesPresented"] as? Int ?? 0
            let loops = stats["loopsCompleted"] as? Int ?? 0
            if frames == 0 { return .silentWithoutPicture }
            // Ten seconds reach floor(10 / loop) wraps; an unmeasured loop means pass 0 outlasted them.
            let needed = (stats["loopDurationMs"] as? Double).map { $0 > 0 ? min(3, Int(10_000 / $0)) : 3 } ?? 0
            if loops < needed && lines.isEmpty { return .silentShortOfTheLimits(loops: loops) }
            return .played
        case 65:
            let prefix = "loopplay: \(PrintableText.escaping(source)): "
            guard lines.count == 1, let line = lines.first else { return .badFailureMessage("\(lines.count) lines: \(stderr.prefix(300))") }
            guard line.hasPrefix(prefix), !raw else { return .badFailureMessage(String(line.prefix(300))) }
            return .failedCleanly
        default:
            return .unexpectedStatus(status)
        }
    }
}
