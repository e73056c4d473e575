// Several players in one process, each looping its own source in its own window, all driven by one
// loop on the main thread (PlayerGroup). With `--pip` the first player opens its picture-in-picture
// mini window after two seconds.
// Run: swift run SeveralWindows [--duration S] [--pip] SOURCE...    (default: the bundled sample, three times)
// At the end each player's counters are printed as one JSON line.
import Foundation
import LoopPlayer

var arguments = Array(CommandLine.arguments.dropFirst())
var duration: Double?
var pip = false
var sources: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--duration": duration = arguments.isEmpty ? nil : Double(arguments.removeFirst())
    case "--pip": pip = true
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
if pip, let first = players.first {
    DispatchQueue.global().asyncAfter(deadline: .now() + 2) { [first] in first.send(.startPiP) }
}

let outcomes = group.run(until: StopCondition(duration: duration))
for (index, (player, outcome)) in zip(players, outcomes).enumerated() {
    let s = player.statistics
    print("{\"player\":\(index + 1),\"outcome\":\"\(outcome)\",\"framesPresented\":\(s.framesPresented),"
        + "\"framesDropped\":\(s.framesDropped),\"loopsCompleted\":\(s.loopsCompleted)}")
}
