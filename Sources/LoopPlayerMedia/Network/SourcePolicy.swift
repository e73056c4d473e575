import Foundation
import LoopPlayerCore

/// What a source may lead to, judged before anything is opened.
///
/// The rule, one hop at a time (the referrer is the document that names the target):
/// - **Remote** (an http/https source or playlist): it may lead only to http(s) resources. Never to
///   a local file, a device, a pipe or another FFmpeg protocol (`file:`, `concat:`, `subfile:`,
///   `data:`, `pipe:`, `tcp:`, `udp:`, `rtmp:`, `crypto:`…), whether through a playlist entry or a
///   redirect.
/// - **Local media** (a file that is not a playlist): it leads nowhere; FFmpeg may open that one
///   file only.
/// - **Local playlist** (an `.m3u8`/`.m3u` file the user chose): it may lead to files inside its
///   own folder (after percent-decoding and removing `.`/`..`, so `../` and `%2e%2e/` cannot climb
///   out; judged on the real path, so a symbolic link cannot point out either) and to http(s) resources, since the user chose a
///   playlist that names them. What a remote resource leads to is then judged as remote.
/// - Every target and the source itself must also pass the app's `AllowedSources` (scheme, and
///   host for network URLs), and a network host must be plain (no `%`, `\`, spaces): the host
///   judged is the one FFmpeg connects to (`http://good.com@evil.com/` is evil.com).
///
/// ```swift
/// let policy = SourcePolicy(allowed: AllowedSources(schemes: ["https"], hosts: ["*.example.com"]))
/// policy.check(source: "https://cdn.example.com/master.m3u8")          // .allow(…, .remote)
/// policy.check(URL(string: "file:///etc/passwd")!, from: .remote)
/// // .refuse("refused file:///etc/passwd: a remote source may only lead to http(s) resources")
/// ```
package struct SourcePolicy: Sendable, Equatable {
    package var allowed: AllowedSources

    package init(allowed: AllowedSources = .standard) {
        self.allowed = allowed
    }

    /// Judges the user's own source: a URL or an absolute path.
    package func check(source: String) -> SourceDecision {
        let parts = URLAuthority(source)
        guard let scheme = parts.scheme else {
            // A path may hold spaces; never control characters.
            guard !source.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                return .refuse(SourceRefusal(target: source, reason: "the path holds control characters"))
            }
            guard source.hasPrefix("/") else {
                return .refuse(SourceRefusal(target: source, reason: "not an absolute path or URL"))
            }
            return checkLocalSource(path: source, original: source)
        }
        if let refusal = Self.unsafeCharacters(in: source) { return .refuse(SourceRefusal(target: source, reason: refusal)) }
        guard allowed.allows(scheme: scheme) else {
            return .refuse(SourceRefusal(target: source, reason: "the scheme \(scheme) is not allowed"))
        }
        switch scheme {
        case "file":
            guard let url = URL(string: source), parts.host == nil || parts.host == "" || parts.host == "localhost" else {
                return .refuse(SourceRefusal(target: source, reason: "not a local file URL"))
            }
            return checkLocalSource(path: url.path, original: source)
        case "http", "https":
            if let refusal = hostRefusal(parts) { return .refuse(SourceRefusal(target: source, reason: refusal)) }
            guard let url = URL(string: source) else { return .refuse(SourceRefusal(target: source, reason: "not a valid URL")) }
            return .allow(url, .remote)
        default:
            // Allowed by the app (say rtsp); FFmpeg opens it with that protocol only.
            guard let url = URL(string: source) else { return .refuse(SourceRefusal(target: source, reason: "not a valid URL")) }
            return .allow(url, .other(scheme: scheme))
        }
    }

    /// Judges `target`, named by a document of kind `referrer` (a playlist entry, a redirect).
    package func check(_ target: URL, from referrer: SourceKind) -> SourceDecision {
        let text = target.absoluteString
        let refuse = { (reason: String) in SourceDecision.refuse(SourceRefusal(target: text, reason: reason)) }
        if let refusal = Self.unsafeCharacters(in: text) { return refuse(refusal) }
        let parts = URLAuthority(text)
        guard let scheme = parts.scheme else { return refuse("not an absolute URL") }
        let network = scheme == "http" || scheme == "https"
        switch referrer {
        case .remote:
            guard network else { return refuse("a remote source may only lead to http(s) resources") }
        case .localMedia, .other:
            return refuse("a \(referrer) source may not open other resources")
        case let .localPlaylist(folder):
            if scheme == "file" {
                guard parts.host == nil || parts.host == "" || parts.host == "localhost" else {
                    return refuse("not a local file URL")
                }
                guard allowed.allows(scheme: "file") else { return refuse("the scheme file is not allowed") }
                let path = target.path
                // Judged on the real paths: a link inside the folder may point out of it.
                guard let lexical = Self.normalizedPath(path), let lexicalRoot = Self.normalizedPath(folder) else {
                    return refuse("a local playlist may only lead to files inside its folder \(folder)")
                }
                let clean = Self.realPath(lexical), root = Self.realPath(lexicalRoot)
                guard clean.hasPrefix(root == "/" ? "/" : root + "/") else {
                    return refuse("a local playlist may only lead to files inside its folder \(folder)")
                }
                return .allow(URL(fileURLWithPath: clean), Self.isPlaylist(clean) ? .localPlaylist(folder: folder) : .localMedia)
            }
            guard network else { return refuse("a local playlist may only lead to files in its folder and http(s) resources") }
        }
        guard allowed.allows(scheme: scheme) else { return refuse("the scheme \(scheme) is not allowed") }
        if let refusal = hostRefusal(parts) { return refuse(refusal) }
        return .allow(target, .remote)
    }

    /// The `protocol_whitelist` to give FFmpeg when it opens a source of `kind` itself.
    ///
    /// `tls` and `tcp` are the protocols https and http run on (FFmpeg checks nested protocols
    /// against the same list). A local playlist's list includes `file`: FFmpeg's own hls demuxer
    /// would then open any file it names, so local playlists should go through our own HLS client,
    /// which applies the folder rule above.
    package static func protocolWhitelist(for kind: SourceKind) -> String {
        switch kind {
        case .remote: "http,https,tls,tcp"
        case .localMedia: "file"
        case .localPlaylist: "file,http,https,tls,tcp"
        case let .other(scheme): scheme
        }
    }

    // MARK: Rules

    private func checkLocalSource(path: String, original: String) -> SourceDecision {
        guard allowed.allows(scheme: "file") else {
            return .refuse(SourceRefusal(target: original, reason: "local files are not allowed"))
        }
        guard let clean = Self.normalizedPath(path) else {
            return .refuse(SourceRefusal(target: original, reason: "not a valid path"))
        }
        let folder = (clean as NSString).deletingLastPathComponent
        return .allow(URL(fileURLWithPath: clean), Self.isPlaylist(clean) ? .localPlaylist(folder: folder) : .localMedia)
    }

    private func hostRefusal(_ parts: URLAuthority) -> String? {
        guard let host = parts.host, !host.isEmpty else { return "the URL has no host" }
        guard URLAuthority.isPlainHost(host) else { return "the host '\(host)' is not a plain host name or address" }
        guard allowed.allows(host: host) else { return "the host \(host) is not in the allowed hosts" }
        return nil
    }

    /// Control characters and spaces: FFmpeg and servers read them differently than we would.
    private static func unsafeCharacters(in text: String) -> String? {
        text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F } ? "the URL holds spaces or control characters" : nil
    }

    /// An absolute path with `.`, `..` and repeated slashes removed lexically; nil when it is not
    /// absolute or holds a NUL.
    private static func normalizedPath(_ path: String) -> String? {
        guard path.hasPrefix("/"), !path.contains("\0") else { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` (absolute, normalised) with every symbolic link resolved (`realpath`); for a file that
    /// does not exist, its nearest existing folder's real path and the rest of the path as it is.
    private static func realPath(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                return rest.reversed().reduce(String(cString: resolved)) { ($0 == "/" ? "" : $0) + "/" + $1 }
            }
            let parent = (existing as NSString).deletingLastPathComponent
            guard parent != existing, !parent.isEmpty else { return path }
            rest.append((existing as NSString).lastPathComponent)
            existing = parent
        }
    }

    package static func isPlaylist(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        return ext == "m3u8" || ext == "m3u"
    }
}

/// What a source is, which decides what it may lead to (see `SourcePolicy`).
package enum SourceKind: Sendable, Equatable, CustomStringConvertible {
    /// http or https.
    case remote
    /// A local file that is not a playlist.
    case localMedia
    /// A local playlist; `folder` is the folder of the playlist the user chose (nested local
    /// playlists keep it).
    case localPlaylist(folder: String)
    /// Another scheme the app allowed for its own sources (rtsp, say); it leads nowhere.
    case other(scheme: String)

    package var description: String {
        switch self {
        case .remote: "remote"
        case .localMedia: "local media"
        case .localPlaylist: "local playlist"
        case let .other(scheme): scheme
        }
    }
}

/// The verdict on one URL.
package enum SourceDecision: Sendable, Equatable {
    /// Open `url` (normalised: a local path without `..`); it is of `kind`.
    case allow(URL, SourceKind)
    case refuse(SourceRefusal)

    package var isAllowed: Bool {
        if case .allow = self { return true }
        return false
    }
}
