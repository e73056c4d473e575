import Filters
import Foundation
import Overlay

/// A command for a running player. Send from any thread with `ExtVideoPlayer.send(_:)`: every
/// command is applied, in order (two identical commands are both applied), and commands sent
/// before the media is ready wait until it is.
public enum PlaybackCommand: Sendable {
    /// Starts or resumes playback (a `NotAutoPlay` player waits for this).
    case play
    /// Holds the current frame until `play`.
    case pause
    /// Pauses a playing player and plays a paused one (decided when applied, so two in a row cancel).
    case togglePause
    /// Seeks inside the current pass: negative goes to the start, past the end to the last frame.
    /// Emits `.seek(success, currentTime:)`. Plays afterwards if `play`, pauses if `false`, and
    /// keeps playing or paused if nil.
    case seek(to: Double, play: Bool? = true)
    /// Seeks by `seconds` from the position when it is applied, keeping playing or paused.
    case seekBy(Double)
    /// Seek to the start, then pause.
    case begin
    /// Seek to the last frame, then pause.
    case end
    /// Restarts the source at its end from now on, as `Loop()` does.
    case loop
    /// Stops looping: playback ends at the end of the current pass.
    case unloop
    /// Plays the source `count` more times after the current pass, then ends at the end of the last
    /// (mpv's `loop-file=N`); 0 is `unloop`. `loop` and `unloop` drop the count.
    case loopTimes(Int)
    /// 1 is normal; clamped to 0…16 (0 holds the picture and silences the sound). The sound keeps
    /// its pitch.
    case playbackSpeed(Float)
    /// Silences the sound, keeping the volume for `unmute`.
    case mute
    /// Turns the sound back on at the current volume.
    case unmute
    /// Linear gain, clamped to 0…1, ramped over one device buffer. Emits `volumeChanged`.
    case volume(Float)
    /// Plays the first audio track in this language (`en` or `eng`); if none matches, an
    /// `audioTrackNotFound` error event lists the tracks and the current one plays on.
    case audioTrack(languageCode: String)
    /// Plays the audio track at this position among the source's (from 0, as `PlayerStatus` counts);
    /// nil plays none. A number with no track gives an `audioTrackNotFound` error event.
    case audioTrackNumber(Int?)
    /// −1 … 1, clamped; 0 leaves the picture alone. Applied after the filter stack and kept by
    /// `removeAllFilters`.
    case brightness(Float)
    /// 0 … 4, clamped; 1 leaves the picture alone. Applied after the filter stack.
    case contrast(Float)
    /// Turns the picture clockwise on screen by 0, 90, 180 or 270 degrees, on top of the stream's own
    /// rotation (mpv's `video-rotate`); the overlays stay upright. Another value gives an
    /// `invalidSetting` error event and the turn stays.
    case videoRotation(Int)
    /// Pushes a filter on the stack (emptying it first if `clear`). An invalid one gives an error
    /// event and the previous stack stays.
    case filter(VideoFilter, clear: Bool = false)
    /// Pushes a filter written in Swift on the stack.
    case customFilter(any PixelFilter, clear: Bool = false)
    /// Empties the stack; brightness and contrast stay.
    case removeAllFilters
    /// Shows the first subtitle track (embedded or external) in this language (`en` or `eng`); nil
    /// turns subtitles off. A language that matches nothing gives a `subtitleTrackNotFound` error
    /// event listing the tracks, and the current choice stays.
    case subtitles(String?)
    /// Shows the subtitle track at this position (from 0: the source's streams, then the files);
    /// nil turns subtitles off. A number with no track gives a `subtitleTrackNotFound` error event.
    case subtitleTrackNumber(Int?)
    /// Writes the picture on screen (overlays and subtitles included; `content` says what else) at
    /// `path`, off the playback thread: JPEG for a `.jpg`/`.jpeg` name, PNG otherwise. Only a
    /// regular file is written (a FIFO or a device there is refused). `done` is called at most once
    /// when the file is written (nil) or could not be (why: no picture yet, a write error): from the
    /// writer's thread, or from the run's thread when it is refused at once; a command no run takes
    /// (sent before a run or after it ended) never calls it. A failure is also logged. Applied even
    /// while no source is ready (what is on screen, or a failure).
    case screenshot(to: String, content: SnapshotContent = .scene, done: (@Sendable (PlayerError?) -> Void)? = nil)
    /// Shows a short message over the picture (mpv's `show-text`) for `duration` seconds (nil:
    /// the window's `osdDuration`), then fades it out; not when `level` is above the window's
    /// `osdLevel` (level 1 shows unless `osdLevel` is 0). It replaces the message shown; an empty
    /// text removes it.
    case showText(String, duration: Double? = nil, level: Int = 1)
    /// Adds a vector overlay layer on top (removing the others first if `clear`). The builder is
    /// called whenever the player area or the picture's place in it changes, never with an empty area.
    case addVector(any ShapeLayerBuilderProtocol, clear: Bool = false)
    /// Removes every vector overlay layer.
    case removeAllVectors
    /// Playlists: the next item now (with `LoopPlaylist`, the first after the last; without, nothing
    /// after the last).
    case next
    /// The item before (the last from the first with `LoopPlaylist`; the first item starts again).
    case previous
    /// Plays item `index` of the playlist; an index outside it is an `invalidSetting` error event.
    case playItem(at: Int)
    /// Inserts a source (path, URL or name) at `index` (clamped to the list); the item playing stays.
    case insert(String, at: Int)
    /// Removes item `index`; removing the one playing plays the next.
    case remove(at: Int)
    /// Removes every playlist item but the one playing (mpv's `playlist-clear`).
    case clearPlaylist
    /// Opens the picture-in-picture mini window (see `PictureInPicture`); emits `startedPiP`, or an
    /// error event `notSupportedPiP` where it cannot be done.
    case startPiP
    /// Closes the mini window; emits `stoppedPiP`.
    case stopPiP
    /// Draws another player's scene inside this player's picture and starts that player (see
    /// `PlayerInset`).
    case addInset(PlayerInset)
    /// Removes every inset and stops their players.
    case removeAllInsets
    /// On a schedule: plays `items` (a playlist, looped) from `start` (nil: now) for `seconds` (1 s to
    /// a day), above every entry; then what the schedule says plays again, where its timeline is.
    /// Screens given the same start switch together (seamlessly when it is 3 s ahead or more), as at
    /// a change. Replaces an override given before; a reread schedule keeps it. Without a schedule,
    /// or out of range: an `invalidSetting` error event.
    case scheduleOverride([String], seconds: Double, from: Date? = nil)
    /// Ends a `scheduleOverride` now: what the schedule says plays.
    case clearScheduleOverride
    /// Does nothing (the model needed it between two equal commands; we do not).
    case idle

