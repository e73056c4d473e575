import CFFmpeg

/// Which YUV ↔ RGB matrix a picture uses: its tag, or for an untagged one the common convention
/// (BT.709 above 576 lines, BT.601 below). One rule for every place that converts: the outputs
/// decode with it, and filter graphs that go through RGB encode back with it.
package enum YUVMatrix: Equatable, Sendable {
    case bt601, bt709, bt2020

    package init(tagged space: AVColorSpace, height: Int) {
        switch space {
        case AVCOL_SPC_BT709: self = .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: self = .bt2020
        case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_RESERVED: self = height > 576 ? .bt709 : .bt601
        default: self = .bt601
        }
    }

    /// The tag a picture converted with this matrix carries.
    package var colorSpace: AVColorSpace {
        switch self {
        case .bt601: AVCOL_SPC_SMPTE170M
        case .bt709: AVCOL_SPC_BT709
        case .bt2020: AVCOL_SPC_BT2020_NCL
        }
    }

    /// The name libavfilter's `scale` takes (`in_color_matrix`, `out_color_matrix`).
    package var scaleOptionName: String {
        switch self {
        case .bt601: "bt601"
        case .bt709: "bt709"
        case .bt2020: "bt2020"
        }
    }
}

extension YUVMatrix {
    /// The weights of red and blue in luma (green's is the rest).
    package var lumaWeights: (red: Double, blue: Double) {
        switch self {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        }
    }
}
