import LoopPlayerCore

/// A filter of the typed catalogue, each mapped to FFmpeg 5.1's libavfilter with its parameters
/// converted and range-checked. Give them in the settings or as a command:
///
/// ```swift
/// VideoSettings { SourceName("swipe"); Filters { VideoFilter.sepia(); VideoFilter.gaussianBlur(sigma: 2); FFmpegFilter("hqdn3d=4") } }
/// player.send(.filter(.vignette()))
/// ```
public enum VideoFilter: Sendable, Equatable, Hashable {
    /// Grey picture: chroma set to neutral (U = V = 128), luma kept.
    case grayscale
    /// Grey picture tinted with a colour (`intensity` 0…1 mixes the tint in).
    case monochrome(red: Double, green: Double, blue: Double, intensity: Double = 1)
    /// Classic sepia colour matrix, mixed with the original by `intensity` 0…1.
    case sepia(intensity: Double = 1)
    /// Every component inverted: Y → 255 − Y.
    case invert
    /// 0 (grey) … 3; 1 leaves the picture alone.
    case saturation(Double)
    /// Hue rotation in degrees.
    case hueRotation(degrees: Double)
    /// Exposure in stops, −3 … 3.
    case exposure(ev: Double)
    /// 0.1 … 10; 1 leaves the picture alone.
    case gamma(Double)
    /// White balance to a colour temperature, 1 000 … 40 000 K (6 500 ≈ neutral).
    case colorTemperature(kelvin: Double)
    /// Levels per RGB channel, 2 … 256.
    case posterize(levels: Int)
    /// An RGB colour matrix (each output channel a mix of the input channels).
    case colorMatrix(ColorMatrix)
    /// A 3D LUT from a `.cube` (or `.3dl`, `.dat`, `.m3d`, `.csp`) file.
    case lut3D(path: String)
    /// One of FFmpeg's curve presets.
    case curves(CurvesPreset)
    /// Gaussian blur, sigma 0 … 100 pixels.
    case gaussianBlur(sigma: Double)
    /// Box blur, radius 0 … 100 pixels (chroma radius limited to what the chroma planes allow).
    case boxBlur(radius: Int)
    /// Unsharp mask on luma, amount 0 … 5.
    case sharpen(amount: Double)
    /// Blocks of `size` × `size` pixels, 1 … 256.
    case pixellate(size: Int)
    /// Edge detection (Canny): edges white on black.
    case edgeDetection
    /// Darkened corners; `angle` 0 … π/2 sets the lens angle (default π/5).
    case vignette(angle: Double = .pi / 5)
    /// Spatial-temporal denoise (hqdn3d), strength 0 … 50.
    case denoise(strength: Double)
    /// Mirror left ↔ right.
    case flipHorizontal
    /// Upside down.
    case flipVertical
    /// Keeps a rectangle (changes the picture size).
    case crop(x: Int, y: Int, width: Int, height: Int)
    /// Turns by quarter turns clockwise (90° turns swap width and height).
    case rotate(quarterTurns: Int)
    /// A raw libavfilter chain, e.g. `hqdn3d=4` or `eq=gamma=1.2,hflip` (see `FFmpegFilter`).
    case ffmpeg(String)

