import Foundation

/// An .m3u playlist file: one source per line (a path, a URL or a bare name); blank lines and
/// lines starting with `#` (comments, `#EXTM3U`, `#EXTINF`) are skipped. A relative path is taken
/// from the file's folder, as mpv does.
///
/// ```swift
/// let sources = try M3UPlaylist.entries(ofFile: "/srv/signage/today.m3u")
/// ```
public enum M3UPlaylist {
    /// The file could not be read, or is not UTF-8 text.
    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The most bytes read: a list of sources is small, and the file could be anything.
    public static let maximumBytes = 4 << 20

    /// The entries of the playlist file at `path`.
    public static func entries(ofFile path: String) throws(ReadError) -> [String] {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ReadError(description: "cannot read the playlist \(path): not a regular file")
        }
        guard status.st_size <= maximumBytes else {
            throw ReadError(description: "the playlist \(path) is larger than \(maximumBytes >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "cannot read the playlist \(path)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw ReadError(description: "the playlist \(path) is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // a byte order mark
        let folder = (path as NSString).deletingLastPathComponent
        return entries(of: text, relativeTo: folder)
    }

    /// The entries of `text`; relative paths that exist in `folder` are taken from it.
    public static func entries(of text: String, relativeTo folder: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { entry in
                let isURL = entry.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil
                guard !isURL, !entry.hasPrefix("/"), !folder.isEmpty,
                      FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(entry)) else {
                    return entry  // a URL, an absolute path, or a bare name for the resolver
                }
                return (folder as NSString).appendingPathComponent(entry)
            }
    }
}
