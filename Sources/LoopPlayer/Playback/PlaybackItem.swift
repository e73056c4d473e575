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
    var firstFrameMs: Double?
    /// What was said of it (its length, underruns, bounds, variant), each change once.
    var announcements: ItemAnnouncements
    /// Unmuted, but the sound is not yet moved to the picture (`realignSoundIfPending`).
    var realignPending = false
    /// A seek asked for before the presenter existed.
    private(set) var pendingSeekGeneration: Int?
    /// Looping stopped: said when playback reaches the end, dropped if the source fails first.
    var loopingStopped: PlayerError?
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

    /// The stream is open: the presenter exists from here on.
    func opened(_ info: VideoStreamInfo, presenter: Presenter) {
        self.info = info
        self.presenter = presenter
    }

    /// A seek made `generation`: the presenter shows its frames from now on (or takes it when made).
    func restart(generation: Int) {
        if let presenter {
            presenter.restart(generation: generation)
        } else {
            pendingSeekGeneration = generation
        }
    }

    /// The source's name for window titles and messages: its last path component.
    var displayName: String {
        let url = location.description
        return url.split(separator: "/").last.map(String.init) ?? url
    }
}
