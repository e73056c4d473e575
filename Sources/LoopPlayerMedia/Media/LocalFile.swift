import Foundation
import LoopPlayerCore

/// What a local path is, told by `stat(2)` and `open(2)`, so that each way a file cannot be played
/// gets its own message instead of FFmpeg's (or a generic "not found").
package enum LocalFile {
    /// False only when nothing is there: `stat` fails with ENOENT or ENOTDIR. A symbolic link loop or
    /// a directory that cannot be searched count as present, so that `check` can say what is wrong;
    /// a search along a list of directories passes `searching` to pass over one it cannot search.
    package static func isPresent(_ path: String, searching: Bool = false) -> Bool {
        var status = stat()
        if stat(path, &status) == 0 { return true }
        let code = errno
        return code != ENOENT && code != ENOTDIR && !(searching && code == EACCES)
    }

    /// Whether `path` is a regular file (a folder of the same name is not a source).
    package static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` is a directory.
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Throws unless `path` is a non-empty regular file this process can read. Nothing is opened
    /// that could block: the type is checked before the file is opened, and it is opened with
    /// `O_NONBLOCK`.
    package static func check(_ path: String) throws(PlayerError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .sourceNotFound(source: path, searched: []) }
            throw .sourceInaccessible(source: path, reason: reason(code, statting: true))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: throw .specialFile(source: path, type: .namedPipe)
        case S_IFSOCK: throw .specialFile(source: path, type: .socket)
        case S_IFCHR: throw .specialFile(source: path, type: .characterDevice)
        case S_IFBLK: throw .specialFile(source: path, type: .blockDevice)
        default: throw .notAFile(source: path)
        }
        guard status.st_size > 0 else { throw .emptyFile(source: path) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .sourceInaccessible(source: path, reason: reason(errno, statting: false)) }
        close(descriptor)
    }

    /// `errno` in words; `statting` tells a failed `stat` (a directory on the path) from a failed open.
    private static func reason(_ code: Int32, statting: Bool) -> String {
        switch code {
        case ELOOP: "a loop of symbolic links"
        case EACCES where statting: "permission denied: a directory on its path cannot be searched"
        case EACCES, EPERM: "permission denied: the file cannot be read"
        case ENAMETOOLONG: "the name is too long"
        default: String(cString: strerror(code))
        }
    }
}

/// Which file a path names, and which version of it: device, inode, size and modification time.
/// Signage replaces content by copying over a file (same inode, new size or time) or by renaming a
/// new one onto it (new inode); either changes this.
package struct FileIdentity: Sendable, Equatable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: timespec

    /// The identity of what `path` names now; nil if nothing (readable) is there.
    package static func of(_ path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                            modified: status.st_mtim)
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }
}

