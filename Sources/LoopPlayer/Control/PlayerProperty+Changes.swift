/// What a change makes of a property's value: checked against its kind and range, worked out from
/// the value now. Pure: the surfaces check before they queue, the run thread resolves when it applies.
extension PlayerProperty {
    /// The property of this name (mpv's), if the player has it.
    package static func named(_ name: String) -> PlayerProperty? { byName[name] }

    private static let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// `value` as the property takes it (a whole number for a number property is a number), or why not.
    package func check(_ value: PropertyValue, in status: PlayerStatus) -> Result<PropertyValue, PropertyRefusal> {
        guard isWritable else { return .failure(.readOnly) }
        guard read(status) != nil else { return .failure(.unavailable) }  // a position with nothing loaded
        switch (kind, value) {
        case (.flag, .flag):
            return .success(value)
        case let (.number(range, _), value):
            guard let number = value.number, !number.isNaN else { return .failure(.format) }
            return range.contains(number) ? .success(.number(number)) : .failure(.range)
        case let (.choice(values, _), value):
            guard let number = value.number, number == number.rounded() else { return .failure(.format) }
            return values.contains(Int(number)) ? .success(.integer(Int(number))) : .failure(.range)
        case (.loopCount, .off), (.loopCount, .forever):
            return .success(value)
        case let (.loopCount, .integer(count)):
            guard PropertyLimits.loopCount.contains(count) else { return .failure(.range) }
            return .success(count == 0 ? .off : value)
        case (.track, .off):
            return .success(value)
        case let (.track(count), .integer(number)):
            return (0..<count(status)).contains(number) ? .success(value) : .failure(.range)
        case let (.index, .integer(index)):
            return (0..<status.playlistCount).contains(index) ? .success(value) : .failure(.range)
        default:
            return .failure(.format)
        }
    }

    /// The value `change` asks for, from the value in `status`.
    package func resolve(_ change: PropertyChange, in status: PlayerStatus) -> Result<PropertyValue, PropertyRefusal> {
        guard isWritable else { return .failure(.readOnly) }
        switch change {
        case let .set(value):
            return check(value, in: status)
        case let .add(delta), let .multiply(delta):
            guard let current = read(status) else { return .failure(.unavailable) }
            switch kind {
            case let .number(range, _):
                guard let now = current.number, delta.isFinite else { return .failure(.format) }
                // Rounded (to hundredths for a factor, to a millionth for a step), so that steps add up
                // exactly: 100 × `add volume 1` is 100, not 99.9999 (a gain is held as a Float).
                let wanted = if case .multiply = change { (now * delta * 100).rounded() / 100 } else { ((now + delta) * 1e6).rounded() / 1e6 }
                return .success(.number(wanted.clamped(to: range)))
            case let .choice(values, .degrees):
                // Turns wrap: 270 + 90 is 0, as mpv's `video-rotate`.
                guard case .add = change, let now = current.number, delta.isFinite, delta == delta.rounded() else {
                    return .failure(.format)
                }
                let turned = ((Int(now) + Int(delta.truncatingRemainder(dividingBy: 360))) % 360 + 360) % 360
                return values.contains(turned) ? .success(.integer(turned)) : .failure(.range)
            default:
                return .failure(.format)
            }
        case let .cycle(down):
            guard let current = read(status) else { return .failure(.unavailable) }
            switch (kind, current) {
            case let (.flag, .flag(on)):
                return .success(.flag(!on))
            case (.loopCount, _):
                return .success(current == .off ? .forever : .off)
            case let (.track(count), _):
                let tracks = count(status)
                guard tracks > 0 else { return .failure(.unavailable) }
                // 0 stands for none: after the last track none, then the first again.
                let now = if case let .integer(number) = current { number + 1 } else { 0 }
                let next = (now + (down ? tracks : 1)) % (tracks + 1)
                return .success(next == 0 ? .off : .integer(next - 1))
            case let (.choice(values, _), value):
                let index = value.number.flatMap { now in values.firstIndex(of: Int(now)) } ?? -1
                let next = (index + (down ? values.count - 1 : 1) + values.count) % values.count
                return .success(.integer(values[next]))
            default:
                return .failure(.format)
            }
        }
    }

    /// `change` with a number past the range taken at its edge (a loop count past the largest at
    /// the largest): what the library's commands promise.
    package func clamping(_ change: PropertyChange) -> PropertyChange {
        guard case let .set(value) = change else { return change }
        switch (kind, value) {
        case let (.number(range, _), value):
            guard let number = value.number, !number.isNaN else { return change }
            return .set(.number(number.clamped(to: range)))
        case let (.loopCount, .integer(count)):
            return .set(.integer(count.clamped(to: PropertyLimits.loopCount)))
        default:
            return change
        }
    }
}

extension PropertyRefusal {
    /// Why, in words, for the error event.
    package func reason(for property: PlayerProperty) -> String {
        switch self {
        case .unknown: "there is no such property"
        case .readOnly: "it is read-only"
        case .unavailable: "it has no value now"
        case .format, .range:
            switch property.kind {
            case .flag: "it takes yes or no"
            case let .number(range, _): "it takes a number in \(range.lowerBound)…\(range.upperBound)"
            case let .choice(values, _): "it takes one of " + values.map(String.init).joined(separator: ", ")
            case .loopCount: "it takes inf, no or a count up to \(PropertyLimits.loopCount.upperBound)"
            case .track: "it takes no or one of the tracks"
            case .index: "it takes one of the playlist's positions"
            case .integer, .text, .structure: "it takes no such value"
            }
        }
    }
}

extension PropertyValue {
    /// The value as a user wrote it (`45`, `no`, `inf`), for an error's text.
    package var text: String {
        switch self {
        case let .flag(flag): flag ? "yes" : "no"
        case let .integer(number): String(number)
        case let .number(number): number == number.rounded() && number.magnitude < 1e15 ? String(Int(number)) : String(number)
        case let .text(text): text
        case let .list(items): items.map(\.text).joined(separator: ", ")
        case let .record(fields): fields.keys.sorted().map { "\($0)=\(fields[$0]?.text ?? "")" }.joined(separator: ", ")
        case .off: "no"
        case .forever: "inf"
        }
    }
}

extension PropertyChange {
    /// The change as a user wrote it (`45`, `+2.0`, `cycle`), for an error's text.
    package var text: String {
        switch self {
        case let .set(value): value.text
        case let .add(step): step < 0 ? "\(step)" : "+\(step)"
        case let .multiply(factor): "×\(factor)"
        case let .cycle(down): down ? "cycle down" : "cycle"
        }
    }
}
