import Foundation

/// A property's value in the player's own units (gain 0…1, seconds, track numbers from 0): what
/// the table reads from a `PlayerStatus` and what its operations take. Each surface converts its own
/// form to it (`PropertyUnit`): the IPC's JSON, the config's text, a key's step.
package enum PropertyValue: Sendable, Equatable {
    case flag(Bool)
    case integer(Int)
    case number(Double)
    case text(String)
    case list([PropertyValue])
    case record([String: PropertyValue])
    /// No track; not looping.
    case off
    /// Looping without end.
    case forever

    package var number: Double? {
        switch self {
        case let .number(value): value
        case let .integer(value): Double(value)
        default: nil
        }
    }
}

/// What a property's numbers mean, and how mpv (its IPC, its config and flags) writes them.
package enum PropertyUnit: Sendable, Equatable {
    case seconds
    /// Percent of the length.
    case percent
    /// A linear gain 0…1; mpv writes percent.
    case gain
    /// A rate, 1 normal.
    case rate
    /// Brightness −1…1; mpv writes −100…100.
    case level
    /// Contrast, 1 neutral; mpv writes 0 as neutral, in hundredths: (c − 1) × 100.
    case contrast
    case degrees
    case pixels
    /// Items, tracks.
    case count

    /// `value` (ours) as mpv writes it.
    package func mpv(_ value: Double) -> Double {
        switch self {
        case .gain, .level: value * 100
        case .contrast: (value - 1) * 100
        default: value
        }
    }

    /// mpv's `value` in our unit.
    package func fromMPV(_ value: Double) -> Double {
        switch self {
        case .gain, .level: value / 100
        case .contrast: value / 100 + 1
        default: value
        }
    }
}

/// What kind of value a property holds, and the values it takes.
package enum PropertyKind: Sendable {
    case flag
    /// A number in this range (clamped by relative changes, refused past it by a set).
    case number(ClosedRange<Double>, PropertyUnit)
    /// One of these whole numbers.
    case choice([Int], PropertyUnit)
    /// A count of more passes (`.off`, `.integer(n)` with n ≥ 1, `.forever`).
    case loopCount
    /// A track number from 0 among the `count` the source has, or `.off`.
    case track(count: @Sendable (PlayerStatus) -> Int)
    /// A playlist position from 0.
    case index
    case integer(PropertyUnit)
    case text
    /// A list or a record (mpv's `playlist`, `track-list`).
    case structure
}

/// A change asked of a property, worked out on the run thread against the value it has then (two
/// `add volume 2` in a row make +4).
package enum PropertyChange: Sendable, Equatable {
    case set(PropertyValue)
    /// Plus this (in the property's unit), kept in its range; a position seeks relatively.
    case add(Double)
    /// Times this (speed's `[` and `]`), rounded to hundredths, kept in its range.
    case multiply(Double)
    /// The next value: a flag flips, a track goes to the next one, then none, then the first.
    case cycle(down: Bool)
}

/// Why a change was refused before it was queued.
package enum PropertyRefusal: Error, Sendable, Equatable {
    case unknown
    case readOnly
    /// Not a value of the property's kind.
    case format
    /// Outside the property's range (or no such track or item).
    case range
    /// The property has no value now (nothing is loaded).
    case unavailable
}

/// One property of a player, as mpv's `m_property` table has them: its name, kind and range, how to
/// read it from the status, the one operation that sets it, whether a synced player may change it,
/// and what the OSD says after a key changed it. Every surface (keys, `PlaybackCommand`, the IPC,
/// the settings, the config file and its reload, observation, the metrics) maps names and units
/// over this table (`PlayerProperty.all`) and nothing else.
package struct PlayerProperty: Sendable {
    /// mpv's name (ours under `loopplay-` where mpv has none).
    package let name: String
    package let kind: PropertyKind
    /// The value now; nil: unavailable (nothing loaded).
    package let read: @Sendable (PlayerStatus) -> PropertyValue?
    /// The operation that sets it, on the run thread (nil: read-only).
    let write: (@Sendable (PropertyValue, PlayerSession) -> Void)?
    /// A relative change the operation works out itself (a seek from the last seek's target).
    let adjust: (@Sendable (Double, PlayerSession) -> Void)?
    /// Setting `value` would take a player off a shared timeline (`SyncTimeline`).
    package let leavesTimeline: @Sendable (PropertyValue, PlayerStatus) -> Bool
    /// What the OSD says after a key changed it (nil: nothing).
    package let osd: (@Sendable (PlayerStatus) -> String)?
    /// The config line and flag that set it (`volume=40`, `--volume 40`), in mpv's unit, where the
    /// line sets the property itself (nil where it sets a `VideoSettings` field the table reads
    /// through `setting`: `mute`, `brightness`, `contrast` in the player's own units).
    package let configName: String?
    /// Its value when nothing set it (what a config line taken out goes back to).
    package let defaultValue: PropertyValue?
    /// Its value as `VideoSettings` say it (nil: the settings do not carry it): a change of the
    /// settings sets it through `write`, as a command does.
    let setting: (@Sendable (VideoSettings) -> PropertyValue?)?
    /// The Prometheus gauge that shows it (`loopplay_volume`), with its help; its value is the
    /// property's number (a flag is 1 or 0; NaN while unavailable).
    package let metric: (name: String, help: String)?

    package var isWritable: Bool { write != nil }

    /// Its value as the metrics show it.
    package func metricValue(_ status: PlayerStatus) -> Double {
        switch read(status) {
        case let .flag(on)?: on ? 1 : 0
        case let value?: value.number ?? .nan
        case nil: .nan
        }
    }

    init(name: String, kind: PropertyKind, read: @escaping @Sendable (PlayerStatus) -> PropertyValue?,
         write: (@Sendable (PropertyValue, PlayerSession) -> Void)? = nil,
         adjust: (@Sendable (Double, PlayerSession) -> Void)? = nil,
         leavesTimeline: @escaping @Sendable (PropertyValue, PlayerStatus) -> Bool = { _, _ in false },
         osd: (@Sendable (PlayerStatus) -> String)? = nil, configName: String? = nil, defaultValue: PropertyValue? = nil,
         setting: (@Sendable (VideoSettings) -> PropertyValue?)? = nil, metric: (name: String, help: String)? = nil) {
        self.name = name
        self.kind = kind
        self.read = read
        self.write = write
        self.adjust = adjust
        self.leavesTimeline = leavesTimeline
        self.osd = osd
        self.configName = configName
        self.defaultValue = defaultValue
        self.setting = setting
        self.metric = metric
    }
}

