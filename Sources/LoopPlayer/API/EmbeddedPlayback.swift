/// Renders an `ExtVideoPlayer` into a host application's own SDL renderer and loop.
///
/// ```swift
/// let video = try EmbeddedPlayback(player: player, renderer: appRenderer)
/// while running {
///     // … the app's SDL_WaitEventTimeout / event handling …
///     let next = video.update()            // seconds until it wants to be called again
///     SDL_RenderClear(appRenderer)
///     video.draw(in: Rect(x: 20, y: 20, width: 640, height: 360))
///     SDL_RenderPresent(appRenderer)
/// }
/// ```
/// Pipeline threads wake the host's `SDL_WaitEvent*` with a user event when a frame is decoded.
/// Use from the thread that owns the host's renderer, and `close()` it before destroying that renderer.
public final class EmbeddedPlayback {
    /// Held strongly: the session only refers back to it.
    public let player: ExtVideoPlayer
    private let session: PlayerSession
    private let embedded: EmbeddedOutput

    /// `renderer` is the host's `SDL_Renderer *`.
    public init(player: ExtVideoPlayer, renderer: OpaquePointer, timing: ExtVideoPlayer.Timing = .realTime,
                until stop: StopCondition = .never) throws(PlayerError) {
        self.player = player
        embedded = EmbeddedOutput(renderer: renderer)
        session = try PlayerSession(player: player, output: .offscreen, custom: embedded, timing: timing, stop: stop)
        player.session = session
        let engine = session.engine
        embedded.onAreaChange = { [unowned engine] in engine.screen.redraw() }
        session.start()
    }

    /// Stops playback and frees the texture: call before destroying the host's renderer (the
    /// texture belongs to it). Idempotent; also done on deinit.
    public func close() {
        guard !closed else { return }
        closed = true
        session.finish()
    }

    private var closed = false

    deinit { close() }

    /// Applies commands and settings and shows at most one due frame. Returns the seconds until it
    /// wants to be called again (0: at once), or nil to wait for the next SDL event: a decoded frame
    /// or a command wakes the host's event wait. After a stop condition, `state` tells why.
    @discardableResult
    public func update() -> Double? {
        guard !closed else { return nil }
        return session.engine.pump(controller: session).nextIn
    }

    /// Draws the current frame into `area` of the host's renderer with the player's gravity.
    public func draw(in area: Rect) {
        guard !closed else { return }
        embedded.draw(in: area)
    }

    /// The engine's state (same as `player.state`).
    public var state: PlayerState { session.engine.state }
}
