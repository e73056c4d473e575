import Overlay
import Synchronization

/// Another player's scene drawn inside a player's picture: an inset (picture-in-picture within one
/// window). The inset's player runs without a window, on a thread of its own, laid out for the
/// inset's size; every scene it shows (its video with its overlays) becomes the top plane of the host
/// player's scenes — in its window (either path) and its snapshots alike.
///
/// ```swift
/// let door = ExtVideoPlayer { VideoSettings { SourceName("door.mp4"); Loop() } }
/// let inset = PlayerInset(door, frame: Rect(x: 20, y: 20, width: 320, height: 180))
/// lobby.send(.addInset(inset))   // starts `door`; `.removeAllInsets` (or the lobby ending) stops it
/// lobby.run()
/// ```
/// Commands, settings and events of the inset's player work as usual (send them to `player`).
public final class PlayerInset: Sendable {
    /// The player whose scenes the inset shows; send it commands and settings as usual.
    public let player: ExtVideoPlayer
    /// Where the inset goes in the host's player area, in output pixels.
    public let frame: Rect

    private struct State {
        var image: OverlayImage?
        var revision = 0
        var wakeHost: (@Sendable () -> Void)?
        var thread: WorkerThread?
    }

    private let state = Mutex(State())

    /// An inset showing `player`'s scenes at `frame` in the host's player area; add it with `.addInset`.
    public init(_ player: ExtVideoPlayer, frame: Rect) {
        self.player = player
        self.frame = frame
    }

    /// The latest scene of the inset's player, placed at `frame`, and its revision (nil before the first).
    var plane: (image: OverlayImage, revision: Int)? {
        state.withLock { state in state.image.map { ($0, state.revision) } }
    }

    /// A frame the inset can be drawn in: finite, within a million pixels, at least a pixel wide and high.
    func validate() throws(PlayerError) {
        let values = [frame.x, frame.y, frame.width, frame.height]
        guard values.allSatisfy({ $0.isFinite && abs($0) < 1_000_000 }),
              frame.width.rounded() >= 1, frame.height.rounded() >= 1 else {
            throw .invalidSetting(name: "PlayerInset", value: "\(frame)",
                                  reason: "the frame must be finite and at least one pixel wide and high")
        }
    }

    /// Starts the inset's player (once; its frame was validated); `wakeHost` is called whenever it
    /// shows a new scene.
    func start(wakeHost: @escaping @Sendable () -> Void) {
        let area = PixelSize(width: Int(frame.width.rounded()), height: Int(frame.height.rounded()))
        let origin = (x: Int(frame.x.rounded()), y: Int(frame.y.rounded()))
        let starting = state.withLock { state -> Bool in
            state.wakeHost = wakeHost
            return state.thread == nil
        }
        guard starting else { return }
        let thread = WorkerThread(name: "lp-inset") { [self] in
            let scaler = ScalerCache()
            // Weakly: the player keeps its session, whose output keeps this handler; a strong inset
            // here closed the loop inset → player → session → engine → output → handler → inset.
            player.runScenes(area: area) { [weak self] composed in
                // Opaque BGRA is its own premultiplied form: the rows are the plane's pixels.
                guard let self,
                      let pixels = try? Snapshot.bgra(of: composed.scene, area: composed.area, scaler: scaler) else { return }
                let image = OverlayImage(x: origin.x, y: origin.y, width: max(1, composed.area.width),
                                         height: max(1, composed.area.height), pixels: pixels)
                let wake = self.state.withLock { state -> (@Sendable () -> Void)? in
                    state.image = image
                    state.revision += 1
                    return state.wakeHost
                }
                wake?()
            }
        }
        state.withLock { $0.thread = thread }
    }

    /// Asks the inset's player to stop and returns its thread, to be joined later: its engine's
    /// close (joining a pipeline, closing a sound device) takes tens of milliseconds the host's
    /// thread, which may drive a whole group of windows, must not spend waiting.
    func requestStop() -> WorkerThread? {
        let thread = state.withLock { state -> WorkerThread? in
            defer { state.thread = nil; state.wakeHost = nil; state.image = nil }
            return state.thread
        }
        // Only a run of ours is stopped: a request left for no run would end the player's next one.
        if thread != nil { player.stop() }
        return thread
    }
}
