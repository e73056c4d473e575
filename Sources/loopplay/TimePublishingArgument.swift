/// `--time-publishing` takes an optional value, which swift-argument-parser cannot express.
enum TimePublishingArgument {
    static let flag = "--time-publishing"

    /// Inserts "1" after a `--time-publishing` not followed by its value. The next argument is the
    /// value when it looks like a number (a sign, a digit or a point first) or is empty, so that
    /// `--time-publishing -2` and `--time-publishing ''` reach the range check; anything else (a
    /// source, another flag) is not.
    static func withDefaultInterval(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            result.append(argument)
            guard argument == flag else { continue }
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if !(next.map(looksLikeValue) ?? false) { result.append("1") }
        }
        return result
    }

    private static func looksLikeValue(_ text: String) -> Bool {
        guard let first = text.first else { return true }
        // Not numbers, but meant as one (`--time-publishing nan` is refused, not taken for a source).
        if ["nan", "inf", "infinity", "+inf", "-inf"].contains(text.lowercased()) { return true }
        return first.isNumber || first == "." || first == "+" || (first == "-" && text.dropFirst().first.map { $0.isNumber || $0 == "." } == true)
    }
}
