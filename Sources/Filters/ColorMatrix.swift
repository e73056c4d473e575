/// A 3×3 RGB colour matrix: each output channel is a weighted sum of the input channels.
public struct ColorMatrix: Sendable, Equatable, Hashable {
    /// Row-major: rr rg rb, gr gg gb, br bg bb.
    public var values: [Double]

    /// Nine coefficients, row-major (rr rg rb, gr gg gb, br bg bb); any other count is a programming error.
    public init(_ values: [Double]) {
        precondition(values.count == 9, "a colour matrix has 9 coefficients")
        self.values = values
    }

    /// Leaves every colour as it is.
    public static let identity = ColorMatrix([1, 0, 0, 0, 1, 0, 0, 0, 1])
    /// The usual sepia tone matrix.
    public static let sepia = ColorMatrix([0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131])

    /// `self` moved towards `other` by `amount` (0 = self, 1 = other).
    public func mixed(with other: ColorMatrix, amount: Double) -> ColorMatrix {
        ColorMatrix(zip(values, other.values).map { $0 + ($1 - $0) * amount })
    }

    var graphDescription: String {
        let names = ["rr", "rg", "rb", "gr", "gg", "gb", "br", "bg", "bb"]
        return "colorchannelmixer=" + zip(names, values).map { "\($0)=\(String(format: "%.6f", $1))" }.joined(separator: ":")
    }
}
