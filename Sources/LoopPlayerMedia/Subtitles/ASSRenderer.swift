import CLibass
import Foundation
import Logging
import Overlay
import LoopPlayerCore

/// Renders text subtitles with libass into one premultiplied BGRA `OverlayImage` per change.
/// Owns an `ASS_Library`, an `ASS_Renderer` and an `ASS_Track`; used by one thread at a time.
///
/// ```swift
/// let renderer = try ASSRenderer(header: decoder.assHeader)
/// renderer.add(cue, id: CueID(pass: 0, index: 3))
/// let (image, changed) = renderer.render(at: 12.5, area: (1280, 720), videoRect: rect)
/// ```
///
/// Layout follows the video rectangle: text is placed and sized relative to where the picture is
/// drawn (letterboxed, stretched), and when the picture is cropped (fill) unpositioned lines stay
/// inside the visible part while `\pos` signs keep to the picture.
package final class ASSRenderer: @unchecked Sendable {  // one C owner, handed between threads, never shared
    private let library: OpaquePointer
    private let renderer: OpaquePointer
    private let track: UnsafeMutablePointer<ASS_Track>
    /// True when the header was absent or FFmpeg's generated default: our readable style is used.
    package let usesDefaultStyle: Bool
    /// Most events kept in the track; past it the ones already over are dropped (see `add`).
    package let eventLimit: Int
    /// Cues in the track by their caller's identity, to refuse duplicates and to re-add survivors.
    private var cues: [AnyHashable: SubtitleCue] = [:]
    /// The video's coded size, for ASS scripts (`\blur`, 3D rotations, anamorphic pictures); set by
    /// the owner once the picture is known. Not used with the default style (square glyphs).
    package var videoSize: SubtitleCanvas? {
        didSet { if videoSize != oldValue { configured = nil } }
    }
    private var configured: Configuration?
    /// The script's `PlayResY`, which override tags are bounded against.
    private let scriptHeight: Double
    private var lastTime: Int64 = .min
    private var lastImage: OverlayImage?
    /// Set when `lastImage` no longer matches libass's last frame (an input was refused), so the
    /// next frame is composed even if libass sees no change.
    private var lastImageIsStale = false

    /// Text longer than this (bytes) in one event is refused: libass lays out every glyph.
    private static let maximumEventBytes = 64 * 1024
    /// Largest area rendered into, per side.
    package static let maximumAreaSide = 16384
    /// The default style's script height: sizes below are pixels at 720p.
    private static let defaultPlayResY = 720

    /// A renderer for a track with `header` (an ASS `[Script Info]` + styles, as
    /// `SubtitleDecoder.assHeader` gives). Nil or FFmpeg's generated default (SRT, WebVTT, mov_text)
    /// gets a style readable on any picture; an ASS file's own styles are kept.
    package init(header: String?, eventLimit: Int = 1000) throws(PlayerError) {
        self.eventLimit = max(2, eventLimit)
        guard let library = ass_library_init() else { throw .renderFailed(reason: "libass could not start") }
        ass_set_message_cb(library, { level, format, arguments, _ in
            // libass levels: 0 fatal … 2 warning, 4 info, 6+ verbose.
            guard level <= 4, let format, let arguments else { return }
            var line = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&line, line.count, format, arguments)
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            ASSRenderer.libassLogger.log(level: level <= 2 ? .info : .debug, "\(text)")
        }, nil)
        guard let renderer = ass_renderer_init(library) else {
            ass_library_done(library)
            throw .renderFailed(reason: "libass could not create a renderer (no FreeType or HarfBuzz?)")
        }
        guard let track = ass_new_track(library) else {
            ass_renderer_done(renderer)
            ass_library_done(library)
            throw .renderFailed(reason: "libass could not create a track")
        }
        self.library = library
        self.renderer = renderer
        self.track = track
        // Fonts through fontconfig, whose first run on a machine builds its cache (docs/subtitles.md).
        ass_set_fonts(renderer, nil, "DejaVu Sans", Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        // Glyph count and bitmap megabytes: bounded memory whatever the script asks for.
        ass_set_cache_limits(renderer, 4096, 64)
        ass_set_shaper(renderer, ASS_SHAPING_COMPLEX)

        usesDefaultStyle = header.map(Self.isGeneratedDefault) ?? true
        var script = usesDefaultStyle ? Self.defaultHeader : header ?? Self.defaultHeader
        if !script.contains("[Events]") { script += "\n[Events]\n" + Self.eventFormat + "\n" }
        var bytes = Array(script.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ass_process_codec_private(track, $0.baseAddress, Int32($0.count)) }
        }
        // Duplicates are refused by our own identities; FFmpeg restarts ReadOrder after a flush,
        // and libass would drop a later cue that reuses one.
        ass_set_check_readorder(track, 0)
        if usesDefaultStyle {
            // A soft edge on the outline and shadow (the style line has no field for it).
            for index in 0..<Int(track.pointee.n_styles) { track.pointee.styles[index].Blur = 0.8 }
        }
        ASSScriptBounds.bound(track)
        scriptHeight = ASSScriptBounds.scriptHeight(of: track)
    }

    deinit {
        ass_free_track(track)
        ass_renderer_done(renderer)
        ass_library_done(library)
    }

    /// Number of events in the track.
    package var eventCount: Int { Int(track.pointee.n_events) }

    /// Adds a text cue once: a cue whose `id` is already in the track is ignored. Its times are in
    /// the timeline `render(at:)` is given. Bitmap cues are not for this renderer (see `image(for:…)`).
    /// Past `eventLimit` the track keeps the cues that are not yet over, soonest first, up to
    /// half the limit. Returns false if the cue was not added.
    @discardableResult
    package func add(_ cue: SubtitleCue, id: some Hashable & Sendable) -> Bool {
        let key = AnyHashable(id)
        guard case let .text(event) = cue.content, cues[key] == nil, cue.start.isFinite, !cue.end.isNaN,
              cue.end > cue.start, event.utf8.count <= Self.maximumEventBytes else { return false }
        if cues.count >= eventLimit { dropFinishedCues() }
        cues[key] = cue
        process(cue, event: event)
        return true
    }

    /// Removes every event (after a seek, a track change, or a new source).
    package func removeAll() {
        ass_flush_events(track)
        cues.removeAll()
    }

    /// Renders the subtitles shown at `seconds` in a player area of `area` pixels where the picture
    /// is drawn at `videoRect` (the whole picture: larger than the area and partly outside it when
    /// cropped). When nothing changed since the last call (libass's `detect_change` is 0), no work
    /// is done: `changed` is false and `image` is the previous result. Nil means nothing to draw.
    package func render(at seconds: Double, area: (width: Int, height: Int), videoRect: CGRect) -> (image: OverlayImage?, changed: Bool) {
        guard (1...Self.maximumAreaSide).contains(area.width), (1...Self.maximumAreaSide).contains(area.height),
              seconds.isFinite, videoRect.width.isFinite, videoRect.height.isFinite,
              videoRect.minX.isFinite, videoRect.minY.isFinite else {
            let changed = lastImage != nil
            lastImage = nil
            lastImageIsStale = true
            return (nil, changed)
        }
        configure(Configuration(area: area, videoRect: videoRect))
        let now = Self.milliseconds(seconds)
        lastTime = now
        var change: Int32 = 0
        let images = ass_render_frame(renderer, track, now, &change)
        guard change != 0 || lastImageIsStale else { return (lastImage, false) }
        let previous = lastImage
        lastImage = Self.composite(images)
        lastImageIsStale = false
        return (lastImage, change != 0 || lastImage != previous)
    }

    // MARK: - Events

    private func process(_ cue: SubtitleCue, event: String) {
        let start = Self.milliseconds(cue.start)
        // An open end lasts until removed (about 35 years: no overflow in libass's start + duration).
        let duration = cue.end == .infinity ? Int64(1) << 40 : max(1, Self.milliseconds(cue.end) - start)
        var bytes = Array(ASSScriptBounds.boundOverrides(in: event, scriptHeight: scriptHeight).utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                ass_process_chunk(track, $0.baseAddress, Int32($0.count), start, duration)
            }
        }
    }

    /// Keeps the cues not over at the last rendered time, soonest first, up to half the limit.
    private func dropFinishedCues() {
        let now = Double(lastTime) / 1000
        let kept = cues.filter { $0.value.end > now }
            .sorted { $0.value.start < $1.value.start }
            .prefix(eventLimit / 2)
        logger.debug("subtitles: \(cues.count) events reached the limit of \(eventLimit); keeping \(kept.count)")
        ass_flush_events(track)
        cues.removeAll()
        for (key, cue) in kept {
            guard case let .text(event) = cue.content else { continue }
            cues[key] = cue
            process(cue, event: event)
        }
    }

    /// Seconds as libass's milliseconds, within ±2⁴⁰ ms (35 years) so no sum overflows.
    private static func milliseconds(_ seconds: Double) -> Int64 {
        Int64(min(max((seconds * 1000).rounded(), -0x1p40), 0x1p40))
    }

    // MARK: - Layout

    private struct Configuration: Equatable {
        var width: Int
        var height: Int
        var top: Int, bottom: Int, left: Int, right: Int

        /// The video rectangle as libass margins (distances from the area's edges; negative where
        /// the picture goes beyond the area), clamped so a degenerate rectangle stays harmless.
        init(area: (width: Int, height: Int), videoRect: CGRect) {
            width = area.width
            height = area.height
            let limitX = Double(area.width) * 8, limitY = Double(area.height) * 8
            let w = min(max(1, Double(videoRect.width)), limitX), h = min(max(1, Double(videoRect.height)), limitY)
            let x = min(max(Double(videoRect.minX), -limitX), limitX), y = min(max(Double(videoRect.minY), -limitY), limitY)
            left = Int(x.rounded())
            top = Int(y.rounded())
            right = area.width - Int((x + w).rounded())
            bottom = area.height - Int((y + h).rounded())
        }

        var contentWidth: Int { max(1, width - left - right) }
        var contentHeight: Int { max(1, height - top - bottom) }
        var isCropped: Bool { min(top, bottom, left, right) < 0 }
    }

    private func configure(_ configuration: Configuration) {
        guard configuration != configured else { return }
        configured = configuration
        ass_set_frame_size(renderer, Int32(configuration.width), Int32(configuration.height))
        ass_set_margins(renderer, Int32(configuration.top), Int32(configuration.bottom),
                        Int32(configuration.left), Int32(configuration.right))
        // Cropped: libass fits unpositioned lines into the area (a bottom line would fall below
        // it otherwise) and keeps positioned ones on the picture. Otherwise all is on the picture.
        ass_set_use_margins(renderer, configuration.isCropped ? 1 : 0)
        if usesDefaultStyle {
            // Square glyphs, and a script as wide as the picture's shape so outlines are even.
            ass_set_storage_size(renderer, 0, 0)
            ass_set_pixel_aspect(renderer, 1)
            let aspect = Double(configuration.contentWidth) / Double(configuration.contentHeight)
            track.pointee.PlayResY = Int32(Self.defaultPlayResY)
            track.pointee.PlayResX = Int32(max(1, min(Double(Self.defaultPlayResY) * aspect, 65536)).rounded())
        } else {
            // The script's own pixels follow the picture, stretched or anamorphic like it.
            ass_set_storage_size(renderer, Int32(videoSize?.width ?? 0), Int32(videoSize?.height ?? 0))
            ass_set_pixel_aspect(renderer, 0)
        }
    }

    // MARK: - Compositing

    /// One premultiplied BGRA image over the union of libass's images, drawn in list order.
    private static func composite(_ first: UnsafeMutablePointer<ASS_Image>?) -> OverlayImage? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        var node = first
        while let image = node?.pointee {
            if image.w > 0, image.h > 0, image.color & 0xFF != 0xFF {
                minX = min(minX, Int(image.dst_x)); minY = min(minY, Int(image.dst_y))
                maxX = max(maxX, Int(image.dst_x + image.w)); maxY = max(maxY, Int(image.dst_y + image.h))
            }
            node = image.next
        }
        guard minX < maxX, minY < maxY else { return nil }
        var canvas = PremultipliedCanvas(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        node = first
        while let image = node?.pointee {
            // libass colour: 0xRRGGBBTT where TT is transparency (255 − alpha).
            if image.w > 0, image.h > 0, let bitmap = image.bitmap {
                canvas.fill(mask: bitmap, stride: Int(image.stride), width: Int(image.w), height: Int(image.h),
                            left: Int(image.dst_x), top: Int(image.dst_y),
                            red: image.color >> 24, green: (image.color >> 16) & 0xFF, blue: (image.color >> 8) & 0xFF,
                            alpha: 255 - image.color & 0xFF)
            }
            node = image.next
        }
        return canvas.image
    }

    // MARK: - Headers

    private static let eventFormat = "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text"

    /// White DejaVu Sans with a 2.5 px black outline and a half-transparent 1.5 px shadow (sizes at
    /// 720p, scaled with the picture): readable on bright and dark pictures alike.
    private static let defaultHeader = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 1280
        PlayResY: \(defaultPlayResY)
        ScaledBorderAndShadow: yes
        WrapStyle: 0
        YCbCr Matrix: None

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, \
        MarginR, MarginV, Encoding
        Style: Default,DejaVu Sans,46,&H00FFFFFF,&H00FFFFFF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2.5,1.5,2,64,64,40,1

        [Events]
        \(eventFormat)

        """

    /// True for the header FFmpeg writes for SubRip, WebVTT, mov_text and other unstyled text
    /// (one `Default` style, "Script generated by FFmpeg/Lavc"), which we replace with ours.
    package static func isGeneratedDefault(_ header: String) -> Bool {
        let lines = header.split(whereSeparator: \.isNewline)
        let styles = lines.filter { $0.hasPrefix("Style:") }
        return header.contains("Script generated by FFmpeg/Lavc") && styles.count <= 1
            && styles.allSatisfy { $0.dropFirst("Style:".count).trimmingCharacters(in: .whitespaces).hasPrefix("Default,") }
    }

    private static let libassLogger = Logger(label: "LoopPlayer.libass")
}
