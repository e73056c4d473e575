// Frames-only mode: every frame goes to a callback (for another toolkit, or analysis). Here: three
// seamless passes of the bundled sample, as fast as it decodes, printing where each pass starts.
// Run: swift run HeadlessFrames [source]
import LoopPlayer

let source = CommandLine.arguments.dropFirst().first ?? "swipe"
let player = ExtVideoPlayer { VideoSettings { SourceName(source); Loop() } }
var lastPass = -1
let outcome = player.runFrames(timing: .untimed, until: StopCondition(loops: 3)) { frame in
    if frame.pass != lastPass {
        print("pass \(frame.pass) starts at \(frame.time) s (\(frame.width)x\(frame.height))")
        lastPass = frame.pass
    }
}
let stats = player.statistics
print("\(outcome): \(stats.framesPresented) frames, \(stats.loopsCompleted) loops, \(stats.seamsMeasured) seams, at most \(stats.seamMaxDeviationMs) ms off a frame interval")
