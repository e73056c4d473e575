/// An sRGB colour with alpha, each component 0…1 (clamped).
///
/// ```swift
/// EColor(.white)
/// EColor(Color(red: 1, green: 0.5, blue: 0, alpha: 0.8))
/// ```
public struct Color: Sendable, Equatable, Hashable {
    /// Red component, 0…1.
    public var red: Double
    /// Green component, 0…1.
    public var green: Double
    /// Blue component, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// A colour from components 0…1; values outside are clamped and NaN counts as 0.
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

    /// System red, the default colour of the error text.
    public static let red = Color(red: 1, green: 0.231, blue: 0.188)
    /// System orange.
    public static let orange = Color(red: 1, green: 0.584, blue: 0)
    /// System yellow.
    public static let yellow = Color(red: 1, green: 0.8, blue: 0)
    /// System green.
    public static let green = Color(red: 0.204, green: 0.78, blue: 0.349)
    /// System blue.
    public static let blue = Color(red: 0, green: 0.478, blue: 1)
    /// System purple.
    public static let purple = Color(red: 0.686, green: 0.322, blue: 0.871)
    /// System pink.
    public static let pink = Color(red: 1, green: 0.176, blue: 0.333)
    /// System grey.
    public static let gray = Color(red: 0.557, green: 0.557, blue: 0.576)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Fully transparent: draws nothing.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// The model's default accent (system blue).
    public static let accentColor = Color.blue
    /// The model's primary (text) colour: black.
    public static let primary = Color.black
    /// The model's secondary colour: grey.
    public static let secondary = Color.gray
}
