import Foundation

/// Resource usage of this process, from `getrusage`.
package enum ProcessUsage {
    package static var peakRSSBytes: Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024  // kilobytes on Linux
    }

    package static var cpuSeconds: Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Current resident set, from /proc/self/statm.
    package static var currentRSSBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// When the process started, in seconds since the Unix epoch: the boot time (`btime` in
    /// /proc/stat) plus the process's start in clock ticks after boot (field 22 of /proc/self/stat).
    package static let startTime: Double = {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards),
              let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let boot = Double(bootLine.dropFirst(6)) else { return Date().timeIntervalSince1970 }
        // Fields after the command's name start at field 3 (the state).
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return Date().timeIntervalSince1970 }
        return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }()

    /// Number of threads of this process, from /proc/self/task.
    private static var threadCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
