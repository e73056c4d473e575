import Foundation

/// The valid clips the corpus damages: small (128x72, 15 fps, 1 s; a few KB to 30 KB), one per
/// container and codec family, made by the ffmpeg tool with bit-exact, single-threaded settings so
/// that one ffmpeg version makes the same bytes every time.
enum CorpusBase: String, CaseIterable, Sendable {
    case mp4, mkv, webm, avi, ts, png, m4a, mp3, hls

    private static let video = ["-f", "lavfi", "-i", "testsrc2=s=128x72:r=15:d=1"]
    private static let sound = ["-f", "lavfi", "-i", "sine=f=440:r=22050:d=1"]
    private static let exact = ["-fflags", "+bitexact", "-flags", "+bitexact", "-map_metadata", "-1", "-threads", "1"]
    private static let h264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "15", "-bf", "2", "-pix_fmt", "yuv420p"]

    var fileExtension: String { self == .hls ? "m3u8" : rawValue }

    /// The clip's bytes (for HLS, see `hlsBase`).
    func bytes() throws -> [UInt8] {
        let arguments: [String] = switch self {
        case .mp4: Self.video + Self.sound + Self.h264 + ["-c:a", "aac", "-b:a", "24k", "-ac", "1"]
        case .mkv: Self.video + Self.sound + Self.h264 + ["-c:a", "libopus", "-b:a", "16k", "-ac", "1"]
        case .webm: Self.video + Self.sound + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "15",
                                               "-b:v", "100k", "-pix_fmt", "yuv420p", "-c:a", "libopus", "-b:a", "16k", "-ac", "1"]
        case .avi: Self.video + Self.sound + ["-c:v", "mpeg4", "-vtag", "FMP4", "-q:v", "8", "-g", "15", "-pix_fmt", "yuv420p",
                                              "-c:a", "libmp3lame", "-b:a", "32k", "-ac", "1"]
        case .ts: Self.video + Self.sound + Self.h264 + ["-c:a", "aac", "-b:a", "24k", "-ac", "1"]
        case .png: ["-f", "lavfi", "-i", "testsrc2=s=128x72", "-frames:v", "1"]
        case .m4a: Self.sound + ["-c:a", "aac", "-b:a", "24k"]
        case .mp3: Self.sound + ["-c:a", "libmp3lame", "-b:a", "32k"]
        case .hls: []
        }
        let path = try TestMedia.clip("corpus-base.\(rawValue)", arguments + Self.exact)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Two seconds in two one-second MPEG-TS segments.
    static func hlsBase() throws -> HLSBase {
        let directory = TestMedia.directory.appendingPathComponent("corpus-base-hls")
        let playlist = directory.appendingPathComponent("index.m3u8")
        if !FileManager.default.fileExists(atPath: playlist.path) {
            let partial = TestMedia.directory.appendingPathComponent("corpus-base-hls.part-\(getpid())")
            try? FileManager.default.removeItem(at: partial)
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            let made = try TestMedia.run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                                    "testsrc2=s=128x72:r=15:d=2"] + h264 + exact
                                                    + ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                                                       "-hls_segment_filename", partial.appendingPathComponent("seg%03d.ts").path,
                                                       partial.appendingPathComponent("index.m3u8").path])
            guard made.status == 0 else { throw TestMediaError.ffmpegFailed("corpus HLS", made.output) }
            try? FileManager.default.moveItem(at: partial, to: directory)
        }
        var segments: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".ts") {
            segments[name] = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        return HLSBase(playlist: try String(contentsOf: playlist, encoding: .utf8), segments: segments)
    }
}

/// A few hundred corrupt inputs made from `CorpusBase` clips, the same bytes for the same seed:
/// format-blind damage (bit flips, truncation at many offsets, zeroed, scribbled, repeated and
/// removed ranges) and damage aimed at each format's structures (see the *Mutations types).
struct CorruptCorpus {
    struct Input: Sendable {
        /// File (or, for HLS, folder) name: index, base, mutation, details.
        let name: String
        /// What kind of damage: `mp4/stco`, `ts/bitflip`…
        let family: String
        /// The file to play, relative to the corpus root (HLS: served over HTTP from the root).
        let path: String
        var isHLS: Bool { family.hasPrefix("hls/") }
    }

