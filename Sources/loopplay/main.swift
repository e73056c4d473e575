import ArgumentParser
import LoopPlayer

// `--time-publishing` takes an optional value (`--time-publishing` alone means every second), which
// swift-argument-parser cannot express: supply the default before parsing.
SignalWatch.start()
let commandLine = Array(CommandLine.arguments.dropFirst())
do {
    // The config files' settings go first: the command line's come after them and win.
    let config: LoadedConfig
    do { config = try LoadedConfig.load(commandLine: commandLine) } catch let error as ConfigError {
        StandardError.line(error.description)
        Loopplay.exit(withError: ExitCode(ExitCode.validationFailure.rawValue))
    }
    ConfigReload.start(with: config, commandLine: commandLine)
    var command = try Loopplay.parseAsRoot(config.argumentsBefore(commandLine))
    try command.run()
    ProcessEnd.ifSoundIsStuck(exitCode: 0)
} catch let error as ScheduleFileError {
    StandardError.line(error.line)
    Loopplay.exit(withError: ExitCode(ExitCode.validationFailure.rawValue))
} catch {
    ProcessEnd.ifSoundIsStuck(exitCode: Loopplay.exitCode(for: error).rawValue)
    let code = Loopplay.exitCode(for: error)
    // --help and --version (their text on stdout, exit 0), and failures already said in their line.
    guard code == .validationFailure, !(error is ExitCode) else { Loopplay.exit(withError: error) }
    // A usage error: one line naming what is wrong, its control characters escaped like those of
    // every other error line (nothing for the terminal to act on).
    let message = Loopplay.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "invalid arguments"
    let text = BuiltInFlagTypo.corrected(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)
    StandardError.line("\(text) (loopplay --help lists the options)")
    Loopplay.exit(withError: ExitCode(code.rawValue))
}
