import ArgumentParser
import LoopPlayer

// `--time-publishing` takes an optional value (`--time-publishing` alone means every second), which
// swift-argument-parser cannot express: supply the default before parsing.
SignalWatch.start()
let arguments = TimePublishingArgument.withDefaultInterval(Array(CommandLine.arguments.dropFirst()))
do {
    var command = try Loopplay.parseAsRoot(arguments)
    try command.run()
} catch {
    // Usage errors quote the arguments: their control characters are escaped like those of every
    // other error line (one line, nothing for the terminal to act on).
    let message = Loopplay.message(for: error)
    let escaped = PrintableText.escaping(message)
    Loopplay.exit(withError: escaped == message ? error : ValidationError(escaped))
}
