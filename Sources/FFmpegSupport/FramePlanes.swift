import CFFmpeg

/// Calls `body` with the frame's plane pointers and line sizes as C arrays (swscale's source side).
package func withFramePlanes<R>(_ frame: UnsafeMutablePointer<AVFrame>,
                               _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
    withUnsafeMutablePointer(to: &frame.pointee.data) { data in
        withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
            data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in body(planes, strides) }
            }
        }
    }
}

/// The same for a frame being written (swscale's destination side).
package func withMutableFramePlanes<R>(_ frame: UnsafeMutablePointer<AVFrame>,
                                      _ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
    withUnsafeMutablePointer(to: &frame.pointee.data) { data in
        withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
            data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in body(planes, strides) }
            }
        }
    }
}
