import Foundation
import LoopPlayerCore
import Overlay

/// The overlays above the picture, turned into the planes of each scene. Main thread (the player's).
///
/// - Vector layers come from builders. A builder is called when the geometry is known (never with
///   an empty area: the model's zero-geometry bug cannot happen) and again whenever it changes (a
///   resize, fullscreen, gravity, another source size).
/// - A layer is rasterised again only when its layer or the geometry changed, or — while it is
///   animated — when the time moved; each new raster gets a new revision, so outputs upload a plane
///   only then. Animation time is seconds on the player's clock since the layer was added.
/// - The error text of a failed source is one more plane, and a short message (mpv's OSD) is the top one.
final class OverlayStack {
    struct ErrorStyle: Equatable {
        var color: Color
        var fontSize: Float
    }

    private final class Entry {
        let builder: any ShapeLayerBuilderProtocol
        let key: Int
        let addedAt: Double
        var layer: ShapeLayer?
        var builtFor: LayerGeometry?
        var plane: OverlayPlane?
        /// The layer time the plane shows (nil for a still layer).
        var renderedTime: Double?
        /// It could not be drawn; it is tried again only when the geometry changes.
        var failed = false
        /// The failure reported for it (the same one is not reported again after a retry).
        var reported: OverlayError?

        init(builder: any ShapeLayerBuilderProtocol, key: Int, addedAt: Double) {
            self.builder = builder
            self.key = key
            self.addedAt = addedAt
        }
    }

    private let rasterizer = OverlayRasterizer()
    private var entries: [Entry] = []
    private var nextKey = 0
    private var nextRevision = 0
    private var error: (message: String, style: ErrorStyle)?
    private var errorPlane: (plane: OverlayPlane, geometry: LayerGeometry, message: String, style: ErrorStyle)?
    private var subtitlePlane: OverlayPlane?
    private var message: OnScreenMessage?
    private var messagePlane: (plane: OverlayPlane?, geometry: LayerGeometry, message: OnScreenMessage, opacity: Double)?
    /// Other players' scenes drawn over the vector layers, and the revision of each put in a scene.
    private var insets: [(inset: PlayerInset, shown: Int?)] = []
    private var failures: [OverlayError] = []

    /// Adds a vector layer on top of the others (after removing them all if `clear`).
    func add(_ builder: any ShapeLayerBuilderProtocol, at now: Double, clear: Bool = false) {
        if clear { entries.removeAll() }
        entries.append(Entry(builder: builder, key: nextKey, addedAt: now))
        nextKey += 1
    }

    func removeAllVectors() { entries.removeAll() }

    func addInset(_ inset: PlayerInset) { insets.append((inset, nil)) }

    /// Forgets every inset and returns them (for the caller to stop).
    func removeAllInsets() -> [PlayerInset] {
        defer { insets.removeAll() }
        return insets.map(\.inset)
    }

    /// True when an inset's player showed a scene that is not on screen yet.
    var insetChanged: Bool { insets.contains { $0.inset.plane?.revision != $0.shown } }

    var vectorCount: Int { entries.count }

    /// The error text shown over the player area until `clearError()`.
    func showError(_ message: String, style: ErrorStyle) { error = (message, style) }

    func clearError() {
        error = nil
        errorPlane = nil
    }

    var showsError: Bool { error != nil }

    /// The error text shown, if any.
    var errorMessage: String? { error?.message }

    /// Shows `message` (replacing the one shown) until it has faded out; nil removes it.
    func showMessage(_ message: OnScreenMessage?) {
        self.message = message
        messagePlane = nil
    }

    /// When the message must be drawn again (its fade's next step or its end), if one is shown.
    func messageDeadline(after now: Double) -> Double? { message?.nextChange(after: now) }

    /// The subtitles' plane (rasterised by the subtitle renderer), or nil.
    func setSubtitles(_ plane: OverlayPlane?) { subtitlePlane = plane }

