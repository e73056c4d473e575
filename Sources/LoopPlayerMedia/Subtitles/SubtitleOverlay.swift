import Foundation
import Overlay
import Synchronization
import LoopPlayerCore

/// The subtitles over one source's picture: the chosen track, rendered each time a frame is shown,
/// at the frame's position inside its pass (so cues repeat in every pass, a cue spanning the wrap
/// ends at the wrap, and a seek or pause never leaves a stale cue). Text tracks render with libass
/// (`ASSRenderer`, made on a worker thread: fontconfig can take a while the first time); bitmap
/// tracks are scaled pictures. The plane's revision moves only when the picture changed (libass's
/// change flag), so outputs upload it only then. Player's thread only.
package final class SubtitleOverlay {
    private let library: SubtitleLibrary
    private let wake: @Sendable () -> Void
    package private(set) var choice: SubtitleChoice
    /// The `v` key: hidden subtitles keep their choice.
    package var visible = true
    /// The track shown (an index in the library), and what has been read of it.
    private var shown: Int?
    private var cues: [SubtitleCue] = []
    private var nextNumber = 0
    private var isBitmap = false
    private var renderer: ASSRenderer?
    private var preparing: RendererPreparation?
    private var trackCount = -1
    private var plane: OverlayPlane?
    private var bitmapShown: (cue: Int, videoRect: CGRect)?
    private var revision = 0
    /// Frames do not wait (a virtual clock, a run that counts its frames): a track chosen later (a
    /// switch, a cycle, a file that loaded) is rendered from the frame it is chosen at, so its
    /// renderer is waited for there instead of being picked up by a later frame.
    private let framesCannotWait: Bool

    package init(library: SubtitleLibrary, choice: SubtitleChoice, framesCannotWait: Bool = false,
         wake: @escaping @Sendable () -> Void) {
        self.framesCannotWait = framesCannotWait
        self.library = library
        self.choice = choice
        self.wake = wake
    }

    /// Every track known so far (embedded first, then the files as they load).
    package var tracks: [SubtitleTrack] { library.tracks }

    /// The track shown, if any.
    package var currentTrack: SubtitleTrack? { shown.flatMap { index in tracks.indices.contains(index) ? tracks[index] : nil } }

    /// Chooses what to show. A language or number that matches nothing is refused (the current
    /// choice stays) with the error to report.
    package func select(_ newChoice: SubtitleChoice) -> PlayerError? {
        if let error = unmatched(newChoice) { return error }
        choice = newChoice
        trackCount = -1  // choose again at the next frame
        return nil
    }

    /// The choice the source started with, once, when it matches no track of the source or of the
    /// loaded files (nil before every file has loaded or failed, and after it was taken).
    package func takeUnmatchedStartChoice() -> PlayerError? {
        guard !checkedStartChoice, library.filesSettled else { return nil }
        checkedStartChoice = true
        return unmatched(choice)
    }
    private var checkedStartChoice = false

    /// `subtitleTrackNotFound` for a language or number that matches no track; tracks are numbered
    /// from 1 in messages, as `--sid` counts.
    private func unmatched(_ choice: SubtitleChoice) -> PlayerError? {
        guard choice.pick(from: tracks) == nil else { return nil }
        switch choice {
        case let .language(code): return .subtitleTrackNotFound(language: code, available: tracks.map(\.label))
        case let .number(number): return .subtitleTrackNotFound(language: "#\(number + 1)", available: tracks.map(\.label))
        case .off, .automatic, .file: return nil
        }
    }

    /// The next track, after the last one none, then the first again (mpv's `j`).
    package func cycle() {
        let count = tracks.count
        guard count > 0 else { return }
        if let shown, shown + 1 < count { choice = .number(shown + 1) } else if shown == nil { choice = .number(0) } else { choice = .off }
        trackCount = -1
    }

    /// Gets the chosen track ready at once (the files loaded, the renderer made), waiting at most
    /// `timeout` seconds: for a virtual clock, whose frames do not wait for anything.
    package func prepareNow(timeout: Double) {
        let deadline = MonotonicCondition.now + timeout
        library.waitForFiles(deadline: deadline)
        updateTrack()
        preparing?.wait()
    }

    /// The subtitle plane at `position` (seconds inside the pass) in a player area of `area` pixels
    /// where the picture is at `videoRect`; nil when nothing is shown.
    package func plane(at position: Double, area: PixelSize, videoRect: CGRect, videoSize: SubtitleCanvas) -> OverlayPlane? {
        updateTrack()
        guard visible, let shown else { return nil }
        readNewCues(of: shown)
        if isBitmap { return bitmapPlane(at: position, videoRect: videoRect) }
        if renderer == nil, let ready = preparing?.take() {
            renderer = ready
            preparing = nil
            cues.enumerated().forEach { renderer?.add($0.element, id: $0.offset) }
        }
        guard let renderer else { return nil }
        renderer.videoSize = videoSize
        let (image, changed) = renderer.render(at: position, area: (area.width, area.height), videoRect: videoRect)
        if changed || plane == nil {
            plane = image.map { OverlayPlane(layer: .subtitles, revision: nextRevision(), image: $0) }
        }
        return plane
    }

    /// Follows the choice (and tracks that appear later, e.g. an external file that loaded).
    private func updateTrack() {
        let count = library.trackCount
        guard count != trackCount else { return }
        trackCount = count
        let wanted = choice.pick(from: tracks)
        guard wanted != shown else { return }
        shown = wanted
        cues = []
        nextNumber = 0
        renderer = nil
        preparing = nil
        plane = nil
        bitmapShown = nil
        guard let wanted, let entry = library.read(track: wanted, from: 0) else { return }
        isBitmap = entry.track.isBitmap
        if !isBitmap {
            preparing = RendererPreparation(header: entry.header, done: wake)
            if framesCannotWait { preparing?.wait() }
        }
    }

    private func readNewCues(of track: Int) {
        guard let entry = library.read(track: track, from: nextNumber), !entry.cues.isEmpty else { return }
        for (number, cue) in entry.cues {
            nextNumber = number + 1
            // A picture cue whose open end was closed comes again: replace the open one.
            if let last = cues.indices.last, cues[last].end == .infinity, cues[last].start == cue.start {
                cues[last] = cue
                bitmapShown = nil
                continue
            }
            cues.append(cue)
            renderer?.add(cue, id: cues.count - 1)
        }
    }

    private func bitmapPlane(at position: Double, videoRect: CGRect) -> OverlayPlane? {
        guard let index = cues.lastIndex(where: { $0.isShown(at: position) }),
              case let .bitmap(bitmaps, canvas) = cues[index].content else {
            if bitmapShown != nil { plane = nil }
            bitmapShown = nil
            return nil
        }
        if let bitmapShown, bitmapShown.cue == index, bitmapShown.videoRect == videoRect { return plane }
        bitmapShown = (index, videoRect)
        plane = ASSRenderer.image(for: bitmaps, canvas: canvas, videoRect: videoRect)
            .map { OverlayPlane(layer: .subtitles, revision: nextRevision(), image: $0) }
        return plane
    }

    private func nextRevision() -> Int {
        revision += 1
        return revision
    }
}

/// Makes a libass renderer on a worker thread (fontconfig reads its caches, or builds them the
/// first time on a machine) and hands it over once ready.
private final class RendererPreparation: Sendable {
    private final class Slot: Sendable {
        let renderer = Mutex<ASSRenderer?>(nil)
    }

    private let slot: Slot
    private let worker: WorkerThread

    init(header: String?, done: @escaping @Sendable () -> Void) {
        let slot = Slot()
        self.slot = slot
        worker = WorkerThread(name: "lp-subrender") {
            do throws(PlayerError) {
                let made = try ASSRenderer(header: header)
                slot.renderer.withLock { $0 = made }
            } catch {
                logger.warning("subtitles: \(error.description)")
            }
            done()
        }
    }

    /// The renderer once made (nil before, or if it could not be made).
    func take() -> ASSRenderer? { slot.renderer.withLock { $0.take() } }

    /// Waits until the worker is done.
    func wait() { worker.join() }

    deinit { worker.join() }
}