    /// The libavfilter chain for this filter.
    package var graphDescription: String {
        switch self {
        case .grayscale: return "hue=s=0"
        case let .monochrome(r, g, b, intensity):
            // colorize paints hue and saturation and keeps the source's lightness (mix 1).
            let (hue, saturation, _) = Self.hsl(r, g, b)
            return "hue=s=0,colorize=hue=\(n(hue)):saturation=\(n(saturation * intensity)):lightness=0.5:mix=1"
        case let .sepia(intensity): return Self.sepiaMatrix(intensity).graphDescription
        case .invert: return "negate"
        case let .saturation(value): return "eq=saturation=\(n(value))"
        case let .hueRotation(degrees): return "hue=h=\(n(degrees))"
        case let .exposure(ev): return "exposure=exposure=\(n(ev))"
        case let .gamma(value): return "eq=gamma=\(n(value))"
        case let .colorTemperature(kelvin): return "colortemperature=temperature=\(n(kelvin))"
        case let .posterize(levels):
            let step = "floor(val*\(levels)/256)*255/\(levels - 1)"
            return "lutrgb=r='\(step)':g='\(step)':b='\(step)'"
        case let .colorMatrix(matrix): return matrix.graphDescription
        case let .lut3D(path): return "lut3d=file=\(Self.quoted(path))"
        case let .curves(preset): return "curves=preset=\(preset.rawValue)"
        case let .gaussianBlur(sigma): return "gblur=sigma=\(n(sigma))"
        case let .boxBlur(radius): return "boxblur=lr=\(radius):lp=1:cr='min(\(radius)\\,min(cw\\,ch)/2-1)':cp=1"
        case let .sharpen(amount): return "unsharp=lx=5:ly=5:la=\(n(amount)):cx=5:cy=5:ca=0"
        case let .pixellate(size): return "pixelize=w=\(size):h=\(size)"
        case .edgeDetection: return "edgedetect"
        case let .vignette(angle): return "vignette=angle=\(n(angle))"
        case let .denoise(strength): return "hqdn3d=luma_spatial=\(n(strength))"
        case .flipHorizontal: return "hflip"
        case .flipVertical: return "vflip"
        case let .crop(x, y, width, height): return "crop=w=\(width):h=\(height):x=\(x):y=\(y)"
        case let .rotate(turns):
            switch ((turns % 4) + 4) % 4 {
            case 1: return "transpose=clock"
            case 2: return "hflip,vflip"
            case 3: return "transpose=cclock"
            default: return "null"
            }
        case let .ffmpeg(chain): return chain
        }
    }

    /// The filter's name cut to 64 characters for a message (a raw chain may be a megabyte long).
    var shortName: String { name.count > 64 ? String(name.prefix(64)) + "…" : name }

    /// The RGB colour matrix this filter is, if it is one (it can then run on YUV pictures directly).
    var rgbMatrix: ColorMatrix? {
        switch self {
        case let .sepia(intensity): Self.sepiaMatrix(intensity)
        case let .colorMatrix(matrix): matrix
        default: nil
        }
    }

    private static func sepiaMatrix(_ intensity: Double) -> ColorMatrix {
        ColorMatrix.sepia.mixed(with: .identity, amount: 1 - intensity)
    }

    /// Whether libavfilter runs it on a 4:2:0 YUV picture without converting it to RGB (checked with
    /// FFmpeg 5.1: `exposure`, `colortemperature`, `lutrgb`, `curves`, `lut3d` and `colorchannelmixer`
    /// convert; a raw chain is not judged). Matrices count as RGB here: they are the ones asking.
    var worksInYUV: Bool {
        switch self {
        case .exposure, .colorTemperature, .posterize, .curves, .lut3D, .colorMatrix, .sepia, .ffmpeg: false
        case .grayscale, .monochrome, .invert, .saturation, .hueRotation, .gamma, .gaussianBlur, .boxBlur, .sharpen,
             .pixellate, .edgeDetection, .vignette, .denoise, .flipHorizontal, .flipVertical, .crop, .rotate: true
        }
    }

