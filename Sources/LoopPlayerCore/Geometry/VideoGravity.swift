/// How the picture fills the player area (the model's `AVLayerVideoGravity`).
public enum VideoGravity: String, Sendable, CaseIterable, Codable {
    /// Fit inside, keep the aspect ratio, letterbox the rest (default).
    case resizeAspect
    /// Fill the area, keep the aspect ratio, crop what overflows.
    case resizeAspectFill
    /// Stretch to the area.
    case resize

    /// The gravity used when none is set: `.resizeAspect`.
    public static let `default` = VideoGravity.resizeAspect

    /// Parses the model's names and the CLI's short ones (`aspect`, `fill`, `stretch`).
    package init(parsing text: String) throws(PlayerError) {
        switch text.lowercased() {
        case "resizeaspect", "aspect", "fit", "letterbox": self = .resizeAspect
        case "resizeaspectfill", "fill", "crop": self = .resizeAspectFill
        case "resize", "stretch": self = .resize
        default:
            throw .invalidSetting(name: "gravity", value: text,
                                  reason: "expected aspect, fill or stretch (resizeAspect, resizeAspectFill, resize)")
        }
    }
}
