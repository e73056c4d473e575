/// What a running player is doing, as one value: what a remote control shows and what mpv's
/// properties (`pause`, `time-pos`, `volume`, `playlist-pos`…) report. Read it with
/// `ExtVideoPlayer.status`; `onStatusChange` hears every change as it happens.
public struct PlayerStatus: Sendable, Equatable {
    /// idle → loading → ready → playing / paused / buffering → ended, or failed.
    public var state: PlayerState = .idle
    /// The position inside the current pass of the picture on screen, in seconds (it changes once a
    /// frame; `ExtVideoPlayer.currentTime` runs on between frames).
    public var position = 0.0
    /// The length of one pass, in seconds, once the source has opened (nil for a live stream).
    public var duration: Double?
    /// The source playing: a path, a URL, or a bundled name as it was resolved (nil before one is given).
    public var source: String?
    /// The playlist's current item, from 0 (nil without a `Playlist`).
    public var playlistIndex: Int?
    /// Items in the playlist (1 for a single source, 0 for none).
    public var playlistCount = 0
    /// The current source restarts at its end.
    public var looping = false
    /// The playlist starts again after its last item (`LoopPlaylist`).
    public var loopingPlaylist = false
    /// With `looping` after `loopTimes`: the passes still to play after the current one (nil: forever).
    package var loopsLeft: Int?
    /// The pass through the playlist playing, from 1.
    package var playlistPass = 1
    /// With `loopingPlaylist`: the passes through the list in all (`LoopPlaylist(passes:)`; nil: forever).
    package var playlistPasses: Int?
    /// The playlist's items (empty for a single source).
    package var playlistItems: [String] = []
    /// The picture's size as decoded, once the source has opened.
    package var videoSize: PixelSize?
    /// Playback is held by a `pause` command or key (also while it waits to start: `NotAutoPlay`).
    public var paused = false
    /// The sound is silenced (the volume is kept).
    public var muted = false
    /// Linear gain, 0…1.
    public var volume: Float = 1
    /// 1 is normal speed.
    public var speed = 1.0
    /// −1 … 1; 0 leaves the picture alone.
    public var brightness: Float = 0
    /// 0 … 4; 1 leaves the picture alone.
    public var contrast: Float = 1
    /// The audio track heard, from 0 among the source's audio tracks (nil: none).
    public var audioTrack: Int?
    /// The source's audio tracks.
    public var audioTrackCount = 0
    /// The subtitle track shown, from 0 among the source's subtitle streams and then the files (nil: none).
    public var subtitleTrack: Int?
    /// Subtitle tracks, embedded and external.
    public var subtitleTrackCount = 0
    /// The audio and subtitle tracks' labels, for the OSD (set for it alone, not in the published status).
    package var audioTrackLabel: String?
    package var subtitleTrackLabel: String?
    /// Subtitles are drawn (mpv's `sub-visibility`; the `v` key hides them, keeping the choice).
    package var subtitlesVisible = true
    /// Clockwise quarter turns of the picture on screen, in degrees (`VideoRotation`).
    package var videoRotation = 0
    /// A seek was made and its first picture is not shown yet.
    public var seeking = false
    /// On a shared timeline (`SyncTimeline`) whose epoch is still to come: the player is up, its
    /// first picture waits for the epoch.
    public var waitingForEpoch = false
    /// On a shared timeline (`SyncTimeline`): commands that would take this screen off it (pause,
    /// seek, speed, looping off, another playlist item) are refused.
    public var followsSharedTimeline = false
    /// On a schedule: the entry playing and the next change.
    package var schedule: ScheduleStatus?
    /// The picture alerts holding (`PictureAlerts`), and how often each began since the start.
    package var displayAlerts: [DisplayAlert] = []
    package var displayAlertsRaised: [DisplayAlert: Int] = [:]
    /// How many of the commands given to `send(_:)` the player has carried out: a command sent
    /// when this was *n* has taken effect once it passes *n*.
    public var commandsApplied = 0

    /// A status before any run.
    package init() {}
}
