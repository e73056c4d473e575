import NIOCore

/// One request line of the IPC, or word that a line was too long (its bytes were dropped).
enum LineFrame {
    case line(ByteBuffer)
    case tooLong
}

/// Splits the byte stream at newlines, holding at most `maximumLength` bytes of an unfinished
/// line: a client that sends a huge line gets one `tooLong` and the rest of it is skipped, so
/// memory stays bounded whatever it sends.
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineFrame

    let maximumLength: Int
    /// Inside a line already reported too long: skip to its newline.
    private var discarding = false

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - buffer.readerIndex
            if discarding || length > maximumLength {
                buffer.moveReaderIndex(forwardBy: length + 1)
                if !discarding { context.fireChannelRead(wrapInboundOut(.tooLong)) }
                discarding = false
                return .continue
            }
            let line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return .continue
        }
        if buffer.readableBytes > maximumLength {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            if !discarding { context.fireChannelRead(wrapInboundOut(.tooLong)) }
            discarding = true
        }
        return .needMoreData
    }

    /// A line cut short by the client going away is dropped, as mpv drops it.
    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
