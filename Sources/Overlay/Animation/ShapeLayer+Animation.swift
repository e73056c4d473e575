import Foundation

extension ShapeLayer {
    /// The layer as it looks at `time` (seconds since it was added): every animation applied, in
    /// sublayers too, and none left.
    ///
    /// ```swift
    /// var layer = ShapeLayer(path: VectorPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
    /// layer.animations = [LayerAnimation(.opacity(from: 0, to: 1), duration: 2)]
    /// layer.resolved(at: 1).opacity   // 0.5
    /// ```
    package func resolved(at time: Double) -> ShapeLayer {
        var layer = self
        layer.animations = []
        var motion = LayerTransform.identity
        for animation in animations {
            let p = animation.progress(at: time)
            switch animation.property {
            case .opacity(let from, let to): layer.opacity = interpolate(from, to, p)
            case .strokeStart(let from, let to): layer.strokeStart = interpolate(from, to, p)
            case .strokeEnd(let from, let to): layer.strokeEnd = interpolate(from, to, p)
            case .lineWidth(let from, let to): layer.lineWidth = interpolate(from, to, p)
            case .lineDashPhase(let from, let to): layer.lineDashPhase = interpolate(from, to, p)
            case .fillColor(let from, let to): layer.fillColor = interpolate(from, to, p)
            case .strokeColor(let from, let to): layer.strokeColor = interpolate(from, to, p)
            case .translation(let from, let to):
                let offset = interpolate(from, to, p)
                motion = motion.concatenating(LayerTransform(translationX: Double(offset.x), y: Double(offset.y)))
            case .scale(let from, let to, let anchor):
                let factor = interpolate(from, to, p)
                motion = motion.concatenating(LayerTransform(scaleX: factor, y: factor, about: anchor))
            case .rotation(let from, let to, let anchor):
                motion = motion.concatenating(LayerTransform(rotation: interpolate(from, to, p), about: anchor))
            case .path(let from, let to): layer.path = interpolate(from, to, p)
            }
        }
        layer.transform = motion.concatenating(transform)
        layer.sublayers = sublayers.map { $0.resolved(at: time) }
        return layer
    }

    /// True when this layer or a sublayer has animations.
    package var isAnimated: Bool { !animations.isEmpty || sublayers.contains { $0.isAnimated } }

    /// When the layer stops changing (seconds since it was added): 0 for a still layer, nil when an
    /// animation repeats forever. After it, the compositor can keep the last rasterised image.
    package var animationEnd: Double? {
        var end = 0.0
        for animation in animations {
            guard let animationEnd = animation.endTime else { return nil }
            end = max(end, animationEnd)
        }
        for sublayer in sublayers {
            guard let sublayerEnd = sublayer.animationEnd else { return nil }
            end = max(end, sublayerEnd)
        }
        return end
    }
}

private func interpolate(_ from: Double, _ to: Double, _ p: Double) -> Double {
    from + (to - from) * p
}

private func interpolate(_ from: CGPoint, _ to: CGPoint, _ p: Double) -> CGPoint {
    CGPoint(x: interpolate(Double(from.x), Double(to.x), p), y: interpolate(Double(from.y), Double(to.y), p))
}

private func interpolate(_ from: Color, _ to: Color, _ p: Double) -> Color {
    Color(red: interpolate(from.red, to.red, p), green: interpolate(from.green, to.green, p),
          blue: interpolate(from.blue, to.blue, p), alpha: interpolate(from.alpha, to.alpha, p))
}

private func interpolate(_ from: VectorPath, _ to: VectorPath, _ p: Double) -> VectorPath {
    guard from.hasSameStructure(as: to) else { return p < 0.5 ? from : to }
    return VectorPath(elements: zip(from.elements, to.elements).map { start, end in
        start.withPoints(zip(start.points, end.points).map { interpolate($0, $1, p) })
    })
}
