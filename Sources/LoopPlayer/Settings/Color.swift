/// An sRGB colour with alpha, each component 0…1 (clamped).
///
/// ```swift
/// EColor(.white)
/// EColor(Color(red: 1, green: 0.5, blue: 0, alpha: 0.8))
/// ```
public struct Color: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        self.red = unit(red)
        self.green = unit(green)
        self.blue = unit(blue)
        self.alpha = unit(alpha)
    }

    /// 8-bit components, e.g. `Color(rgb8: 255, 128, 0)`.
    public init(rgb8 red: UInt8, _ green: UInt8, _ blue: UInt8, alpha: Double = 1) {
        self.init(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255, alpha: alpha)
    }

    public static let red = Color(red: 1, green: 0.231, blue: 0.188)
    public static let orange = Color(red: 1, green: 0.584, blue: 0)
    public static let yellow = Color(red: 1, green: 0.8, blue: 0)
    public static let green = Color(red: 0.204, green: 0.78, blue: 0.349)
    public static let blue = Color(red: 0, green: 0.478, blue: 1)
    public static let purple = Color(red: 0.686, green: 0.322, blue: 0.871)
    public static let pink = Color(red: 1, green: 0.176, blue: 0.333)
    public static let gray = Color(red: 0.557, green: 0.557, blue: 0.576)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// The model's default accent (system blue).
    public static let accentColor = Color.blue
    public static let primary = Color.black
    public static let secondary = Color.gray

    /// Parses a name (`red`, `accentColor`…) or `#RRGGBB` / `#RRGGBBAA`, for config files and the CLI.
    public init(parsing text: String) throws(PlayerError) {
        let named: [String: Color] = [
            "red": .red, "orange": .orange, "yellow": .yellow, "green": .green, "blue": .blue, "purple": .purple,
            "pink": .pink, "gray": .gray, "grey": .gray, "white": .white, "black": .black, "clear": .clear,
            "accentcolor": .accentColor, "accent": .accentColor, "primary": .primary, "secondary": .secondary,
        ]
        if let color = named[text.lowercased()] { self = color; return }
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6 || hex.count == 8, let value = UInt64(hex, radix: 16) else {
            throw .invalidSetting(name: "color", value: text, reason: "expected a colour name or #RRGGBB[AA]")
        }
        let bytes = hex.count == 8 ? value : value << 8 | 0xFF
        self.init(rgb8: UInt8(bytes >> 24 & 0xFF), UInt8(bytes >> 16 & 0xFF), UInt8(bytes >> 8 & 0xFF),
                  alpha: Double(bytes & 0xFF) / 255)
    }
}
