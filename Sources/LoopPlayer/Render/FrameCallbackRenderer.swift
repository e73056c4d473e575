/// Frames-only mode: hands every shown frame to the host (another toolkit draws it).
final class FrameCallbackRenderer: VideoRenderer {
    var gravity: VideoGravity = .default
    private let handler: (VideoFrame) -> Void

    init(handler: @escaping (VideoFrame) -> Void) { self.handler = handler }

    func display(_ frame: VideoFrame) {
        handler(frame)
    }

    func redisplay() {}
}
