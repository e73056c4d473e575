/// One source being played: its pipeline and, once it opened, its stream and presenter.
final class PlaybackItem {
    let location: MediaLocation
    let pipeline: MediaPipeline
    /// The subtitles over its picture.
    let subtitles: SubtitleOverlay
    /// When loading started (real time), for `firstFrameMs`.
    let loadStartedAt: Double
    private(set) var info: VideoStreamInfo?
    private(set) var presenter: Presenter?
    private var firstFrameMs: Double?
    /// What was said of it (its length, underruns, bounds, variant), each change once.
    var announcements: ItemAnnouncements
    /// Unmuted, but the sound is not yet moved to the picture (`realignSoundIfPending`).
    var realignPending = false
    /// A seek asked for before the presenter existed.
    private(set) var pendingSeekGeneration: Int?
    /// Looping stopped: said when playback reaches the end, dropped if the source fails first.
    private var loopingStopped: PlayerError?
    /// The audio track last chosen (`.some(nil)`: none), before the demuxer has switched to it: what
    /// the status says at once, so that a second `cycle aid` goes on from it.
    var chosenAudioTrack: AudioTrack??

    init(location: MediaLocation, pipeline: MediaPipeline, subtitles: SubtitleOverlay, loadStartedAt: Double,
         underrunsBefore: Int) {
        announcements = ItemAnnouncements(underrunsBefore: underrunsBefore)
        self.location = location
        self.pipeline = pipeline
        self.subtitles = subtitles
        self.loadStartedAt = loadStartedAt
    }

    /// The stream is open: `presenter` shows it from here on, in `output` at its size and with its
    /// title. `subtitlesNow`: the subtitle files are loaded before the first frame too (a track
    /// chosen later waits for its renderer in `SubtitleOverlay` itself).
    func opened(_ info: VideoStreamInfo, presenter: Presenter, in output: PlayerOutput, subtitlesNow: Bool) {
        self.info = info
        self.presenter = presenter
        output.prepare(for: info, title: displayName)
        if subtitlesNow { subtitles.prepareNow(timeout: 10) }
    }

    /// Its first frame was shown now: the delay since loading started, in ms (once).
    func firstFrameShown(now: Double) -> Double? {
        guard firstFrameMs == nil else { return nil }
        firstFrameMs = (now - loadStartedAt) * 1000
        return firstFrameMs
    }

    /// Its end is final (`error` says why): no next pass will come.
    func stopLooping(_ error: PlayerError) {
        loopingStopped = error
        presenter?.setLooping(false)
    }

    /// Why looping stopped, said once playback reaches the end.
    func takeLoopingStopped() -> PlayerError? {
        defer { loopingStopped = nil }
        return loopingStopped
    }

    /// A seek made `generation`: the presenter shows its frames from now on (or takes it when made).
    func restart(generation: Int) {
        if let presenter {
            presenter.restart(generation: generation)
        } else {
            pendingSeekGeneration = generation
        }
    }

    /// Length of one pass: measured once the first pass was read, announced by the container before.
    var duration: Double? { pipeline.status.loopDuration ?? info?.announcedDuration }

    /// Where the picture is (`PlaybackPosition`).
    var position: PlaybackPosition { PlaybackPosition(presenter: presenter, measuredLength: pipeline.status.loopDuration) }

    /// Seeks to `target` in `pass` (nil: the picture's): the frames restart there, the sound with them.
    func seek(to target: Double, inPass pass: Int?) {
        restart(generation: pipeline.seek(to: target, inPass: pass ?? position.spot?.pass ?? 0))
        realignPending = false
    }

    /// The track being played, if any: the one last chosen before the demuxer has switched to it.
    var audioTrack: AudioTrack? { chosenAudioTrack ?? pipeline.status.audioTrack }

    /// Plays `track` (nil: none) from the current position, as mpv refreshes a track: the demuxer
    /// reads again from the picture on screen for the sound alone, and the picture plays on
    /// untouched (a seek made it hold while it decoded again from a keyframe, and come back up to
    /// 0.2 s behind). The new sound is moved to the picture once it is heard; until then the
    /// picture keeps its own clock. True when nothing of the position was shown yet: a seek it was.
    func playSound(_ track: AudioTrack?) -> Bool {
        chosenAudioTrack = .some(track)
        let spot = position.spot
        if presenter?.showsCurrentGeneration == true, let spot {
            pipeline.refreshSound(at: spot.position, inPass: spot.pass, audioTrack: track)
            realignPending = true
            return false
        }
        restart(generation: pipeline.seek(to: spot?.position ?? 0, inPass: spot?.pass ?? 0, audioTrack: .some(track)))
        return true
    }

    /// The source's name for window titles and messages: its last path component.
    var displayName: String {
        let url = location.description
        return url.split(separator: "/").last.map(String.init) ?? url
    }
}
