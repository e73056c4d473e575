import CFFmpeg
import FFmpegSupport

/// Which YUV → RGB matrix and range a stream uses, decided once for every output (SDL texture,
/// swscale surface, snapshots) so they all show the same colours (`YUVMatrix` says which).
package struct ColorConversion: Equatable {
    package var matrix: YUVMatrix
    package var fullRange: Bool

    package init(colorSpace: AVColorSpace, colorRange: AVColorRange, height: Int) {
        matrix = YUVMatrix(tagged: colorSpace, height: height)
        fullRange = colorRange == AVCOL_RANGE_JPEG
    }

    package init(frame: VideoFrame) {
        let picture = frame.pointer.pointee
        let range = frame.pixelFormat == AV_PIX_FMT_YUVJ420P ? AVCOL_RANGE_JPEG : picture.color_range
        self.init(colorSpace: picture.colorspace, colorRange: range, height: frame.height)
    }

    /// Tells a swscale context converting to RGB to use this matrix and range.
    package func apply(to scaler: OpaquePointer) {
        let space: Int32 = switch matrix {
        case .bt601: SWS_CS_ITU601
        case .bt709: SWS_CS_ITU709
        case .bt2020: SWS_CS_BT2020
        }
        let coefficients = sws_getCoefficients(space)
        sws_setColorspaceDetails(scaler, coefficients, fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                 0, 1 << 16, 1 << 16)
    }
}

import CSDL
import LoopPlayerMedia

extension ColorConversion {
    /// SDL converts YUV textures with one process-wide mode: set it to this picture's just before it
    /// is drawn, so outputs showing streams of different colour spaces never disturb each other.
    /// (SDL 2.26 has no BT.2020 mode: BT.709 is the nearest.)
    package func useForSDLTextures() {
        let mode = fullRange ? SDL_YUV_CONVERSION_JPEG : matrix == .bt601 ? SDL_YUV_CONVERSION_BT601 : SDL_YUV_CONVERSION_BT709
        if SDL_GetYUVConversionMode() != mode { SDL_SetYUVConversionMode(mode) }
    }
}
