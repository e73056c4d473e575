/// A key's action as a change of a property of the table (the others are the window's own or
/// commands: quit, fullscreen, snapshot, clearing the filters, the playlist's steps).
extension PlayerAction {
    package var propertyChange: (name: String, change: PropertyChange)? {
        switch self {
        case .togglePause: ("pause", .cycle(down: false))
        case let .seek(seconds): ("time-pos", .add(seconds))
        case .toggleLoop: ("loop-file", .cycle(down: false))
        case let .adjustContrast(step): ("contrast", .add(Double(step)))
        case let .adjustBrightness(step): ("brightness", .add(Double(step)))
        case .toggleMute: ("mute", .cycle(down: false))
        case let .adjustVolume(step): ("volume", .add(Double(step)))
        case let .scaleSpeed(factor): ("speed", .multiply(factor))
        case .resetSpeed: ("speed", .set(.number(1)))
        case .cycleAudioTrack: ("aid", .cycle(down: false))
        case .cycleSubtitles: ("sid", .cycle(down: false))
        case .toggleSubtitles: ("sub-visibility", .cycle(down: false))
        case .toggleFullscreen, .snapshot, .quit, .clearFilters, .nextItem, .previousItem: nil
        }
    }
}
