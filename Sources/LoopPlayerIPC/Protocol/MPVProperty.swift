import LoopPlayer

/// mpv's properties over the player's table (`PlayerProperty`): this maps forms only — JSON for
/// values, mpv's units (volume in percent, brightness and contrast in hundredths around 0, track
/// ids from 1, loop counts as `inf` or `no`). Besides the table it has the IPC's own listings,
/// `property-list` and `command-list`.
package struct MPVProperty: Sendable {
    package let name: String
    /// nil for the IPC's own listings.
    package let property: PlayerProperty?

    /// The property of this mpv name, if loopplay has it.
    package init?(named name: String) {
        if Self.listings.contains(name) {
            (self.name, property) = (name, nil)
        } else if let property = PlayerProperty.named(name) {
            (self.name, self.property) = (name, property)
        } else {
            return nil
        }
    }

    private static let listings = ["property-list", "command-list"]

    /// Every name, as `property-list` lists them.
    package static let allNames = PlayerProperty.all.map(\.name) + listings

    // MARK: Reading

    /// The property's value now, or why there is none.
    package func value(in status: PlayerStatus) -> Result<JSONValue, MPVError> {
        guard let property else {
            return .success(name == "property-list" ? .array(Self.allNames.map { .string($0) })
                : .array(MPVCommandName.allCases.map { .object(["name": .string($0.rawValue)]) }))
        }
        guard let value = property.read(status) else { return .failure(.propertyUnavailable) }
        return .success(Self.json(value, kind: property.kind))
    }

    /// `value` in mpv's form for a property of `kind`.
    static func json(_ value: PropertyValue, kind: PropertyKind) -> JSONValue {
        switch (kind, value) {
        case (_, .off): return .bool(false)
        case (_, .forever): return .string("inf")
        case (.track, let .integer(number)): return .int(Int64(number + 1))
        // Rounded to what a gain in Float holds: 0.4 reads as 40, not 40.0000006; brightness and
        // contrast are whole numbers in mpv.
        case let (.number(_, unit), .number(number)):
            let mpv = unit.mpv(number)
            switch unit {
            case .level, .contrast: return .int(Int64(mpv.rounded()))
            case .gain: return .double((mpv * 10_000).rounded() / 10_000)
            default: return .double(mpv)
            }
        default: return plain(value)
        }
    }

    private static func plain(_ value: PropertyValue) -> JSONValue {
        switch value {
        case let .flag(flag): .bool(flag)
        case let .integer(number): .int(Int64(number))
        case let .number(number): .double(number)
        case let .text(text): .string(text)
        case let .list(items): .array(items.map(plain))
        case let .record(fields): .object(fields.mapValues(plain))
        case .off: .bool(false)
        case .forever: .string("inf")
        }
    }

    // MARK: Changing

    /// `set_property NAME VALUE`: the value in the table's form, checked against the property.
    package func setting(_ value: JSONValue, in status: PlayerStatus) -> Result<PropertyChange, MPVError> {
        guard let property, property.isWritable else { return .failure(.propertyUnavailable) }  // read-only, as mpv answers
        return Self.tableValue(value, kind: property.kind).flatMap { wanted in
            property.check(wanted, in: status).map(PropertyChange.set).mapError(Self.error)
        }
    }

    /// `add NAME [VALUE]`: the step in the table's unit, once it was seen to apply.
    package func adding(_ step: Double, in status: PlayerStatus) -> Result<PropertyChange, MPVError> {
        guard let property, property.isWritable, step.isFinite else { return .failure(.propertyError) }
        var tableStep = step
        if case let .number(_, unit) = property.kind { tableStep = unit.fromMPV(step) - unit.fromMPV(0) }
        return checked(.add(tableStep), property, status)
    }

    /// `cycle NAME [up|down]`.
    package func cycling(down: Bool, in status: PlayerStatus) -> Result<PropertyChange, MPVError> {
        guard let property, property.isWritable else { return .failure(.propertyError) }
        return checked(.cycle(down: down), property, status)
    }

    /// `change` if it applies to the property now (it is worked out again when the player applies it).
    private func checked(_ change: PropertyChange, _ property: PlayerProperty, _ status: PlayerStatus) -> Result<PropertyChange, MPVError> {
        property.resolve(change, in: status).map { _ in change }.mapError(Self.error)
    }

    private static func error(_ refusal: PropertyRefusal) -> MPVError {
        switch refusal {
        case .unknown: .propertyNotFound
        case .format: .propertyFormat
        case .readOnly, .unavailable: .propertyUnavailable
        case .range: .propertyError
        }
    }

    /// mpv's form of a value for a property of `kind`, in the table's form.
    private static func tableValue(_ value: JSONValue, kind: PropertyKind) -> Result<PropertyValue, MPVError> {
        switch kind {
        case .flag:
            return value.flag.map { .success(.flag($0)) } ?? .failure(.propertyFormat)
        case let .number(_, unit):
            return value.number.map { .success(.number(unit.fromMPV($0))) } ?? .failure(.propertyFormat)
        case .choice, .index, .integer:
            return value.integer.map { .success(.integer(Int($0))) } ?? .failure(.propertyFormat)
        case .loopCount:
            // mpv's forms: `inf`, `yes`, `true`, `force` (forever); `no`, `false` (none); a count.
            if let flag = value.flag { return .success(flag ? .forever : .off) }
            if value.text == "inf" || value.text == "force" { return .success(.forever) }
            return value.integer.map { .success(.integer(Int($0))) } ?? .failure(.propertyFormat)
        case .track:
            if value.flag == false || value.text == "no" { return .success(.off) }
            guard let id = value.integer else { return .failure(.propertyFormat) }
            return id >= 1 ? .success(.integer(Int(id - 1))) : .failure(.propertyError)
        case .text, .structure:
            return .failure(.propertyUnavailable)
        }
    }
}
