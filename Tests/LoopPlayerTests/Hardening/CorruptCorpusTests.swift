import Foundation
import LoopPlayer
import XCTest

/// A few hundred corrupt inputs, generated from a seed at test time, each played by the real
/// `loopplay`: no crash, no hang, exit 0 (having shown pictures and reached its limits) or 65 with
/// one line naming the source.
///
/// A bigger run from the command line (seed, size, timeout in seconds, parallel runs; the corpus
/// kept in a folder):
///
///     LOOPPLAYER_CORPUS_SEED=7 LOOPPLAYER_CORPUS_SIZE=3000 LOOPPLAYER_CORPUS_KEEP=/tmp/corpus \
///       swift test --skip-build --disable-swift-testing --filter CorruptCorpusTests/testEveryCorruptInput
///
/// Failing inputs are copied to /tmp/loopplay-corpus-failures-SEED with a command to replay each.
final class CorruptCorpusTests: XCTestCase {
    private var environment: [String: String] { ProcessInfo.processInfo.environment }
    private var seed: UInt64 { environment["LOOPPLAYER_CORPUS_SEED"].flatMap { UInt64($0) } ?? 16 }
    /// Under a sanitizer each run is several times slower: a third of the corpus by default.
    private var size: Int {
        environment["LOOPPLAYER_CORPUS_SIZE"].flatMap { Int($0) } ?? (Sanitizer.isActive ? 120 : CorruptCorpus.defaultSize)
    }
    /// A hang guard, not a speed limit: an input that plays properly ends long before it (the
    /// longest take 2–5 s), and a loaded machine starved one of them past 6 s (1.8 CPU-s in 6 s).
    private var timeout: Double { environment["LOOPPLAYER_CORPUS_TIMEOUT"].flatMap { Double($0) } ?? (Sanitizer.isActive ? 60 : 30) }
    private var jobs: Int { environment["LOOPPLAYER_CORPUS_JOBS"].flatMap { Int($0) } ?? 2 }

