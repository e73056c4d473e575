import ArgumentParser
import Foundation
import LoopPlayer

/// Network sources: the HLS variant, how long a failing source is given, what may be opened.
struct NetworkArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("HLS variant: max, min, auto (by measured throughput and window size, switching while playing) or bits per second (1500000, 1500k, 1.5M: the highest not above it).",
                               valueName: "max|min|auto|bits"),
            completion: .list(["max", "min", "auto"]))
    var hlsBitrate: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Seconds a network source may keep failing (server gone, stalled) before it is an error (\(NetworkTimeout.validRange.lowerBound)…\(NetworkTimeout.validRange.upperBound), default \(NetworkTimeout.defaultValue)).",
                               valueName: "seconds"))
    var networkTimeout: Double?

    @Option(help: ArgumentHelp("Hosts sources may come from, comma-separated (*.example.com matches subdomains); others are refused.",
                               valueName: "hosts"))
    var allowedHosts: String?

    @Option(help: ArgumentHelp("URL schemes sources may use, comma-separated (default file,http,https).", valueName: "schemes"))
    var allowedSchemes: String?

    func validate() throws {
        _ = try variant()
        if let networkTimeout, !NetworkTimeout.validRange.contains(networkTimeout) {
            let range = NetworkTimeout.validRange
            throw ValidationError("--network-timeout must be \(range.lowerBound)…\(range.upperBound) seconds")
        }
        _ = try allowedSources()
    }

    func variant() throws -> VariantPreference? {
        guard let hlsBitrate else { return nil }
        do { return try VariantPreference(parsing: hlsBitrate) } catch {
            throw ValidationError("invalid --hls-bitrate '\(hlsBitrate)': expected max, min, auto or bits per second")
        }
    }

    func allowedSources() throws -> AllowedSources? {
        guard allowedHosts != nil || allowedSchemes != nil else { return nil }
        func list(_ text: String, _ flag: String) throws -> [String] {
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard !items.isEmpty, !items.contains(where: \.isEmpty) else { throw ValidationError("\(flag) needs a comma-separated list") }
            return items
        }
        return AllowedSources(schemes: try allowedSchemes.map { Set(try list($0, "--allowed-schemes")) } ?? AllowedSources.standard.schemes,
                              hosts: try allowedHosts.map { try list($0, "--allowed-hosts") })
    }

    /// Applies these flags to `settings`.
    func apply(to settings: inout VideoSettings) throws {
        if let variant = try variant() { settings.hlsVariant = variant }
        if let networkTimeout { settings.networkTimeout = networkTimeout }
        if let allowed = try allowedSources() { settings.allowedSources = allowed }
    }
}