    let seed: UInt64
    let root: URL
    let inputs: [Input]

    private enum Slot {
        case file(CorpusBase, Mutation)
        case hls(HLSMutation)
    }

    /// Every base with every mutation that fits it, each repeated so that the plan holds about 350
    /// inputs: the default size of a corpus.
    private static var plan: [Slot] {
        let generic = [ByteMutations.bitFlips, ByteMutations.bitFlips, ByteMutations.bitFlips, ByteMutations.zeroedRange,
                       ByteMutations.zeroedRange, ByteMutations.randomRange, ByteMutations.randomRange,
                       ByteMutations.duplicatedRange, ByteMutations.removedRange]
            + (1...7).map { ByteMutations.truncation(at: Double($0) / 8) }
        var slots: [Slot] = []
        for base in CorpusBase.allCases where base != .hls {
            slots += generic.map { .file(base, $0) }
        }
        func add(_ base: CorpusBase, _ mutations: [Mutation], times: Int) {
            for _ in 0..<times { slots += mutations.map { .file(base, $0) } }
        }
        add(.mp4, MP4Mutations.video, times: 3)
        add(.m4a, MP4Mutations.audio, times: 2)
        add(.mkv, EBMLMutations.all, times: 4)
        add(.webm, EBMLMutations.all, times: 4)
        add(.avi, RIFFMutations.all, times: 3)
        add(.ts, TSMutations.all, times: 3)
        add(.png, PNGMutations.all, times: 3)
        add(.mp3, MP3Mutations.all, times: 3)
        for _ in 0..<2 { slots += HLSMutation.all.map { .hls($0) } }
        return slots
    }

    static var defaultSize: Int { plan.count }

    /// Writes `size` inputs for `seed` under `root` (made empty first).
    static func make(seed: UInt64, size: Int = defaultSize, in root: URL) throws -> CorruptCorpus {
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var order = SeededGenerator(seed: seed)
        let slots = plan.shuffled(using: &order)
        var bases: [CorpusBase: [UInt8]] = [:]
        for base in CorpusBase.allCases where base != .hls { bases[base] = try base.bytes() }
        let hls = try CorpusBase.hlsBase()
        var inputs: [Input] = []
        for index in 0..<size {
            var random = SeededGenerator.forInput(index, seed: seed)
            switch slots[index % slots.count] {
            case let .file(base, mutation):
                var bytes = bases[base] ?? []
                var applied = mutation
                var detail = mutation.apply(&bytes, &random)
                if detail == nil {  // nothing for it to damage in this clip: flip bits instead
                    applied = ByteMutations.bitFlips
                    detail = applied.apply(&bytes, &random)
                }
                let name = Self.name(index, base.rawValue, applied.name, detail ?? "") + "." + base.fileExtension
                try Data(bytes).write(to: root.appendingPathComponent(name))
                inputs.append(Input(name: name, family: "\(base.rawValue)/\(applied.name)", path: name))
            case let .hls(mutation):
                let (detail, files) = mutation.make(hls, &random)
                let name = Self.name(index, "hls", mutation.name, detail)
                let folder = root.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (file, bytes) in files { try Data(bytes).write(to: folder.appendingPathComponent(file)) }
                inputs.append(Input(name: name, family: "hls/\(mutation.name)", path: "\(name)/\(HLSMutation.entry)"))
            }
        }
        return CorruptCorpus(seed: seed, root: root, inputs: inputs)
    }

    private static func name(_ index: Int, _ base: String, _ mutation: String, _ detail: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-+.")
        let cleanDetail = String(detail.map { allowed.contains($0) ? $0 : "_" }.prefix(40))
        return String(format: "%04d-", index) + "\(base)-\(mutation)" + (cleanDetail.isEmpty ? "" : "-\(cleanDetail)")
    }

    /// Bytes on disk.
    var totalBytes: Int {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey])
        var total = 0
        while let url = enumerator?.nextObject() as? URL {
            total += (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total
    }
}
