enum TimePublishingArgument {
    static let flag = "--time-publishing"

    /// Inserts "1" after a `--time-publishing` that is not followed by a number.
    static func withDefaultInterval(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            result.append(argument)
            guard argument == flag else { continue }
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if next.flatMap(Double.init) == nil { result.append("1") }
        }
        return result
    }
}
