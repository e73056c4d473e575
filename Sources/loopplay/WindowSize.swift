import ArgumentParser

/// `WxH`, e.g. `1280x720`.
struct WindowSize: ExpressibleByArgument {
    let width: Int
    let height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
            return nil
        }
        width = w
        height = h
    }
}
