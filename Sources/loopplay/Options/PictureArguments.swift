import ArgumentParser
import Filters
import LoopPlayer

/// What is done to the picture and drawn over it: fit, filters, brightness and contrast, overlays,
/// the error text's style.
struct PictureArguments: ParsableArguments {
    @Option(help: ArgumentHelp("How the picture fits the window: aspect (letterbox), fill (crop) or stretch.",
                               valueName: "gravity"),
            completion: .list(["aspect", "fill", "stretch"]), transform: GravityArgument.parse)
    var gravity = GravityArgument(value: Gravity.defaultValue)

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Turn the picture clockwise on screen, on top of the file's own rotation (a portrait screen): \(VideoRotation.validValues.map(String.init).joined(separator: ", ")).",
                               valueName: "degrees"),
            completion: .list(VideoRotation.validValues.map(String.init)))
    var videoRotate = 0

    @Option(parsing: .unconditional, help: "Brightness \(Loopplay.span(Brightness.validRange)), after the filters.")
    var brightness: Float = Brightness.defaultValue

    @Option(parsing: .unconditional, help: "Contrast \(Loopplay.span(Contrast.validRange)), after the filters.")
    var contrast: Float = Contrast.defaultValue

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Show only this part of the picture, WxH+X+Y in the video's pixels, before the filters (a wall's panel shows its part).",
                               valueName: "WxH+X+Y"))
    var crop: String?

    @Option(help: ArgumentHelp("A filter of the catalogue, NAME[=ARGS] (repeatable, in order): \(VideoFilter.names.joined(separator: ", ")).",
                               valueName: "name[=args]"))
    var filter: [String] = []

    @Option(help: ArgumentHelp("A raw libavfilter chain, applied after --filter ones (e.g. 'hqdn3d=4,hflip').", valueName: "graph"))
    var vf: String?

    @Flag(help: "Print the libavfilter chain the filter flags compile to, then exit (to compare with ffmpeg -vf).")
    var printFilterGraph = false

    @Option(help: ArgumentHelp("An SVG drawn over the picture, fitted into it (repeatable; later ones on top).",
                               valueName: "file.svg"),
            completion: .file(extensions: ["svg"]))
    var overlay: [String] = []

    @Option(help: ArgumentHelp("Text at the top left, readable on any picture (repeatable: one line each).", valueName: "text"))
    var overlayText: [String] = []

    @Option(help: ArgumentHelp("Colour of a failed source's error text: a name or #RRGGBB[AA] (default red).",
                               valueName: "color"))
    var errorColor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Size of the error text in points (\(EFontSize.validRange.lowerBound)…\(EFontSize.validRange.upperBound), default \(EFontSize.defaultValue)).",
                                                        valueName: "points"))
    var errorFontSize: Float?

    func validate() throws {
        do throws(PlayerError) { try VideoRotation.validate(videoRotate) } catch {
            throw ValidationError("invalid --video-rotate: \(error.description)")
        }
        guard Brightness.validRange.contains(brightness) else {
            throw ValidationError("--brightness must be \(Loopplay.describe(Brightness.validRange))")
        }
        guard Contrast.validRange.contains(contrast) else {
            throw ValidationError("--contrast must be \(Loopplay.describe(Contrast.validRange))")
        }
        if let errorColor {
            do { _ = try Color(parsing: errorColor) } catch { throw ValidationError("invalid --error-color: \(error.description)") }
        }
        if let crop, Self.cropFilter(crop) == nil {
            throw ValidationError("invalid --crop '\(crop)': expected WxH+X+Y (a size of at least 1x1, a place of 0 or more)")
        }
        if let errorFontSize, !EFontSize.validRange.contains(errorFontSize) {
            throw ValidationError("--error-font-size must be \(EFontSize.validRange.lowerBound)…\(EFontSize.validRange.upperBound) points")
        }
    }

    /// `--filter` values, then `--vf` (checked for syntax now; the graph itself when the video opens).
    func filters() throws(FilterError) -> [VideoFilter] {
        var filters: [VideoFilter] = crop.flatMap(Self.cropFilter).map { [$0] } ?? []
        for text in filter { filters.append(try VideoFilter(parsing: text)) }
        if let vf {
            try FilterChain.checkSyntax(vf)
            filters.append(.ffmpeg(vf))
        }
        return filters
    }

    /// `--crop WxH+X+Y` as the catalogue's crop, first in the stack (a crop outside a picture is
    /// refused for it: the picture black, with `cropOutsidePicture` on screen and on stderr).
    static func cropFilter(_ text: String) -> VideoFilter? {
        guard let geometry = WindowGeometry(parsing: text, sides: 1...16_384), let size = geometry.size,
              let place = geometry.position else { return nil }
        return .crop(x: place.x, y: place.y, width: size.width, height: size.height)
    }

    /// The overlays: the SVGs, then the text.
    var layers: [any ShapeLayerBuilderProtocol] {
        var layers: [any ShapeLayerBuilderProtocol] = overlay.map { SVGLayer(file: $0) }
        if !overlayText.isEmpty { layers.append(TextLayer(overlayText.joined(separator: "\n"))) }
        return layers
    }

    /// Applies these flags to `settings`.
    func apply(to settings: inout VideoSettings) throws {
        settings.gravity = gravity.value
        settings.videoRotation = videoRotate
        settings.brightness = brightness
        settings.contrast = contrast
        if let errorColor { settings.errorColor = try Color(parsing: errorColor) }
        if let errorFontSize { settings.errorFontSize = errorFontSize }
        settings.vectorLayers = layers
    }
}

/// `--gravity`, read as the `Gravity` setting reads it (loopplay's names: aspect, fill, stretch).
struct GravityArgument: ExpressibleByArgument {
    let value: VideoGravity

    init(value: VideoGravity) { self.value = value }

    /// With the library's reason when the name is not one.
    static func parse(_ text: String) throws -> GravityArgument {
        do throws(PlayerError) { return GravityArgument(value: try VideoGravity(parsing: text)) } catch {
            throw ValidationError(error.description)
        }
    }

    init?(argument: String) {
        guard let value = try? VideoGravity(parsing: argument) else { return nil }
        self.value = value
    }

    var defaultValueDescription: String {
        switch value {
        case .resizeAspect: "aspect"
        case .resizeAspectFill: "fill"
        case .resize: "stretch"
        }
    }

    static var allValueStrings: [String] { ["aspect", "fill", "stretch"] }
}
