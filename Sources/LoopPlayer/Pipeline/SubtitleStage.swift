import CFFmpeg
import FFmpegSupport

/// The subtitle stage's thread: loads the external subtitle files, then decodes the demuxer's
/// subtitle packets (every subtitle stream is read, so a track switch shows at once) into cues in
/// the time of one pass, which it adds to the `SubtitleLibrary`. Rendering happens on the player's
/// thread, when a frame is shown.
final class SubtitleStage {
    /// The external files to load (paths and URLs), and how: the source's fetch options (its
    /// policy), and the pipeline's abort, which ends a fetch at once.
    struct ExternalFiles: Sendable {
        var sources: [String]
        var fetch: HTTPFetchOptions
        var abort: AbortFlag
    }

    private let input: BoundedQueue<StageMessage>
    private let library: SubtitleLibrary
    /// Stream index → its decoder and its track in the library.
    private let decoders: [Int32: (decoder: SubtitleDecoder, track: Int)]
    private let files: ExternalFiles
    /// Seconds of the source's start: cue times are made relative to it (the time inside a pass).
    private let origin: Double
    private let status: PipelineStatus
    private let wake: @Sendable () -> Void

    init(input: BoundedQueue<StageMessage>, library: SubtitleLibrary,
         decoders: [Int32: (decoder: SubtitleDecoder, track: Int)], files: ExternalFiles, origin: Double,
         status: PipelineStatus, wake: @escaping @Sendable () -> Void) {
        self.input = input
        self.library = library
        self.decoders = decoders
        self.files = files
        self.origin = origin
        self.status = status
        self.wake = wake
    }

    /// The thread's body.
    func run() {
        for source in files.sources where !files.abort.isRaised { load(source) }
        while let message = input.pop() {
            switch consume message {
            case let .packet(packet, _):
                guard let entry = decoders[packet.pointer.pointee.stream_index] else { continue }
                let cues = entry.decoder.decode(packet.pointer).map { cue in
                    var inPass = cue
                    inPass.start -= origin
                    inPass.end -= origin
                    return inPass
                }
                library.append(cues, toTrack: entry.track)
            case .seek:
                decoders.values.forEach { $0.decoder.flush() }
            case .passEnded:
                break
            case .endOfStream:
                break
            }
        }
    }

    private func load(_ source: String) {
        defer { library.fileSettled() }
        do {
            let limits = ExternalSubtitleFile.Limits.standard
            let contents = try ExternalSubtitleFile.read(source, fetch: files.fetch, abort: files.abort, limits: limits)
            let loaded = try ExternalSubtitleFile(source: source, contents: contents, limits: limits)
            library.add(loaded.track, header: loaded.header, cues: loaded.cues)
            wake()  // a choice waiting for this track can be made now
        } catch {
            if files.abort.isRaised { return }
            if case let .notAllowed(_, refusal) = error {
                status.post(.warning(.sourceNotAllowed(refusal)))
            } else {
                status.post(.warning(.invalidSubtitles(error)))
            }
        }
    }
}
