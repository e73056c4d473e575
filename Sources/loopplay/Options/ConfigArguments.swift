import ArgumentParser

/// Config files: read before the command line is parsed (`LoadedConfig`); declared here so that the
/// parser takes them and `--help` lists them.
struct ConfigArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Read settings from FILE too, after $XDG_CONFIG_HOME/loopplay/loopplay.conf: loopplay's "
                               + "option names in mpv.conf's syntax (name=value, bare flags, # comments); the command "
                               + "line wins. SIGHUP reads them again.", valueName: "file"),
            completion: .file(extensions: ["conf"]))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Do not read $XDG_CONFIG_HOME/loopplay/loopplay.conf.")
    var noConfig = false
}
