import Foundation

/// A vector path in player-area coordinates (output pixels, y down), built like a `CGPath`.
///
/// ```swift
/// var path = VectorPath()
/// path.move(to: CGPoint(x: 20, y: 20))
/// path.addLine(to: CGPoint(x: 200, y: 20))
/// path.addRoundedRect(CGRect(x: 20, y: 60, width: 180, height: 90), cornerRadius: 12)
/// path.addEllipse(in: CGRect(x: 240, y: 20, width: 80, height: 80))
/// ```
///
/// Arcs, ellipses and rounded corners are stored as cubic Bézier curves, so every path is made of the
/// five ``Element`` kinds and two paths built the same way can be morphed into each other.
/// Like Cairo, a line or curve with no current point starts a subpath instead of failing.
public struct VectorPath: Sendable, Equatable {
    /// One step of a path.
    public enum Element: Sendable, Equatable {
        /// Starts a new subpath at the point.
        case move(to: CGPoint)
        /// A straight line from the current point.
        case line(to: CGPoint)
        /// A quadratic Bézier curve from the current point, bending towards `control`.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier curve from the current point, shaped by two control points.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// A straight line back to the start of the subpath, closing it.
        case closeSubpath
    }

    /// The path's steps in order; build them with the methods or `init(elements:)`.
    public private(set) var elements: [Element] = []
    /// Where the next element starts; nil before the first `move`.
    public private(set) var currentPoint: CGPoint?
    private var subpathStart: CGPoint?

    /// An empty path: it draws nothing until elements are added.
    public init() {}

    /// A path made of these elements, e.g. one read back from ``elements``.
    public init(elements: [Element]) {
        for element in elements { append(element) }
    }

    /// True when the path has no elements (it draws nothing).
    public var isEmpty: Bool { elements.isEmpty }

    /// The smallest rectangle holding every point of the path, control points included
    /// (`CGRect.null` for an empty path).
    public var boundingBox: CGRect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for point in elements.flatMap(\.points) {
            minX = min(minX, Double(point.x)); maxX = max(maxX, Double(point.x))
            minY = min(minY, Double(point.y)); maxY = max(maxY, Double(point.y))
        }
        guard minX <= maxX, minY <= maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: CGPoint) { append(.move(to: point)) }

    /// A straight line from the current point.
    public mutating func addLine(to point: CGPoint) { append(.line(to: point)) }

    /// A quadratic Bézier curve from the current point.
    public mutating func addQuadCurve(to point: CGPoint, control: CGPoint) {
        append(.quadCurve(to: point, control: control))
    }

    /// A cubic Bézier curve from the current point.
    public mutating func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {
        append(.curve(to: point, control1: control1, control2: control2))
    }

    /// Closes the current subpath with a line back to its start.
    public mutating func closeSubpath() { append(.closeSubpath) }

    /// A closed rectangle (clockwise on screen from its top-left corner).
    public mutating func addRect(_ rect: CGRect) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY))
        addLine(to: CGPoint(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// Appends every element of `path`.
    public mutating func addPath(_ path: VectorPath) {
        for element in path.elements { append(element) }
    }

    mutating func append(_ element: Element) {
        switch element {
        case .move(let point):
            subpathStart = point
            currentPoint = point
        case .line(let point) where currentPoint == nil:
            append(.move(to: point))
            return
        case .line(let point), .quadCurve(let point, _), .curve(let point, _, _):
            if currentPoint == nil { append(.move(to: element.points[0])) }
            currentPoint = point
        case .closeSubpath:
            guard currentPoint != nil else { return }
            currentPoint = subpathStart
        }
        elements.append(element)
    }
}

extension VectorPath.Element {
    /// The points of the element: controls first, end point last (empty for `closeSubpath`).
    var points: [CGPoint] {
        switch self {
        case .move(let point), .line(let point): return [point]
        case .quadCurve(let point, let control): return [control, point]
        case .curve(let point, let control1, let control2): return [control1, control2, point]
        case .closeSubpath: return []
        }
    }

    /// The same kind of element with its points replaced (in ``points`` order).
    func withPoints(_ points: [CGPoint]) -> Self {
        switch self {
        case .move: return .move(to: points[0])
        case .line: return .line(to: points[0])
        case .quadCurve: return .quadCurve(to: points[1], control: points[0])
        case .curve: return .curve(to: points[2], control1: points[0], control2: points[1])
        case .closeSubpath: return .closeSubpath
        }
    }

    func hasSameKind(as other: Self) -> Bool {
        switch (self, other) {
        case (.move, .move), (.line, .line), (.quadCurve, .quadCurve), (.curve, .curve), (.closeSubpath, .closeSubpath):
            return true
        default:
            return false
        }
    }
}

extension VectorPath {
    /// True when both paths have the same elements in the same order, so one can morph into the other.
    package func hasSameStructure(as other: VectorPath) -> Bool {
        elements.count == other.elements.count
            && zip(elements, other.elements).allSatisfy { $0.hasSameKind(as: $1) }
    }

    /// The path with every point mapped through `transform`.
    public func applying(_ transform: LayerTransform) -> VectorPath {
        VectorPath(elements: elements.map { element in element.withPoints(element.points.map(transform.apply)) })
    }

    /// True when every coordinate is a finite number.
    var isFinite: Bool {
        elements.allSatisfy { $0.points.allSatisfy { Double($0.x).isFinite && Double($0.y).isFinite } }
    }
}
