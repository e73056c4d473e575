// Embedding example: play the bundled sample headless for three seamless passes and print
// what the engine saw. Run: swift run HeadlessFrames [source]
import LoopPlayer

let source = CommandLine.arguments.dropFirst().first ?? "swipe"
do {
    let engine = try PlaybackEngine(configuration: EngineConfiguration(
        output: .offscreen, looping: true, untimed: true, stop: StopCondition(loops: 3)))
    var lastPass = 0
    engine.onFramePresented = { frame in
        if frame.pass != lastPass { print("pass \(frame.pass) starts at \(frame.time) s"); lastPass = frame.pass }
    }
    try engine.load(source)
    let outcome = engine.run()
    let stats = engine.statistics
    print("\(outcome): \(stats.framesPresented) frames, \(stats.loopsCompleted) loops, seams \(stats.seamIntervalsMs) ms")
} catch {
    print("error: \(error)")
}