    /// Layers that could not be drawn since the last call (a missing SVG, NaN coordinates).
    func takeFailures() -> [OverlayError] {
        defer { failures.removeAll() }
        return failures
    }

    /// True while some layer is animated: the scene changes with time even when the picture does not.
    func isAnimating(at now: Double) -> Bool {
        entries.contains { entry in
            guard let layer = entry.layer, layer.isAnimated else { return false }
            return layer.animationEnd.map { now - entry.addedAt <= $0 } ?? true
        }
    }

    /// The planes of a scene at clock time `now` in `geometry`, bottom to top.
    func planes(in geometry: LayerGeometry, at now: Double) -> [OverlayPlane] {
        guard !geometry.isEmpty else { return [] }
        var planes: [OverlayPlane] = []
        for entry in entries {
            if let plane = plane(for: entry, in: geometry, at: now) { planes.append(plane) }
        }
        for index in insets.indices {
            guard let latest = insets[index].inset.plane else { continue }
            insets[index].shown = latest.revision
            planes.append(OverlayPlane(layer: .inset(index), revision: latest.revision, image: latest.image))
        }
        if let subtitlePlane { planes.append(subtitlePlane) }
        if let errorPlane = errorText(in: geometry) { planes.append(errorPlane) }
        if let messagePlane = messageText(in: geometry, at: now) { planes.append(messagePlane) }
        return planes
    }

    private func messageText(in geometry: LayerGeometry, at now: Double) -> OverlayPlane? {
        guard let message else { return nil }
        guard let opacity = message.opacity(at: now) else {
            self.message = nil
            messagePlane = nil
            return nil
        }
        if let cached = messagePlane, cached.geometry == geometry, cached.message == message, cached.opacity == opacity {
            return cached.plane
        }
        let plane = rasterizer.renderMessage(message.text, opacity: opacity, in: geometry).map {
            OverlayPlane(layer: .message, revision: revision(), image: $0)
        }
        messagePlane = (plane, geometry, message, opacity)
        return plane
    }

    private func plane(for entry: Entry, in geometry: LayerGeometry, at now: Double) -> OverlayPlane? {
        if entry.builtFor != geometry {
            entry.layer = entry.builder.build(in: geometry)
            entry.builtFor = geometry
            entry.plane = nil
            entry.failed = false
        }
        guard let layer = entry.layer, !entry.failed else { return nil }
        let time = now - entry.addedAt
        // A still layer, or an animation past its end, looks the same at any later time.
        let settled = layer.animationEnd.map { max(0, min(time, $0)) }
        let wanted: Double? = layer.isAnimated ? (settled ?? time) : nil
        if let plane = entry.plane, entry.renderedTime == wanted { return plane.image.isEmpty ? nil : plane }
        do {
            let image = try rasterizer.render(layer, in: geometry, at: wanted ?? 0)
            entry.plane = OverlayPlane(layer: .vector(entry.key), revision: revision(),
                                       image: image ?? OverlayImage(x: 0, y: 0, width: 0, height: 0))
            entry.renderedTime = wanted
        } catch {
            entry.failed = true
            entry.plane = nil
            if entry.reported != error { failures.append(error) }
            entry.reported = error
            return nil
        }
        return entry.plane.flatMap { $0.image.isEmpty ? nil : $0 }
    }

    private func errorText(in geometry: LayerGeometry) -> OverlayPlane? {
        guard let error else { return nil }
        if let cached = errorPlane, cached.geometry == geometry, cached.message == error.message,
           cached.style == error.style {
            return cached.plane
        }
        guard let image = rasterizer.renderErrorText(error.message, color: error.style.color,
                                                     fontSize: Double(error.style.fontSize), in: geometry) else { return nil }
        let plane = OverlayPlane(layer: .error, revision: revision(), image: image)
        errorPlane = (plane, geometry, error.message, error.style)
        return plane
    }

    private func revision() -> Int {
        nextRevision += 1
        return nextRevision
    }
}
