// `--time-publishing` takes an optional value (`--time-publishing` alone means every second), which
// swift-argument-parser cannot express: supply the default before parsing.
SignalWatch.start()
Loopplay.main(TimePublishingArgument.withDefaultInterval(Array(CommandLine.arguments.dropFirst())))
