import CFFmpeg
import FFmpegSupport
import LoopPlayerCore

/// Owns one configured libavfilter graph: `buffer` → the chain → `format=yuv420p` → `buffersink` for
/// pictures, or any source → chain → sink (audio). Temporal filters keep their state as long as the
/// graph lives. Used by one thread at a time.
package final class FilterGraph {
    /// What the graph is configured for; a frame that differs needs a new graph.
    package struct Input: Equatable, Sendable {
        package var width: Int32
        package var height: Int32
        package var pixelFormat: Int32
        package var timeBase: AVRational
        package var sampleAspect: AVRational
        /// The picture's YUV matrix: a chain that goes through RGB comes back with the same one.
        package var matrix: YUVMatrix

        package init(frame: UnsafePointer<AVFrame>, timeBase: AVRational) {
            width = frame.pointee.width
            height = frame.pointee.height
            pixelFormat = frame.pointee.format
            self.timeBase = timeBase
            let sar = frame.pointee.sample_aspect_ratio
            sampleAspect = sar.num > 0 && sar.den > 0 ? sar : AVRational(num: 1, den: 1)
            matrix = YUVMatrix(tagged: frame.pointee.colorspace, height: Int(frame.pointee.height))
        }

        package init(width: Int32, height: Int32, pixelFormat: Int32 = AV_PIX_FMT_YUV420P.rawValue,
                    timeBase: AVRational = AVRational(num: 1, den: 90_000)) {
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
            self.timeBase = timeBase
            sampleAspect = AVRational(num: 1, den: 1)
            matrix = YUVMatrix(tagged: AVCOL_SPC_UNSPECIFIED, height: Int(height))
        }

        package static func == (a: Input, b: Input) -> Bool {
            a.width == b.width && a.height == b.height && a.pixelFormat == b.pixelFormat
                && av_cmp_q(a.timeBase, b.timeBase) == 0 && av_cmp_q(a.sampleAspect, b.sampleAspect) == 0
                && a.matrix == b.matrix
        }
    }

    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    /// The picture the graph was configured for (nil for audio graphs).
    package let input: Input?
    package let chain: String

    /// `threads`: slice threads for the graph's filters; 0 lets libavfilter use one per core. A cheap
    /// memory-bound chain (a LUT) is faster on one: measured 1.8 % less CPU at 1080p.
    package convenience init(chain: String, input: Input, threads: Int32 = 0) throws(FilterError) {
        let arguments = "video_size=\(input.width)x\(input.height):pix_fmt=\(input.pixelFormat)"
            + ":time_base=\(input.timeBase.num)/\(input.timeBase.den)"
            + ":pixel_aspect=\(input.sampleAspect.num)/\(input.sampleAspect.den)"
        // Whatever the chain does, the player receives 8-bit 4:2:0. The conversions libavfilter
        // inserts (into RGB for an RGB filter, and back) use the picture's matrix: swscale's own
        // default is BT.601, which would shift the colours of an HD picture that went through RGB.
        let matrix = input.matrix.scaleOptionName
        try self.init(source: "buffer", arguments: arguments, chain: "\(chain),format=yuv420p", sink: "buffersink",
                      threads: threads, input: input, name: chain,
                      conversionOptions: "in_color_matrix=\(matrix):out_color_matrix=\(matrix)")
    }

    /// A graph from the source filter `source` (configured by `arguments`) through `chain` into `sink`;
    /// `conversionOptions` configure the `scale` filters libavfilter inserts between formats.
    package init(source sourceName: String, arguments: String, chain fullChain: String, sink sinkName: String,
                threads: Int32 = 0, input: Input? = nil, name: String? = nil,
                conversionOptions: String? = nil) throws(FilterError) {
        let chain = name ?? fullChain
        self.chain = chain
        self.input = input
        var graph = avfilter_graph_alloc()
        guard let allocated = graph else { throw FilterError(filter: chain, reason: "out of memory") }
        allocated.pointee.nb_threads = threads
        if let conversionOptions { allocated.pointee.scale_sws_opts = av_strdup(conversionOptions) }
        func fail(_ status: Int32, _ what: String) -> FilterError {
            avfilter_graph_free(&graph)
            return FilterError(filter: chain, reason: "\(what): \(ffmpegErrorText(status))")
        }
        var source: UnsafeMutablePointer<AVFilterContext>?
        var sink: UnsafeMutablePointer<AVFilterContext>?
        var status = avfilter_graph_create_filter(&source, avfilter_get_by_name(sourceName), "in", arguments, nil, allocated)
        guard status >= 0, let source else { throw fail(status, "cannot create the source") }
        status = avfilter_graph_create_filter(&sink, avfilter_get_by_name(sinkName), "out", nil, nil, allocated)
        guard status >= 0, let sink else { throw fail(status, "cannot create the sink") }

        var outputs = avfilter_inout_alloc()
        var inputs = avfilter_inout_alloc()
        defer {
            avfilter_inout_free(&outputs)
            avfilter_inout_free(&inputs)
        }
        outputs?.pointee.name = av_strdup("in")
        outputs?.pointee.filter_ctx = source
        inputs?.pointee.name = av_strdup("out")
        inputs?.pointee.filter_ctx = sink
        status = avfilter_graph_parse_ptr(allocated, fullChain, &inputs, &outputs, nil)
        guard status >= 0 else { throw fail(status, "invalid filter") }
        status = avfilter_graph_config(allocated, nil)
        guard status >= 0 else { throw fail(status, "cannot configure") }
        self.graph = allocated
        self.source = source
        self.sink = sink
    }

    deinit { avfilter_graph_free(&graph) }

    /// Pushes `frame` (the graph takes its own reference) and hands every frame the graph releases to `emit`.
    package func process(_ frame: borrowing OwnedFrame,
                        emit: (consuming OwnedFrame) throws(FilterError) -> Void) throws(FilterError) {
        try push(frame.pointer)
        try pull(emit)
    }

    /// Ends the stream: the graph releases what it still holds (tempo filters, delays).
    package func finish(emit: (consuming OwnedFrame) throws(FilterError) -> Void) throws(FilterError) {
        try push(nil)
        try pull(emit)
    }

    private func push(_ frame: UnsafeMutablePointer<AVFrame>?) throws(FilterError) {
        let status = av_buffersrc_add_frame_flags(source, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard status >= 0 else { throw FilterError(filter: chain, reason: ffmpegErrorText(status)) }
    }

    private func pull(_ emit: (consuming OwnedFrame) throws(FilterError) -> Void) throws(FilterError) {
        while let output = OwnedFrame() {
            guard av_buffersink_get_frame(sink, output.pointer) >= 0 else { return }
            // A picture converted back from RGB comes out untagged: it carries the matrix it was made with.
            if let input, output.pointer.pointee.colorspace == AVCOL_SPC_UNSPECIFIED {
                output.pointer.pointee.colorspace = input.matrix.colorSpace
            }
            try emit(output)
        }
    }

    /// Changes an option of a running filter (e.g. `eq` `brightness`) without rebuilding.
    @discardableResult
    package func send(command: String, to target: String, argument: String) -> Bool {
        var response = [CChar](repeating: 0, count: 64)
        return avfilter_graph_send_command(graph, target, command, argument, &response, Int32(response.count), 0) >= 0
    }
}
