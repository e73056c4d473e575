import Foundation

/// `scripts/bench/clockskew.c`, built at test time with the toolchain's C compiler: preloaded into a
/// player, its system clock (`CLOCK_REALTIME`) runs at another rate than the monotonic clock — as a
/// sound card's crystal runs against the system clock.
enum ClockSkew {
    static func library() throws -> String {
        if let built = built { return built }
        throw requirementMissing("a C compiler (clang or cc) to build clockskew.c")
    }

    /// The environment making `rate` the system clock's speed from now on.
    static func environment(rate: Double) throws -> [String: String?] {
        ["LD_PRELOAD": try library(), "SKEW_RATE": String(rate), "SKEW_ORIGIN": String(Date().timeIntervalSince1970)]
    }

    private static let built: String? = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/bench/clockskew.c").path
        let output = TestMedia.directory.appendingPathComponent("clockskew.so").path
        if FileManager.default.fileExists(atPath: output) { return output }
        // Built aside and renamed: a test process running beside this one never preloads half a file.
        let partial = output + ".part-\(getpid()).so"
        for compiler in ["clang", "cc"] {
            if let result = try? TestMedia.run(compiler, ["-shared", "-fPIC", "-O2", "-o", partial, source, "-ldl"]),
               result.status == 0, rename(partial, output) == 0 {
                return output
            }
        }
        return nil
    }()
}
