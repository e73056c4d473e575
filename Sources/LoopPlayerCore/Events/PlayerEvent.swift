/// Something that happened to a player, delivered in one-second batches (the model's events plus
/// `loopCompleted` and `ended`).
public enum PlayerEvent: Sendable, Equatable {
    /// A seek finished; `currentTime` is where it landed (after clamping), in seconds.
    case seek(Bool, currentTime: Double)
    /// Playback paused (a `pause` command or a key); the current frame stays on screen.
    case paused
    /// Playback wants to run but has no frame to show (the network or the decoder is behind).
    case waitingToPlayAtSpecifiedRate
    /// Playback started or resumed.
    case playing
    /// A new source replaced the previous one.
    case currentItemChanged
    /// The source was removed (replaced, or the player went idle).
    case currentItemRemoved
    /// The volume changed; the new linear gain, 0…1.
    case volumeChanged(Float)
    /// A failure (the source could not play, drawn in the player area too) or a command that could not be done.
    case error(PlayerError)
    /// The picture's rectangle in the player area changed (layout, window size, gravity).
    case boundsChanged(Rect)
    /// The source opened (`.readyToPlay`) or failed (`.failed`).
    case itemStatusChanged(ItemStatus)
    /// The length of one pass, in seconds: when the source opens (the picture's own length, read from
    /// the file's end where the container does not say it), and again only if the first pass, once
    /// read, measured another (a stream whose container misstates it).
    case duration(Double)
    /// A wrap happened; the number of passes completed so far.
    case loopCompleted(Int)
    /// Non-looping media reached its end (the last frame is held).
    case ended
    /// An HLS source's picture now comes from another variant (also said for the first one):
    /// its `BANDWIDTH` and the decoded picture's size. Sent when its first frame is shown.
    case variantChanged(bandwidth: Int, size: PixelSize)
    /// A playlist's item `index` became the current one (also the first, and again when an insertion
    /// or a removal moved the item playing). `currentItemChanged`, the model's event, comes with a
    /// new item but says nothing of where in the list.
    case playlistItemChanged(index: Int)
    /// The last item of a playlist that does not loop ended (its last frame is held).
    case playlistEnded
    /// The picture-in-picture window opened (`startPiP`).
    case startedPiP
    /// The picture-in-picture window closed (`stopPiP`, the user closed it, or the player stopped).
    case stoppedPiP
    /// On a shared timeline (`SyncTimeline`): waiting for its epoch, in step with it, or out of step
    /// (a frame shown more than a frame interval from its time on the timeline) — said when it changes.
    case sync(SyncStatus)
    /// On a schedule (docs/schedule.md): `entry` plays from now (`default` for the default), at the
    /// start and at each change.
    case scheduleChanged(entry: String)
    /// What the screen shows went wrong (`active`), or is right again (`PictureAlerts`).
    case displayAlert(DisplayAlert, active: Bool)
    /// An item's play ended (proof of play): what played, when, and how it ended.
    case played(PlayRecord)

    /// The filter that admits this event.
    package var filter: PlayerEventFilter {
        switch self {
        case .seek: .seekAny
        case .paused: .paused
        case .waitingToPlayAtSpecifiedRate: .waitingToPlayAtSpecifiedRate
        case .playing: .playing
        case .currentItemChanged: .currentItemChangedAny
        case .currentItemRemoved: .currentItemRemoved
        case .volumeChanged: .volumeChangedAny
        case .error: .errorAny
        case .boundsChanged: .boundsChangedAny
        case .itemStatusChanged: .itemStatusChangedAny
        case .duration: .durationAny
        case .loopCompleted: .loopCompletedAny
        case .ended: .ended
        case .variantChanged: .variantChangedAny
        case .playlistItemChanged: .playlistItemChangedAny
        case .playlistEnded: .playlistEnded
        case .startedPiP: .startedPiP
        case .stoppedPiP: .stoppedPiP
        case .sync: .syncAny
        case .scheduleChanged: .scheduleChangedAny
        case .displayAlert: .displayAlertAny
        case .played: .playedAny
        }
    }
}

/// Where a player on a shared timeline stands.
public enum SyncStatus: Sendable, Equatable {
    /// The timeline starts this many seconds from now; the first frame waits for it.
    case waitingForEpoch(seconds: Double)
    /// Frames are shown within a frame interval of their time on the timeline (this one's offset).
    case inStep(offsetMs: Double)
    /// The last frame was shown this far from its time on the timeline (more than a frame interval).
    case outOfStep(offsetMs: Double)
}

