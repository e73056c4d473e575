// A looping video with an animated vector badge over it, the model's demo use of vector layers: a
// rounded badge whose outline draws itself, a ring spinning beside it and a caption, all redrawn on
// every frame. Run: swift run AnimatedOverlay [source] [seconds]
// (scripts/bench.sh overlay uses it for the animated case of the overlay benchmark.)
import Foundation
import LoopPlayer

/// Sticks to the picture's top-right corner, whatever the window size or gravity.
struct AnimatedBadge: ShapeLayerBuilderProtocol {
    let id = UUID()

    func build(with geometry: (frame: CGRect, bounds: CGRect)) -> ShapeLayer {
        let width = 260.0, height = 80.0
        let origin = CGPoint(x: geometry.frame.maxX - width - 24, y: geometry.frame.minY + 24)
        let box = CGRect(x: origin.x, y: origin.y, width: width, height: height)

        var badge = ShapeLayer(path: VectorPath(roundedRect: box, cornerRadius: 14),
                               fillColor: Color(red: 0.1, green: 0.1, blue: 0.1, alpha: 0.6),
                               strokeColor: .white, lineWidth: 3)
        badge.animations = [LayerAnimation(.strokeEnd(from: 0, to: 1), duration: 2, repeatCount: .infinity,
                                           autoreverses: true, timing: .easeInEaseOut)]

        let centre = CGPoint(x: box.minX + 40, y: box.midY)
        var ring = VectorPath()
        ring.addArc(center: centre, radius: 22, startAngle: 0, endAngle: 1.5 * .pi, clockwise: true)
        var spinner = ShapeLayer(path: ring, fillColor: nil, strokeColor: .orange, lineWidth: 6)
        spinner.lineCap = .round
        spinner.animations = [LayerAnimation(.rotation(from: 0, to: 2 * .pi, about: centre), duration: 1.2,
                                             repeatCount: .infinity)]

        let caption = TextContent("LIVE LOOP", fontSize: 22, weight: .bold,
                                  anchor: .point(CGPoint(x: box.minX + 78, y: box.midY - 14)))
        badge.sublayers = [spinner, ShapeLayer(text: caption)]
        return badge
    }
}

let arguments = CommandLine.arguments.dropFirst()
let source = arguments.first ?? "swipe"
let seconds = arguments.dropFirst().first.flatMap(Double.init)
let player = ExtVideoPlayer {
    VideoSettings {
        SourceName(source)
        Loop()
        Mute()
        VectorLayers { AnimatedBadge() }
        Events([.errorAny])
    }
}
.onPlayerEventChange { events in print("events: \(events)") }

let outcome = player.run(until: StopCondition(duration: seconds))
let stats = player.statistics
print("\(outcome): \(stats.framesPresented) frames presented, \(stats.framesDropped) dropped, \(stats.loopsCompleted) loops")
