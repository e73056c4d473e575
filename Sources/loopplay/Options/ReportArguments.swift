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

    @Option(help: ArgumentHelp("Say so (stderr, event, metric, systemd status) when the video picture has been (almost) black for longer than SECONDS.",
                               valueName: "seconds"))
    var alertBlack: Double?

    @Option(help: ArgumentHelp("Say so when the picture on screen has stopped changing for longer than SECONDS although it should "
                               + "be moving: a source that stopped delivering (a still picture looping is not frozen).",
                               valueName: "seconds"))
    var alertFrozen: Double?

    @Option(help: ArgumentHelp("Append a JSON line per play of an item (proof of play: source, start and end, frames, how it ended) to FILE; "
                               + "SIGUSR1 reopens it, and so does SIGHUP when stderr is not a terminal (a service).", valueName: "file"))
    var playLog: String?

    @Option(help: ArgumentHelp("Past SIZE bytes (K, M, G: 1024s) the play log is renamed FILE.1 and a new one begun.", valueName: "size"))
    var playLogSize: String?

    /// `--play-log-size` in bytes (4 KiB … 1 TiB), or why it is not one.
    static func byteSize(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.uppercased())] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard digits.count <= 13, digits.allSatisfy(\.isASCII), let value = Int(digits) else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: unit ?? 1)
        return !overflow && (4 << 10...1 << 40).contains(bytes) ? bytes : nil
    }

    /// The play log asked for, opened (`writeFailed` when the file cannot be written).
    func openPlayLog() throws(PlayerError) -> PlayLog? {
        guard let playLog else { return nil }
        return try PlayLog(path: playLog, sizeLimit: playLogSize.flatMap(Self.byteSize))
    }

    /// The picture alerts asked for.
    var pictureAlerts: PictureAlerts { PictureAlerts(black: alertBlack, frozen: alertFrozen) }

    func validate() throws {
        if let playLogSize {
            guard playLog != nil else { throw ValidationError("--play-log-size rotates the play log: give --play-log too") }
            guard Self.byteSize(playLogSize) != nil else {
                throw ValidationError("--play-log-size must be a size from 4K to 1024G (bytes, or K, M, G)")
            }
        }
        let range = PictureAlerts.validRange
        for (flag, value) in [("--alert-black", alertBlack), ("--alert-frozen", alertFrozen)] {
            if let value, !range.contains(value) {
                throw ValidationError("\(flag) must be \(Int(range.lowerBound))…\(Int(range.upperBound)) seconds")
            }
        }
        if let timePublishing, !TimePublishing.validRange.contains(timePublishing) {
            let range = TimePublishing.validRange
            throw ValidationError("--time-publishing must be \(range.lowerBound)…\(range.upperBound) seconds")
        }
    }
}
