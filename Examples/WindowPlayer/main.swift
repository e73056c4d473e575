// The player's own window: the bundled sample (or a source given as argument) in a seamless loop,
// with events and time printed as they arrive. Run: swift run WindowPlayer [source]
import LoopPlayer

let source = CommandLine.arguments.dropFirst().first ?? "swipe"
let player = ExtVideoPlayer {
    VideoSettings {
        SourceName(source)
        Loop()
        Gravity(.resizeAspect)
        TimePublishing(1)
        Events([.playing, .paused, .loopCompletedAny, .errorAny])
        ErrorGroup { EColor(.white); EFontSize(20) }
    }
}
.onPlayerTimeChange { seconds in print("at \(seconds) s") }
.onPlayerEventChange { events in print("events: \(events)") }

// The window and its events live on the main thread; run() returns when the window is closed.
let outcome = player.run()
print("\(outcome); \(player.statistics.loopsCompleted) loops")
