import CFFmpeg
import FFmpegSupport
import LoopPlayerCore

/// A `FilterStack` compiled for running: consecutive libavfilter filters become one graph, split
/// around custom Swift filters and colour matrices run on YUV (`YUVColorMixer`); brightness/contrast
/// comes last, on its own (`LumaAdjuster`: a table over luma, chroma shared; for formats it does not
/// take, a `lutyuv` with the same math, changed by command). Graphs are built at the first frame (when
/// the input is known) and again only if the input changes. One thread.
package final class FilterChain {
    private enum Segment {
        case graph(chain: String, built: FilterGraph?)
        case custom(any PixelFilter)
        case mixer(YUVColorMixer)
        /// Brightness/contrast, always last; the `lutyuv` graph only for formats `LumaAdjuster` does not take.
        case adjustment(fallback: FilterGraph?)
    }

    private var segments: [Segment]
    private let timeBase: AVRational
    package private(set) var adjustment: ColorAdjustment
    package let revision: Int
    private let adjuster: LumaAdjuster
    /// The stack's first filter when it is a crop (`FilterStack.leadingCrop`): a picture it does
    /// not fit comes out as `black`, of the crop's size.
    private let leadingCrop: PictureCrop?
    private var black: BlackPicture?

    package init(stack: FilterStack, timeBase: AVRational) {
        self.timeBase = timeBase
        adjustment = stack.adjustment
        adjuster = LumaAdjuster(stack.adjustment)
        revision = stack.revision
        leadingCrop = stack.leadingCrop
        var segments: [Segment] = []
        var pending: [String] = []
        func closeGraph() {
            if !pending.isEmpty { segments.append(.graph(chain: pending.joined(separator: ","), built: nil)) }
            pending.removeAll()
        }
        /// A segment that is not libavfilter's: it reads 8-bit 4:2:0, so a graph (at least `null`)
        /// comes first, and the graph before it ends here.
        func append(native segment: Segment) {
            if pending.isEmpty && segments.isEmpty { pending.append("null") }
            closeGraph()
            segments.append(segment)
        }
        let mixedInYUV = Self.matricesMixedInYUV(stack.stages)
        for (index, stage) in stack.stages.enumerated() {
            switch stage {
            case let .filter(filter):
                guard mixedInYUV.contains(index), let matrix = filter.rgbMatrix else {
                    pending.append(filter.graphDescription)
                    continue
                }
                append(native: .mixer(YUVColorMixer(matrix: matrix)))
            case let .custom(custom):
                append(native: .custom(custom))
            }
        }
        closeGraph()
        // Always last and on its own, so brightness/contrast change without a rebuild.
        segments.append(.adjustment(fallback: nil))
        self.segments = segments
    }

    /// Runs `frame` (the caller keeps it) through every segment; every picture that comes out goes to `emit`.
    /// A picture the stack's leading crop does not fit comes out black, of the crop's size, and no
    /// filter runs: the crop is refused for it (not moved, shrunk or stretched) and stays wanted, so
    /// the next picture it fits is cropped again (a file replaced by a smaller picture and back).
    package func process(_ frame: borrowing OwnedFrame, time: Double,
                        emit: (consuming OwnedFrame) throws(FilterError) -> Void) throws(FilterError) {
        if let crop = leadingCrop,
           !crop.fits(width: Int(frame.pointer.pointee.width), height: Int(frame.pointer.pointee.height)) {
            return try emit(try blackPicture(crop, like: frame.pointer))
        }
        guard let picture = frame.reference() else { throw FilterError(filter: "input", reason: "out of memory") }
        try run(segment: 0, on: picture, time: time, emit: emit)
    }

    /// One segment on one picture; its outputs go through the next segments.
    private func run(segment index: Int, on picture: consuming OwnedFrame, time: Double,
                     emit: (consuming OwnedFrame) throws(FilterError) -> Void) throws(FilterError) {
        guard index < segments.count else { return try emit(picture) }
        func next(_ output: consuming OwnedFrame) throws(FilterError) {
            try run(segment: index + 1, on: output, time: time, emit: emit)
        }
        switch segments[index] {
        case let .graph(chain, built):
            let graph = try Self.graph(built, chain: chain, for: picture.pointer, timeBase: timeBase)
            if graph !== built { segments[index] = .graph(chain: chain, built: graph) }
            try graph.process(picture, emit: next)
        case let .adjustment(fallback):
            if adjustment.isIdentity { return try next(picture) }
            if LumaAdjuster.accepts(picture.pointer) {
                guard let adjusted = adjuster.apply(to: picture) else {
                    throw FilterError(filter: "brightness/contrast", reason: "out of memory, or a plane without a buffer")
                }
                return try next(adjusted)
            }
            // The LUT is cheap and memory-bound: slice threads would only add synchronisation.
            let graph = try Self.graph(fallback, chain: Self.adjustmentGraph(adjustment), for: picture.pointer,
                                       timeBase: timeBase, threads: 1)
            if graph !== fallback { segments[index] = .adjustment(fallback: graph) }
            try graph.process(picture, emit: next)
        case let .custom(filter):
            // A graph's output is ours alone, so this changes it in place (no copy).
            guard picture.makeWritable(), let planes = Self.planes(of: picture.pointer) else {
                throw FilterError(filter: "custom filter", reason: "out of memory")
            }
            filter.apply(to: planes, time: time)
            try next(picture)
        case let .mixer(mixer):
            guard let mixed = mixer.apply(to: picture) else {
                throw FilterError(filter: "colour matrix", reason: "out of memory, or not an 8-bit 4:2:0 picture")
            }
            try next(mixed)
        }
    }

    /// A black picture of `crop`'s size, no larger than `frame`, in place of it (its time, aspect and
    /// colour tags): one buffer, made once per size and shared by reference (nothing writes a
    /// filtered picture). Never larger than the picture: a crop of 16000x16000 is no 384 MB of black.
    private func blackPicture(_ crop: PictureCrop, like frame: UnsafeMutablePointer<AVFrame>) throws(FilterError) -> OwnedFrame {
        let name = "crop=\(crop.width):\(crop.height):\(crop.x):\(crop.y)"
        let width = max(1, min(crop.width, Int(frame.pointee.width))), height = max(1, min(crop.height, Int(frame.pointee.height)))
        if black?.width != width || black?.height != height {
            black = BlackPicture(width: width, height: height)
        }
        guard let output = black?.frame?.reference() else { throw FilterError(filter: name, reason: "out of memory") }
        guard av_frame_copy_props(output.pointer, frame) >= 0 else { throw FilterError(filter: name, reason: "out of memory") }
        output.pointer.pointee.color_range = AVCOL_RANGE_MPEG  // black is 16, 128, 128
        return output
    }

    /// `built` if it was built for pictures like `frame`, else a new graph of `chain` for them.
    private static func graph(_ built: FilterGraph?, chain: String, for frame: UnsafeMutablePointer<AVFrame>,
                              timeBase: AVRational, threads: Int32 = 0) throws(FilterError) -> FilterGraph {
        let input = FilterGraph.Input(frame: frame, timeBase: timeBase)
        if let built, built.input == input { return built }
        return try FilterGraph(chain: chain, input: input, threads: threads)
    }

    /// The stages (by index) whose RGB colour matrix runs on the YUV picture itself (`YUVColorMixer`)
    /// instead of in libavfilter: every run of matrices whose libavfilter neighbours work in YUV too.
    /// Next to a filter that works in RGB anyway (curves, a LUT, a raw chain we cannot judge) the
    /// matrix joins its graph: the conversion to RGB is paid once for both.
    static func matricesMixedInYUV(_ stages: [FilterStack.Stage]) -> Set<Int> {
        func isMatrix(_ index: Int) -> Bool {
            if case let .filter(filter) = stages[index] { return filter.rgbMatrix != nil }
            return false
        }
        func allowsYUV(_ index: Int) -> Bool {
            guard stages.indices.contains(index), case let .filter(filter) = stages[index] else { return true }
            return filter.worksInYUV
        }
        var chosen = Set<Int>()
        var start = 0
        while start < stages.count {
            guard isMatrix(start) else {
                start += 1
                continue
            }
            var end = start
            while end + 1 < stages.count, isMatrix(end + 1) { end += 1 }
            if allowsYUV(start - 1) && allowsYUV(end + 1) { chosen.formUnion(start...end) }
            start = end + 1
        }
        return chosen
    }

    /// Changes brightness/contrast from the next picture on (no rebuild: temporal filters keep state).
    package func setAdjustment(_ adjustment: ColorAdjustment) {
        self.adjustment = adjustment
        adjuster.set(adjustment)
        if case let .adjustment(fallback?) = segments.last {
            fallback.send(command: "y", to: "lutyuv", argument: adjustment.lumaExpression)
        }
    }

    /// Builds every graph segment for `input` without running a frame: the check made when a
    /// stack is applied, so a bad raw filter is refused before it replaces the working one.
    /// A leading crop the picture does not fit is no error here (such a picture is shown black, see
    /// `process`): the graphs are checked for a picture of the crop's size, as a picture it fits.
    package static func validate(_ stack: FilterStack, input: FilterGraph.Input) throws(FilterError) {
        try stack.validate()
        var input = input
        if let crop = stack.leadingCrop, !crop.fits(width: Int(input.width), height: Int(input.height)) {
            input.width = Int32(clamping: crop.x + crop.width)
            input.height = Int32(clamping: crop.y + crop.height)
        }
        let chain = FilterChain(stack: stack, timeBase: input.timeBase)
        for case let .graph(description, _) in chain.segments {
            _ = try FilterGraph(chain: description, input: input)
        }
    }

    /// Parses a raw chain without configuring it (no picture size needed): catches unknown filters,
    /// unknown options and syntax errors.
    package static func checkSyntax(_ chain: String) throws(FilterError) {
        try VideoFilter.ffmpeg(chain).validate()  // its length first: a huge chain is not parsed at all
        var graph = avfilter_graph_alloc()
        defer { avfilter_graph_free(&graph) }
        var inputs: UnsafeMutablePointer<AVFilterInOut>?
        var outputs: UnsafeMutablePointer<AVFilterInOut>?
        let status = avfilter_graph_parse2(graph, chain, &inputs, &outputs)
        avfilter_inout_free(&inputs)
        avfilter_inout_free(&outputs)
        if status < 0 { throw FilterError(filter: chain, reason: ffmpegErrorText(status)) }
        if let graph, Int(graph.pointee.nb_filters) > FilterStack.maximumFilters {
            throw FilterError(filter: VideoFilter.ffmpeg(chain).shortName, reason: "a chain has at most \(FilterStack.maximumFilters) filters")
        }
    }

    static func adjustmentGraph(_ adjustment: ColorAdjustment) -> String {
        "lutyuv=y='\(adjustment.lumaExpression.replacingOccurrences(of: ",", with: "\\,"))'"
    }

    private static func planes(of frame: UnsafeMutablePointer<AVFrame>) -> PixelPlanes? {
        let picture = frame.pointee
        guard let luma = picture.data.0, let cb = picture.data.1, let cr = picture.data.2 else { return nil }
        return PixelPlanes(width: Int(picture.width), height: Int(picture.height), luma: luma, lumaStride: Int(picture.linesize.0),
                           cb: cb, cr: cr, chromaStride: Int(picture.linesize.1))
    }
}

/// A black 8-bit 4:2:0 picture (limited range) for `FilterChain` to show in place of one its leading
/// crop does not fit; nil frame when out of memory.
private final class BlackPicture {
    let width: Int, height: Int
    let frame: OwnedFrame?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        frame = Self.make(width: width, height: height)
    }

    private static func make(width: Int, height: Int) -> OwnedFrame? {
        guard let frame = OwnedFrame() else { return nil }
        let picture = frame.pointer
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = Int32(clamping: width)
        picture.pointee.height = Int32(clamping: height)
        guard av_frame_get_buffer(picture, 0) >= 0, let luma = picture.pointee.data.0, let cb = picture.pointee.data.1,
              let cr = picture.pointee.data.2 else { return nil }
        let chromaRows = (height + 1) / 2
        memset(luma, 16, Int(picture.pointee.linesize.0) * height)
        memset(cb, 128, Int(picture.pointee.linesize.1) * chromaRows)
        memset(cr, 128, Int(picture.pointee.linesize.2) * chromaRows)
        return frame
    }
}
