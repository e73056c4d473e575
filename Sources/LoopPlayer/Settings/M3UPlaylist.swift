import Foundation

/// An .m3u playlist file: one source per line (a path, a URL or a bare name); blank lines and
/// lines starting with `#` (comments, `#EXTM3U`, `#EXTINF`) are skipped. A relative path is taken
/// from the file's folder, as mpv does.
///
/// ```swift
/// let sources = try M3UPlaylist.entries(ofFile: "/srv/signage/today.m3u")
/// ```
package enum M3UPlaylist {
    /// The file could not be read, or is not UTF-8 text.
    package struct ReadError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The most bytes read: a list of sources is small, and the file could be anything.
    package static let maximumBytes = 4 << 20

    /// The entries of the playlist file at `path`.
    package static func entries(ofFile path: String) throws(ReadError) -> [String] {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ReadError(description: "cannot read the playlist \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
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
        // Absolute, so that an entry missing from it is said with the folder it was looked for in.
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let folder = ((absolute as NSString).standardizingPath as NSString).deletingLastPathComponent
        return entries(of: text, relativeTo: folder)
    }

    /// The entries of `text`. A relative path (it has a `/` or an extension) is taken from
    /// `folder`, whether or not it exists there (a missing one is then said with the folder); a
    /// bare name without an extension (`swipe`) is left to the resolver, and so are URLs and
    /// absolute paths.
    package static func entries(of text: String, relativeTo folder: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { entry in
                let isURL = entry.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil
                let isPath = entry.contains("/") || !(entry as NSString).pathExtension.isEmpty
                guard !isURL, !entry.hasPrefix("/"), !folder.isEmpty,
                      isPath || FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(entry)) else {
                    return entry
                }
                return (folder as NSString).appendingPathComponent(entry)
            }
    }
}
