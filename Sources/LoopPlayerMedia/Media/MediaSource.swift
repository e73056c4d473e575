import Foundation
import LoopPlayerCore

/// Where media comes from once a user's source string is resolved.
package enum MediaLocation: Sendable, Equatable, CustomStringConvertible {
    /// A local file path.
    case file(String)
    /// A network URL handed to FFmpeg as is (http, https, HLS playlists, rtsp…).
    case url(String)

    /// The string FFmpeg opens.
    package var ffmpegURL: String {
        switch self {
        case let .file(path): path
        case let .url(url): url
        }
    }

    package var description: String { ffmpegURL }
}

/// Resolves a source string like the model does: a URL, a `file://` URL, a path, or a bare name
/// plus an extension looked up in a list of directories.
///
/// ```swift
/// let resolver = SourceResolver(searchDirectories: ["/srv/media"])
/// try resolver.resolve("swipe", ext: "mp4")   // .file("/srv/media/swipe.mp4")
/// ```
package struct SourceResolver: Sendable {
    /// Directories searched for a bare name, in order.
    package var searchDirectories: [String]

    package init(searchDirectories: [String]) {
        self.searchDirectories = searchDirectories
    }

    /// The default search order: the current directory, then each directory of
    /// `LOOPPLAYER_MEDIA_PATH` (colon-separated), then the library's bundled media.
    /// User directories come before the bundle so a user's file overrides the sample.
    package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SourceResolver {
        var directories = [FileManager.default.currentDirectoryPath]
        if let list = environment["LOOPPLAYER_MEDIA_PATH"] {
            directories += list.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        directories += BundledMedia.directories
        return SourceResolver(searchDirectories: directories)
    }

    /// Resolves `source`; `ext` is used only for a bare name without an extension.
    package func resolve(_ source: String, ext: String = "mp4") throws(PlayerError) -> MediaLocation {
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw .invalidSetting(name: "source", value: source, reason: "the source is empty")
        }
        if trimmed == "-" || trimmed.lowercased().hasPrefix("pipe:") || trimmed.lowercased().hasPrefix("fd:") {
            throw .invalidSetting(name: "source", value: source, reason: "standard input and pipes cannot be played: "
                + "a loop reads its source again from the start (save it to a file first)")
        }
        if let scheme = Self.scheme(of: trimmed) {
            guard scheme == "file" else { return .url(trimmed) }
            guard let path = URL(string: trimmed)?.path, !path.isEmpty else {
                throw .invalidSetting(name: "source", value: source, reason: "not a valid file URL")
            }
            return try existing(path, original: source)
        }
        let cleanExt = ext.hasPrefix(".") ? String(ext.dropFirst()) : ext
        let fileName = Self.hasExtension(trimmed) || cleanExt.isEmpty ? trimmed : "\(trimmed).\(cleanExt)"
        if trimmed.contains("/") || trimmed.hasPrefix("~") {
            let expanded = NSString(string: trimmed).expandingTildeInPath
            if LocalFile.isPresent(expanded) { return .file(expanded) }
            return try existing(NSString(string: fileName).expandingTildeInPath, original: source)
        }
        // The name with the extension first (the model's rule), then a file of that very name
        // (`loopplay recording` for a file without an extension).
        for directory in searchDirectories {
            let candidate = (directory as NSString).appendingPathComponent(fileName)
            if LocalFile.isPresent(candidate, searching: true) { return .file(candidate) }
            let bare = (directory as NSString).appendingPathComponent(trimmed)
            if fileName != trimmed, LocalFile.isRegularFile(bare) { return .file(bare) }
        }
        // `loopplay media` for a folder named media: say what it is, as `./media` does.
        if let folder = searchDirectories.lazy.map({ ($0 as NSString).appendingPathComponent(trimmed) })
            .first(where: { LocalFile.isDirectory($0) }) {
            throw .notAFile(source: folder)
        }
        throw .sourceNotFound(source: fileName, searched: searchDirectories)
    }

    /// `path` if something is there, even something that cannot be opened: loading it then says why.
    private func existing(_ path: String, original: String) throws(PlayerError) -> MediaLocation {
        guard LocalFile.isPresent(path) else {
            throw .sourceNotFound(source: original, searched: [])
        }
        return .file(path)
    }

    /// The URL scheme (lower-cased) if `source` starts with `scheme://`.
    package static func scheme(of source: String) -> String? {
        guard let range = source.range(of: "://") else { return nil }
        let scheme = source[..<range.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        return scheme.lowercased()
    }

    private static func hasExtension(_ name: String) -> Bool {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return false }
        return last.index(after: dot) != last.endIndex
    }
}

/// The media bundled with the library: the `Media` folder of a SwiftPM resource bundle
/// (`*.resources`) beside the executable, or of an installed program (`/usr/bin/loopplay` finds
/// `/usr/share/loopplay/Media`, where the Debian package puts the sample). Looked for rather than
/// named: the bundle is the target's that declares the resources in Package.swift (a layer above
/// this one, whose `Bundle.module` this layer cannot see, and whose accessor traps when the bundle
/// was not installed).
package enum BundledMedia {
    package static var directories: [String] {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            return []
        }
        let roots = [executable.path, executable.deletingLastPathComponent().path]  // xctest bundles sit one level down
        let bundles = roots.flatMap { root in
            ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
                .filter { $0.hasSuffix(".resources") }.sorted()
                .map { "\(root)/\($0)/Media" }
        }
        let installed = executable.deletingLastPathComponent().appendingPathComponent("share/loopplay/Media").path
        return (bundles + [installed]).filter { LocalFile.isDirectory($0) }
    }
}