    /// The command's name when it would take a player off a shared timeline (`SyncTimeline`). Those
    /// that set a property (pause, speed, looping) are the table's to judge (`PlayerProperty`).
    package var leavesTheTimeline: String? {
        switch self {
        case .seek: "seek"
        case .seekBy: "seekBy"
        case .begin: "begin"
        case .end: "end"
        case .next: "next"
        case .previous: "previous"
        case .playItem: "playItem"
        case .insert: "insert"
        case .remove: "remove"
        case .clearPlaylist: "clearPlaylist"
        default: nil
        }
    }

    /// Why a `scheduleOverride` cannot be taken at wall time `now` (Unix seconds); nil: it can. The
    /// player and the IPC (which answers `invalid parameter`) check the same.
    package static func scheduleOverrideRefusal(items: [String], seconds: Double, from start: Date?, now: Double) -> String? {
        if items.isEmpty || items.count > 1000 || items.contains(where: \.isEmpty) { return "give 1 to 1000 items, none empty" }
        guard seconds.isFinite, (1...ScheduleEntry.longestOverride).contains(seconds) else { return "the duration must be 1 to 86400 seconds" }
        guard let start = start?.timeIntervalSince1970 else { return nil }
        // Its window is whole seconds: it must end after now.
        guard start.isFinite, start <= now + 366 * 86_400, (start + seconds).rounded(.down) > now else {
            return "the start must be within a year, and the end still to come"
        }
        return nil
    }

    /// Commands applied even while no source is ready: those that choose the playlist's item, and a
    /// message (`Loading…` over a source that opens slowly, or over one that failed).
    var appliesWithoutSource: Bool {
        switch self {
        case .next, .previous, .playItem, .insert, .remove, .clearPlaylist, .showText, .screenshot, .scheduleOverride,
             .clearScheduleOverride: true
        default: false
        }
    }
}
