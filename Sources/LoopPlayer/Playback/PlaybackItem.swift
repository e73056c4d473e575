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
    /// The loop's length last announced with a `duration` event.
    var reportedDuration: Double?
    /// The sound device's underruns already reported (it counts those of earlier sources too).
    var reportedUnderruns = 0
    /// Unmuted, but the sound is not yet moved to the picture (`realignSoundIfPending`).
    var realignPending = false
    /// A seek asked for before the presenter existed.
    var pendingSeekGeneration: Int?
    /// The picture's rectangle last reported with `boundsChanged`.
    var reportedBounds: Rect?
    /// Looping stopped: said when playback reaches the end, dropped if the source fails first.
    var loopingStopped: PlayerError?
    /// The HLS variant of the picture on screen (for `variantChanged`).
    var shownVariant: StreamVariant?
    /// Its local file was replaced: the new content waits to be queued, then follows this item.
    var replacement: FileReplacement?
    /// It is the new content of the item before it (its file was replaced), not a playlist's next.
    var isReplacement = false
    /// Its pipeline ended on a failure while a replacement was pending: the replacement takes over
    /// at once instead of at the end.
    var failedBeforeReplacement = false

    init(location: MediaLocation, pipeline: MediaPipeline, subtitles: SubtitleOverlay, loadStartedAt: Double) {
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

    /// The source's name for window titles and messages: its last path component.
    var displayName: String {
        let url = location.description
        return url.split(separator: "/").last.map(String.init) ?? url
    }
}
