/// Copies 32-bit pixels turned clockwise by 90, 180 or 270 degrees: how the window surface shows a
/// turned picture (swscale scales it upright into a scratch buffer, this puts it on the surface).
/// One pass in square tiles, so the rows read and the columns written both stay in the cache.
package enum QuarterTurn {
    /// Side of the square tiles, in pixels: 64 rows of 64 pixels read and written are 32 KiB.
    private static let tile = 64

    /// `source`: `width`×`height` pixels, rows packed. `target`: the turned picture's top-left pixel,
    /// `targetPitch` bytes from one row to the next (`height`×`width` pixels for a quarter turn).
    package static func copy(_ source: UnsafePointer<UInt32>, width: Int, height: Int, turned degrees: Int,
                             into target: UnsafeMutableRawPointer, targetPitch: Int) {
        let turn = ((degrees % 360) + 360) % 360
        let pitch = targetPitch / 4
        let out = target.assumingMemoryBound(to: UInt32.self)
        if turn == 0 || turn == 180 {
            for y in 0..<height {
                let row = source + y * width
                if turn == 0 {
                    (out + y * pitch).update(from: row, count: width)
                } else {
                    let line = out + (height - 1 - y) * pitch + (width - 1)
                    for x in 0..<width { (line - x).pointee = row[x] }
                }
            }
            return
        }
        // A quarter turn: the source's row y is the target's column (height-1-y) at 90°, column y at 270°.
        for top in stride(from: 0, to: height, by: tile) {
            let bottom = min(height, top + tile)
            for left in stride(from: 0, to: width, by: tile) {
                let right = min(width, left + tile)
                for y in top..<bottom {
                    let row = source + y * width
                    if turn == 90 {
                        let column = out + (height - 1 - y)
                        for x in left..<right { column[x * pitch] = row[x] }
                    } else {
                        let column = out + y
                        for x in left..<right { column[(width - 1 - x) * pitch] = row[x] }
                    }
                }
            }
        }
    }
}
