/// Alerts for a screen nobody watches: a picture (almost) black for longer than `black` seconds,
/// or frozen for longer than `frozen` (`DisplayAlert`). Each begins and ends with a
/// `displayAlert` event, shows in the status (systemd's `STATUS=`, the metrics). Off by default.
public struct PictureAlerts: Setting, AppliesToSettings, Equatable {
    /// The thresholds accepted, in seconds: one second to a day.
    public static let validRange = 1.0...86_400
    package var thresholds: PictureWatch.Thresholds

    /// Alerts after `black` seconds of black pictures, `frozen` seconds of a frozen one (nil: not
    /// watched); `VideoSettings.validate()` checks them against `validRange`.
    public init(black: Double? = nil, frozen: Double? = nil) {
        thresholds = PictureWatch.Thresholds(black: black, frozen: frozen)
    }

    package func apply(to settings: inout VideoSettings) { settings.pictureAlerts = self }

    /// Throws `invalidSetting` for a threshold outside `validRange`.
    package func validate() throws(PlayerError) {
        if let black = thresholds.black { try checkRange(black, Self.validRange, setting: "PictureAlerts.black", unit: "seconds") }
        if let frozen = thresholds.frozen { try checkRange(frozen, Self.validRange, setting: "PictureAlerts.frozen", unit: "seconds") }
    }
}