    /// Checks parameters against their documented ranges.
    package func validate() throws(FilterError) {
        func check(_ ok: Bool, _ reason: String) throws(FilterError) {
            if !ok { throw FilterError(filter: name, reason: reason) }
        }
        switch self {
        case let .monochrome(r, g, b, intensity):
            try check([r, g, b, intensity].allSatisfy { (0...1).contains($0) }, "colour and intensity must be 0…1")
        case let .sepia(intensity): try check((0...1).contains(intensity), "intensity must be 0…1")
        case let .saturation(value): try check((0...3).contains(value), "saturation must be 0…3")
        case let .hueRotation(degrees): try check(degrees.isFinite, "the angle must be finite")
        case let .exposure(ev): try check((-3...3).contains(ev), "exposure must be −3…3 stops")
        case let .gamma(value): try check((0.1...10).contains(value), "gamma must be 0.1…10")
        case let .colorTemperature(kelvin): try check((1000...40000).contains(kelvin), "temperature must be 1000…40000 K")
        case let .posterize(levels): try check((2...256).contains(levels), "levels must be 2…256")
        case let .colorMatrix(matrix): try check(matrix.values.allSatisfy { (-2...2).contains($0) }, "coefficients must be −2…2")
        case let .lut3D(path):
            let known = ["cube", "3dl", "dat", "m3d", "csp"]
            try check(known.contains(path.split(separator: ".").last.map { $0.lowercased() } ?? ""),
                      "expected a .cube, .3dl, .dat, .m3d or .csp file")
            try check(FileAccess.isReadableFile(path), "cannot read \(path)")
        case let .gaussianBlur(sigma): try check((0...100).contains(sigma), "sigma must be 0…100")
        case let .boxBlur(radius): try check((0...100).contains(radius), "radius must be 0…100")
        case let .sharpen(amount): try check((0...5).contains(amount), "amount must be 0…5")
        case let .pixellate(size): try check((1...256).contains(size), "size must be 1…256")
        case let .vignette(angle): try check((0...(Double.pi / 2)).contains(angle), "angle must be 0…π/2")
        case let .denoise(strength): try check((0...50).contains(strength), "strength must be 0…50")
        case let .crop(x, y, width, height):
            try check(x >= 0 && y >= 0 && width > 0 && height > 0, "a crop needs a positive size")
            // No picture is larger (FFmpeg's own frame limit is about this too).
            try check(max(x, y, width, height) <= 16384, "a crop's size and place are at most 16384 pixels")
        case let .ffmpeg(chain):
            try check(!chain.trimmingCharacters(in: .whitespaces).isEmpty, "the filter is empty")
            // libavfilter configures a chain recursively: a chain of 170 000 overflowed the decoder
            // thread's stack, 20 000 took 6.9 GB. Counted by its separators (escaped ones too: a
            // long chain is refused a little early, never let through).
            let separators = chain.reduce(0) { $1 == "," || $1 == ";" ? $0 + 1 : $0 }
            if separators >= FilterStack.maximumFilters {
                throw FilterError(filter: shortName, reason: "a chain has at most \(FilterStack.maximumFilters) filters")
            }
        case .grayscale, .invert, .curves, .edgeDetection, .flipHorizontal, .flipVertical, .rotate: break
        }
    }

    /// How the filter reads in messages: `sepia(intensity: 7.0)`, or the raw chain.
    public var name: String {
        if case let .ffmpeg(chain) = self { return chain }
        return "\(self)"
    }

    /// A number as libavfilter reads it (no exponent notation).
    private func n(_ value: Double) -> String { String(format: "%.6f", value) }

    /// Single-quoted for libavfilter's option parser.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Hue (degrees), saturation and lightness of an RGB colour.
    static func hsl(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let high = max(r, g, b), low = min(r, g, b), lightness = (high + low) / 2
        guard high > low else { return (0, 0, lightness) }
        let delta = high - low
        let saturation = lightness > 0.5 ? delta / (2 - high - low) : delta / (high + low)
        var hue: Double
        switch high {
        case r: hue = (g - b) / delta + (g < b ? 6 : 0)
        case g: hue = (b - r) / delta + 2
        default: hue = (r - g) / delta + 4
        }
        hue *= 60
        return (hue, saturation, lightness)
    }
}

/// The escape hatch: any libavfilter chain, validated when applied.
public struct FFmpegFilter: Sendable, Equatable {
    /// The libavfilter chain, e.g. `hqdn3d=4` or `eq=gamma=1.2,hflip`.
    public var chain: String
    /// Wraps a libavfilter chain; it is checked only when the stack is applied.
    public init(_ chain: String) { self.chain = chain }
    /// The chain as a `VideoFilter.ffmpeg` case.
    public var filter: VideoFilter { .ffmpeg(chain) }
}

/// FFmpeg's `curves` presets.
public enum CurvesPreset: String, Sendable, CaseIterable {
    /// Inverts the colours like a film negative.
    case colorNegative = "color_negative"
    /// The look of film developed in the wrong chemicals: shifted, contrasty colours.
    case crossProcess = "cross_process"
    /// Darkens the mid-tones.
    case darker
    /// A moderate S-curve: more contrast.
    case increaseContrast = "increase_contrast"
    /// Lightens the mid-tones.
    case lighter
    /// A straight-line contrast increase.
    case linearContrast = "linear_contrast"
    /// An S-curve between `increaseContrast` and `strongContrast`.
    case mediumContrast = "medium_contrast"
    /// Inverts every channel.
    case negative
    /// A steep S-curve: much more contrast.
    case strongContrast = "strong_contrast"
    /// A faded, warm old-photo look.
    case vintage
}

