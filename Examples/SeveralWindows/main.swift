// Several players in one process, each looping its own source in its own window, all driven by one
// loop on the main thread (PlayerGroup). With `--pip` the first player opens its picture-in-picture
// mini window after two seconds; with `--inset SOURCE` the first window also shows SOURCE, played by
// another player, as a 320x180 inset in its top-left corner.
// Run: swift run SeveralWindows [--duration S] [--pip] [--inset SOURCE] SOURCE...
//      (default: the bundled sample, three times)
// At the end each player's counters are printed as one JSON line.
import Foundation
import LoopPlayer

var arguments = Array(CommandLine.arguments.dropFirst())
var duration: Double?
var pip = false
var insetSource: String?
var sources: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--duration": duration = arguments.isEmpty ? nil : Double(arguments.removeFirst())
    case "--pip": pip = true
    case "--inset": insetSource = arguments.isEmpty ? nil : arguments.removeFirst()
    default: sources.append(argument)
    }
}
if sources.isEmpty { sources = ["swipe", "swipe", "swipe"] }

let players = sources.map { source in
    ExtVideoPlayer { VideoSettings { SourceName(source); Loop(); Mute(); PictureInPicture(width: 320) } }
}
// Side by side, 640x360 each, three to a row.
let windows = sources.indices.map { index in
    WindowOptions(title: "player \(index + 1)", size: (640, 360), position: ((index % 3) * 640, (index / 3) * 400))
}
let group = PlayerGroup(players, windows: windows)
// SIGTERM and SIGINT end every player (their threads joined), then the counters are printed.
nonisolated(unsafe) var signalSources: [any DispatchSourceSignal] = []
for signalNumber in [SIGTERM, SIGINT] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber)
    source.setEventHandler { [group] in group.stop() }
    source.resume()
    signalSources.append(source)
}
let insetPlayer = insetSource.map { source in ExtVideoPlayer { VideoSettings { SourceName(source); Loop(); Mute() } } }
if let insetPlayer, let first = players.first {
    first.send(.addInset(PlayerInset(insetPlayer, frame: Rect(x: 16, y: 16, width: 320, height: 180))))
}
if pip, let first = players.first {
    DispatchQueue.global().asyncAfter(deadline: .now() + 2) { [first] in first.send(.startPiP) }
}

let outcomes = group.run(until: StopCondition(duration: duration))
for (index, (player, outcome)) in zip(players, outcomes).enumerated() {
    let s = player.statistics
    print("{\"player\":\(index + 1),\"outcome\":\"\(outcome)\",\"framesPresented\":\(s.framesPresented),"
        + "\"framesDropped\":\(s.framesDropped),\"loopsCompleted\":\(s.loopsCompleted)}")
}
if let s = insetPlayer?.statistics {
    print("{\"player\":\"inset\",\"framesPresented\":\(s.framesPresented),\"framesDropped\":\(s.framesDropped)}")
}
