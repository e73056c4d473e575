import LoopPlayerCore

extension VideoFilter {
    /// The catalogue's names, for the CLI and config files: `NAME` or `NAME=ARGS`.
    package static let names = ["grayscale", "monochrome", "sepia", "invert", "saturation", "hue", "exposure", "gamma",
                               "temperature", "posterize", "colormatrix", "lut3d", "curves", "blur", "boxblur",
                               "sharpen", "pixellate", "edges", "vignette", "denoise", "hflip", "vflip", "crop", "rotate"]

    /// Parses `sepia`, `sepia=0.5`, `blur=4`, `monochrome=#ff8800:0.8`, `crop=640:360:0:0`,
    /// `curves=vintage`, `lut3d=/path/look.cube`, `colormatrix=r,r,r,g,g,g,b,b,b`…
    package init(parsing text: String) throws(FilterError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts.first?.lowercased() ?? ""
        let argument = parts.count > 1 ? parts[1] : nil
        func number(_ fallback: Double? = nil) throws(FilterError) -> Double {
            if argument == nil, let fallback { return fallback }
            guard let argument, let value = Double(argument), value.isFinite else {
                throw FilterError(filter: text, reason: "\(name) needs a number, e.g. \(name)=1")
            }
            return value
        }
        func integers(_ count: Int) throws(FilterError) -> [Int] {
            let values = (argument ?? "").split(separator: ":").compactMap { Int($0) }
            guard values.count == count else { throw FilterError(filter: text, reason: "\(name) needs \(count) integers separated by ':'") }
            return values
        }
        switch name {
        case "grayscale", "greyscale", "gray": self = .grayscale
        case "monochrome":
            // Empty pieces kept: "monochrome=:" has a colour, empty, to refuse (not none at all).
            let pieces = (argument ?? "#ffffff").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let colour = pieces.first ?? ""
            let hex = colour.hasPrefix("#") ? String(colour.dropFirst()) : colour
            guard pieces.count <= 2, hex.count == 6, hex.allSatisfy(\.isHexDigit), let rgb = Int(hex, radix: 16) else {
                throw FilterError(filter: text, reason: "monochrome needs a colour #RRGGBB[:intensity]")
            }
            let intensity = pieces.count > 1 ? Double(pieces[1]) : 1
            guard let intensity, (0...1).contains(intensity) else {
                throw FilterError(filter: text, reason: "monochrome's intensity is a number 0…1")
            }
            self = .monochrome(red: Double(rgb >> 16 & 0xFF) / 255, green: Double(rgb >> 8 & 0xFF) / 255,
                               blue: Double(rgb & 0xFF) / 255, intensity: intensity)
        case "sepia": self = .sepia(intensity: try number(1))
        case "invert", "negate": self = .invert
        case "saturation": self = .saturation(try number())
        case "hue": self = .hueRotation(degrees: try number())
        case "exposure": self = .exposure(ev: try number())
        case "gamma": self = .gamma(try number())
        case "temperature": self = .colorTemperature(kelvin: try number())
        case "posterize": self = .posterize(levels: Int(try number(4)))
        case "colormatrix":
            let values = (argument ?? "").split(separator: ",").compactMap { Double($0) }
            guard values.count == 9 else { throw FilterError(filter: text, reason: "colormatrix needs 9 numbers separated by ','") }
            self = .colorMatrix(ColorMatrix(values))
        case "lut3d":
            guard let argument, !argument.isEmpty else { throw FilterError(filter: text, reason: "lut3d needs a file") }
            self = .lut3D(path: argument)
        case "curves":
            guard let preset = CurvesPreset.allCases.first(where: { $0.rawValue == argument || "\($0)" == argument }) else {
                throw FilterError(filter: text, reason: "curves needs one of " + CurvesPreset.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self = .curves(preset)
        case "blur", "gblur": self = .gaussianBlur(sigma: try number(2))
        case "boxblur": self = .boxBlur(radius: Int(try number(2)))
        case "sharpen": self = .sharpen(amount: try number(1))
        case "pixellate", "pixelate", "pixelize": self = .pixellate(size: Int(try number(16)))
        case "edges", "edgedetect": self = .edgeDetection
        case "vignette": self = .vignette(angle: try number(.pi / 5))
        case "denoise": self = .denoise(strength: try number(4))
        case "hflip", "mirror": self = .flipHorizontal
        case "vflip", "flip": self = .flipVertical
        case "crop":
            let v = try integers(4)
            self = .crop(x: v[2], y: v[3], width: v[0], height: v[1])
        case "rotate": self = .rotate(quarterTurns: Int(try number(1)))
        default:
            throw FilterError(filter: text, reason: "unknown filter; known: \(Self.names.joined(separator: ", ")) (or --vf for a raw graph)")
        }
        try validate()
    }
}
