/// Something that happened to a player, delivered in one-second batches (the model's events plus
/// `loopCompleted` and `ended`).
public enum PlayerEvent: Sendable, Equatable {
    /// A seek finished; `currentTime` is where it landed (after clamping), in seconds.
    case seek(Bool, currentTime: Double)
    case paused
    /// Playback wants to run but has no frame to show (the network or the decoder is behind).
    case waitingToPlayAtSpecifiedRate
    case playing
    /// A new source replaced the previous one.
    case currentItemChanged
    /// The source was removed (replaced, or the player went idle).
    case currentItemRemoved
    case volumeChanged(Float)
    case error(PlayerError)
    /// The picture's rectangle in the player area changed (layout, window size, gravity).
    case boundsChanged(Rect)
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

    /// The filter that admits this event.
    public var filter: PlayerEventFilter {
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
        }
    }
}

/// The model's `AVPlayerItem.Status`.
public enum ItemStatus: String, Sendable, Equatable {
    case unknown
    case readyToPlay
    case failed
}

/// Selects events by case, ignoring their values (`Events([.playing, .errorAny])`).
public enum PlayerEventFilter: String, Sendable, Hashable, CaseIterable {
    case seekAny
    case paused
    case waitingToPlayAtSpecifiedRate
    case playing
    case currentItemChangedAny
    case currentItemRemoved
    case volumeChangedAny
    case errorAny
    case boundsChangedAny
    case itemStatusChangedAny
    case durationAny
    case loopCompletedAny
    case ended
    case variantChangedAny
    case playlistItemChangedAny
    case playlistEnded
    case startedPiP
    case stoppedPiP
}

extension PlayerEvent {
    /// A JSON-ready description (`loopplay --events`).
    public var jsonObject: [String: any Sendable] {
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
        }
    }
}
