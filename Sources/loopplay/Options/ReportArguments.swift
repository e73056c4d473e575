import ArgumentParser
import LoopPlayer

/// What loopplay prints while it plays: events, the position, the engine's log.
struct ReportArguments: ParsableArguments {
    @Flag(help: "Print each one-second batch of events as one JSON line on stdout.")
    var events = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Print the position every SECONDS (default 1) as one JSON line on stdout.", valueName: "seconds"))
    var timePublishing: Double?

    @Flag(help: "Log what the engine does.")
    var verbose = false

    func validate() throws {
        if let timePublishing, !TimePublishing.validRange.contains(timePublishing) {
            let range = TimePublishing.validRange
            throw ValidationError("--time-publishing must be \(range.lowerBound)…\(range.upperBound) seconds")
        }
    }
}