/// The model's `AVPlayerItem.Status`.
public enum ItemStatus: String, Sendable, Equatable {
    /// Not known yet; the player itself never sends it.
    case unknown
    /// The source opened and can play.
    case readyToPlay
    /// The source could not be played; an `error` event says why.
    case failed
}

/// Selects events by case, ignoring their values (`Events([.playing, .errorAny])`).
public enum PlayerEventFilter: String, Sendable, Hashable, CaseIterable {
    /// Admits `seek` events.
    case seekAny
    /// Admits `paused`.
    case paused
    /// Admits `waitingToPlayAtSpecifiedRate`.
    case waitingToPlayAtSpecifiedRate
    /// Admits `playing`.
    case playing
    /// Admits `currentItemChanged` events.
    case currentItemChangedAny
    /// Admits `currentItemRemoved`.
    case currentItemRemoved
    /// Admits `volumeChanged` events.
    case volumeChangedAny
    /// Admits `error` events.
    case errorAny
    /// Admits `boundsChanged` events.
    case boundsChangedAny
    /// Admits `itemStatusChanged` events.
    case itemStatusChangedAny
    /// Admits `duration` events.
    case durationAny
    /// Admits `loopCompleted` events.
    case loopCompletedAny
    /// Admits `ended`.
    case ended
    /// Admits `variantChanged` events.
    case variantChangedAny
    /// Admits `playlistItemChanged` events.
    case playlistItemChangedAny
    /// Admits `playlistEnded`.
    case playlistEnded
    /// Admits `startedPiP`.
    case startedPiP
    /// Admits `stoppedPiP`.
    case stoppedPiP
    /// Admits `sync` events.
    case syncAny
    /// Admits `scheduleChanged` events.
    case scheduleChangedAny
    /// Admits `displayAlert` events.
    case displayAlertAny
    /// Admits `played` events.
    case playedAny
}

extension PlayerEvent {
    /// A JSON-ready description (`loopplay --events`).
    package var jsonObject: [String: any Sendable] {
        switch self {
        case let .seek(success, time): ["type": "seek", "success": success, "currentTime": time]
        case .paused: ["type": "paused"]
        case .waitingToPlayAtSpecifiedRate: ["type": "waitingToPlayAtSpecifiedRate"]
        case .playing: ["type": "playing"]
        case .currentItemChanged: ["type": "currentItemChanged"]
        case .currentItemRemoved: ["type": "currentItemRemoved"]
        case let .volumeChanged(volume): ["type": "volumeChanged", "volume": Double(volume)]
        case let .error(error): ["type": "error", "kind": error.kind, "message": error.description]
        case let .boundsChanged(rect):
            ["type": "boundsChanged", "x": rect.x, "y": rect.y, "width": rect.width, "height": rect.height]
        case let .itemStatusChanged(status): ["type": "itemStatusChanged", "status": status.rawValue]
        case let .duration(seconds): ["type": "duration", "seconds": seconds]
        case let .loopCompleted(count): ["type": "loopCompleted", "count": count]
        case .ended: ["type": "ended"]
        case let .variantChanged(bandwidth, size):
            ["type": "variantChanged", "bandwidth": bandwidth, "width": size.width, "height": size.height]
        case let .playlistItemChanged(index): ["type": "playlistItemChanged", "index": index]
        case .playlistEnded: ["type": "playlistEnded"]
        case .startedPiP: ["type": "startedPiP"]
        case .stoppedPiP: ["type": "stoppedPiP"]
        case let .sync(.waitingForEpoch(seconds)): ["type": "sync", "status": "waitingForEpoch", "seconds": seconds]
        case let .sync(.inStep(offset)): ["type": "sync", "status": "inStep", "offsetMs": offset]
        case let .sync(.outOfStep(offset)): ["type": "sync", "status": "outOfStep", "offsetMs": offset]
        case let .scheduleChanged(entry): ["type": "scheduleChanged", "entry": entry]
        case let .displayAlert(alert, active): ["type": "displayAlert", "alert": alert.rawValue, "active": active]
        case let .played(record): record.jsonObject.merging(["type": "played"]) { $1 }
        }
    }
}
