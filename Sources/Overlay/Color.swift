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
}
