import Overlay

extension Color {
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
