/// mpv's text form of a value (a config line's, a flag's): in mpv's unit, as `PropertyUnit` says.
extension PlayerProperty {
    /// `text` as the table's value, checked against the kind (not against the player's tracks).
    package func value(mpvText text: String) -> Result<PropertyValue, PropertyRefusal> {
        let word = text.lowercased()
        let parsed: PropertyValue? = switch kind {
        case .flag: ["yes", "true"].contains(word) ? .flag(true) : ["no", "false"].contains(word) ? .flag(false) : nil
        case let .number(_, unit): Double(text).flatMap { $0.isFinite ? .number(unit.fromMPV($0)) : nil }
        case .choice, .index, .integer: Int(text).map(PropertyValue.integer)
        case .loopCount: ["inf", "yes", "force"].contains(word) ? .forever : word == "no" ? .off : Int(text).map(PropertyValue.integer)
        case .track: word == "no" ? .off : Int(text).flatMap { $0 >= 1 ? .integer($0 - 1) : nil }
        case .text: .text(text)
        case .structure: nil
        }
        guard let parsed else { return .failure(.format) }
        return check(parsed, in: PlayerStatus.unboundedTracks)
    }

    /// The properties a config line sets (`configName`).
    package static var configurable: [PlayerProperty] { all.filter { $0.configName != nil } }
}

extension PlayerStatus {
    /// A status against which any track number is one (a config names tracks before a source is open).
    fileprivate static let unboundedTracks: PlayerStatus = {
        var status = PlayerStatus()
        (status.state, status.audioTrackCount, status.subtitleTrackCount, status.playlistCount) = (.playing, .max, .max, .max)
        return status
    }()
}