    /// The same seed makes the same bytes; another seed, other bytes.
    func testCorpusIsTheSameForTheSameSeed() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-determinism-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var families: Set<String> = []
        func digest(_ seed: UInt64, _ folder: String) throws -> [String: UInt32] {
            let corpus = try CorruptCorpus.make(seed: seed, size: 80, in: scratch.appendingPathComponent(folder))
            families.formUnion(corpus.inputs.map(\.family))
            var sums: [String: UInt32] = [:]
            let enumerator = FileManager.default.enumerator(at: corpus.root, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard let data = try? Data(contentsOf: url) else { continue }
                sums[String(url.path.dropFirst(corpus.root.path.count))] = CRC32.checksum(data)
            }
            return sums
        }
        let first = try digest(5, "a"), again = try digest(5, "b"), other = try digest(6, "c")
        XCTAssertEqual(first.count, again.count)
        XCTAssertEqual(first, again)
        XCTAssertNotEqual(first, other)
        XCTAssertGreaterThan(families.count, 40, "240 inputs cover many kinds of damage: \(families.sorted())")
    }

    func testEveryCorruptInputEndsCleanly() throws {
        let keep = environment["LOOPPLAYER_CORPUS_KEEP"].map { URL(fileURLWithPath: $0) }
        let root = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: root) } }
        let made = Date()
        let corpus = try CorruptCorpus.make(seed: seed, size: size, in: root)
        let generation = Date().timeIntervalSince(made)
        XCTAssertLessThan(corpus.totalBytes, 50 << 20 * max(1, size / CorruptCorpus.defaultSize), "the corpus stays small")
        let server = try LoopbackHTTPServer(root: root)
        let started = Date()
        let outcomes = try CorpusRunner(timeout: timeout, jobs: jobs).run(corpus, httpBase: server.baseURL)
        XCTAssertEqual(outcomes.count, corpus.inputs.count)

        let defects = outcomes.filter { $0.verdict.isDefect }
        let played = outcomes.filter { $0.verdict == .played }.count
        print("corpus seed \(seed): \(outcomes.count) inputs (\(corpus.totalBytes >> 10) KiB, made in "
              + String(format: "%.1f s", generation) + "), played \(played), failed cleanly "
              + "\(outcomes.count - played - defects.count), defects \(defects.count); "
              + String(format: "%.0f s", Date().timeIntervalSince(started)) + " with \(jobs) at a time")
        guard !defects.isEmpty else { return }
        let failures = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("loopplay-corpus-failures-\(seed)")
        try? FileManager.default.removeItem(at: failures)
        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        // One failure per class of defect: the first inputs with a command that replays each, then the others' names.
        for (category, group) in Dictionary(grouping: defects, by: { $0.verdict.category }).sorted(by: { $0.key < $1.key }) {
            let families = Dictionary(grouping: group, by: \.input.family).map { "\($0.key) ×\($0.value.count)" }.sorted()
            var report = "\(group.count) × \(category)\n  damage: \(families.joined(separator: ", "))\n"
            for (position, outcome) in group.enumerated() {
                let kept = try copyForReplay(outcome.input, from: corpus.root, to: failures)  // every one, for replays
                if position < 12 {
                    report += "  \(outcome.input.name): \(describe(outcome))\n    \(replay(outcome, kept: kept, failures: failures))\n"
                }
            }
            if group.count > 12 { report += "  and: " + group.dropFirst(12).map(\.input.name).joined(separator: ", ") + "\n" }
            XCTFail(report)
        }
    }

    /// Found by the corpus (a WebM whose video track entry lost its size), but a valid file does it:
    /// audio-only Opus starts before zero (its pre-skip), and the black picture's slot arithmetic
    /// overflowed while the loop length was still unknown (a trap, in some runs out of ten).
    func testAudioOnlyOpusStartingBeforeZeroLoops() throws {
        let clip = try TestMedia.clip("opus-audio-only.webm", ["-f", "lavfi", "-i", "sine=f=440:d=1", "-c:a", "libopus"])
        for run in 0..<20 {
            let result = try LoopplayTool.run([clip, "--headless", "--untimed", "--loop", "--loops", "3", "--stats-json", "-"],
                                              timeout: timeout)
            XCTAssertEqual(result.status, 0, "run \(run): exit status or killing signal (4: a Swift trap) \(result.stderr.prefix(600))")
            guard result.status == 0 else { break }
            XCTAssertEqual(LoopplayTool.json(result.stdout)?["loopsCompleted"] as? Int, 3)
        }
    }

    private func describe(_ outcome: CorpusRunner.Outcome) -> String {
        let firstLine = outcome.stderr.split(separator: "\n").first.map { " — " + $0.prefix(160) } ?? ""
        switch outcome.verdict {
        case let .crashed(signal): return "signal \(signal)" + firstLine
        case let .hung(_, cpu, resident): return String(format: "%.1f CPU s in %.0f s, %d MB resident", cpu, outcome.seconds, resident)
        case let .unexpectedStatus(status): return "exit \(status)" + firstLine
        case let .silentShortOfTheLimits(loops): return "\(loops) loops"
        case let .badFailureMessage(text), let .strayOutput(text): return text
        default: return "exit \(outcome.status)" + firstLine
        }
    }

    /// Copies the input (its folder for HLS) next to the other failures.
    private func copyForReplay(_ input: CorruptCorpus.Input, from root: URL, to failures: URL) throws -> String {
        let top = input.isHLS ? input.name : input.path
        let target = failures.appendingPathComponent(top)
        if !FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.copyItem(at: root.appendingPathComponent(top), to: target)
        }
        return failures.appendingPathComponent(input.path).path
    }

    private func replay(_ outcome: CorpusRunner.Outcome, kept: String, failures: URL) -> String {
        let flags = CorpusRunner.flags.joined(separator: " ")
        guard outcome.input.isHLS else { return "loopplay \(flags) '\(kept)'" }
        return "(cd '\(failures.path)' && python3 -m http.server 8716 --bind 127.0.0.1 >/dev/null 2>&1 & sleep 1; "
            + "loopplay \(flags) http://127.0.0.1:8716/\(outcome.input.path); kill %1)"
    }
}
