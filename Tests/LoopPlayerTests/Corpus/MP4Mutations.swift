/// Damage to the boxes of mp4 and m4a files: the index, the timescales, the codec configuration.
enum MP4Mutations {
    static let video: [Mutation] = [movieTimescale, trackTimescale, trackHeaderSize, sampleEntrySize, parameterSetSize,
                                    brokenAVCC, brokenESDS, brokenChunkOffsets, brokenEditList, brokenTimeToSample,
                                    brokenSampleSizes, brokenSampleToChunk, brokenCompositionOffsets, brokenSyncSamples,
                                    swappedBoxes, duplicatedBox, removedBox, lyingBoxSize]
    static let audio: [Mutation] = [movieTimescale, trackTimescale, brokenESDS, brokenChunkOffsets, brokenEditList,
                                    brokenTimeToSample, brokenSampleSizes, brokenSampleToChunk, swappedBoxes, duplicatedBox,
                                    removedBox, lyingBoxSize]

    private static func boxes(_ type: String, _ bytes: [UInt8]) -> [(box: ISOBox, ancestors: [ISOBox])] {
        ISOBoxes.find(type, in: ISOBoxes.parse(bytes))
    }

    /// A table's entry count (at `at` in the payload), no more than the box holds.
    private static func entries(_ box: ISOBox, at: Int, size: Int, _ bytes: [UInt8]) -> Int {
        min(Int(Bytes.uint32(bytes, box.payload + at)), max(0, (box.end - box.payload - at - 4) / size))
    }

    /// Offset of the timescale in mvhd/mdhd (after version, flags and two times of 4 or 8 bytes).
    private static func timescaleOffset(_ box: ISOBox, _ bytes: [UInt8]) -> Int {
        box.payload + 4 + (ISOBoxes.version(box, bytes) == 1 ? 16 : 8)
    }

    static let movieTimescale = Mutation("mvhd") { bytes, random in
        guard let mvhd = boxes("mvhd", bytes).first?.box else { return nil }
        let offset = timescaleOffset(mvhd, bytes)
        let value: UInt32 = [0, 1, 0xFFFF_FFFF].randomElement(using: &random)!
        if Bool.random(using: &random) {
            Bytes.put32(&bytes, offset, value)
            return "timescale\(value)"
        }
        Bytes.put32(&bytes, offset + 4, value)  // duration (version 0)
        return "duration\(value)"
    }

    /// A zero (or absurd) timescale or duration in a track's media header: zero frame rates.
    static let trackTimescale = Mutation("mdhd") { bytes, random in
        let found = boxes("mdhd", bytes)
        guard !found.isEmpty else { return nil }
        let all = Bool.random(using: &random)
        let targets = all ? found : [found.randomElement(using: &random)!]
        let value: UInt32 = [0, 1, 0x7FFF_FFFF, 0xFFFF_FFFF].randomElement(using: &random)!
        let field = Bool.random(using: &random) ? "timescale" : "duration"
        for (mdhd, _) in targets { Bytes.put32(&bytes, timescaleOffset(mdhd, bytes) + (field == "duration" ? 4 : 0), value) }
        return "\(all ? "all" : "one")-\(field)\(value)"
    }

    static let trackHeaderSize = Mutation("tkhd") { bytes, random in
        guard let (tkhd, _) = boxes("tkhd", bytes).first else { return nil }
        let offset = tkhd.payload + (ISOBoxes.version(tkhd, bytes) == 1 ? 88 : 76)
        let (width, height): (UInt32, UInt32) = [(0xFFFF, 2), (0, 0), (2, 0xFFFF), (0xFFFF, 0xFFFF)].randomElement(using: &random)!
        Bytes.put32(&bytes, offset, width << 16)
        Bytes.put32(&bytes, offset + 4, height << 16)
        return "\(width)x\(height)"
    }

    /// The visual sample entry's own width and height (16 bits each).
    static let sampleEntrySize = Mutation("stsd") { bytes, random in
        guard let (entry, _) = boxes("avc1", bytes).first else { return nil }
        let (width, height): (UInt16, UInt16) = [(65535, 2), (0, 0), (1, 65535), (65535, 65535), (16, 16)].randomElement(using: &random)!
        Bytes.put16(&bytes, entry.payload + 24, width)
        Bytes.put16(&bytes, entry.payload + 26, height)
        return "\(width)x\(height)"
    }

    /// An SPS that declares an absurd size: what the decoder itself will believe.
    static let parameterSetSize = Mutation("sps") { bytes, random in
        guard let (avcC, ancestors) = boxes("avcC", bytes).first, avcC.size > 16 else { return nil }
        let payload = Array(bytes[avcC.payload..<avcC.end])
        guard payload[5] & 0x1F >= 1 else { return nil }
        let length = Int(Bytes.uint16(payload, 6))
        guard 8 + length <= payload.count else { return nil }
        let (width, height): (UInt32, UInt32) = [(6250, 1), (4096, 4096), (1, 6250), (1024, 1)].randomElement(using: &random)!
        guard let sps = H264ParameterSet.resized(Array(payload[8..<(8 + length)]), widthInMacroblocks: width,
                                                 heightInMapUnits: height) else { return nil }
        var rewritten = Array(payload[0..<6]) + [UInt8(sps.count >> 8), UInt8(truncatingIfNeeded: sps.count)] + sps
        rewritten += payload[(8 + length)...]
        ISOBoxes.replace(avcC, ancestors: ancestors, with: ISOBoxes.box("avcC", rewritten), in: &bytes)
        return "\(width * 16)x\(height * 16)"
    }

    static let brokenAVCC = Mutation("avcC") { bytes, random in
        guard let (avcC, ancestors) = boxes("avcC", bytes).first, avcC.size > 16 else { return nil }
        let p = avcC.payload
        switch Int.random(in: 0..<7, using: &random) {
        case 0: bytes[p + 5] = 0xE0; return "no-sps"
        case 1: Bytes.put16(&bytes, p + 6, 0xFFFF); return "sps-length-huge"
        case 2: bytes[p + 4] = 0xFC; return "nal-length-1-byte"
        case 3: bytes[p] = 0; return "version0"
        case 4:
            ISOBoxes.replace(avcC, ancestors: ancestors, with: ISOBoxes.box("avcC", Array(bytes[p..<(p + 4)])), in: &bytes)
            return "truncated"
        case 5:
            for index in (p + 9)..<min(avcC.end, p + 20) { bytes[index] = UInt8.random(in: 0...255, using: &random) }
            return "sps-scribbled"
        default:
            ISOBoxes.replace(avcC, ancestors: ancestors, with: [], in: &bytes)
            return "removed"
        }
    }

    static let brokenESDS = Mutation("esds") { bytes, random in
        guard let (esds, ancestors) = boxes("esds", bytes).first, esds.size > 20 else { return nil }
        let payload = Array(bytes[esds.payload..<esds.end])
        // The DecoderSpecificInfo (tag 5) holds the AudioSpecificConfig.
        guard let tag = payload.indices.dropFirst(4).first(where: { payload[$0] == 5 && $0 + 3 < payload.count }) else { return nil }
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            bytes[esds.payload + tag + 1] = 0x7F
            return "dsi-length-huge"
        case 1:
            let config = esds.payload + tag + 2
            // object type 31 (escape) or 0, sampling index 15 (explicit) with nothing after, channels 0 or 15.
            bytes[config] = [0x00, 0xF8, 0x17].randomElement(using: &random)!
            bytes[config + 1] = [0x80, 0xF8, 0x78].randomElement(using: &random)!
            return "asc-\(bytes[config])-\(bytes[config + 1])"
        case 2:
            for index in (esds.payload + 4)..<min(esds.end, esds.payload + 12) { bytes[index] = 0xFF }
            return "lengths-ff"
        case 3:
            ISOBoxes.replace(esds, ancestors: ancestors, with: ISOBoxes.box("esds", Array(payload.prefix(9))), in: &bytes)
            return "truncated"
        default:
            ISOBoxes.replace(esds, ancestors: ancestors, with: [], in: &bytes)
            return "removed"
        }
    }

    /// Every chunk offset zero, past the end, huge, or the table's count absurd.
    static let brokenChunkOffsets = Mutation("stco") { bytes, random in
        let found = boxes("stco", bytes)
        guard let (stco, _) = found.randomElement(using: &random) else { return nil }
        let count = entries(stco, at: 4, size: 4, bytes)
        let choice = Int.random(in: 0..<5, using: &random)
        let fileSize = UInt32(bytes.count)
        for index in 0..<count {
            let offset = stco.payload + 8 + 4 * index
            let old = Bytes.uint32(bytes, offset)
            let new: UInt32 = switch choice {
            case 0: 0
            case 1: fileSize + UInt32(index)
            case 2: 0xFFFF_FFF0
            case 3: Bytes.uint32(bytes, stco.payload + 8 + 4 * (count - 1 - index))  // reversed
            default: old
            }
            Bytes.put32(&bytes, offset, new)
        }
        if choice == 4 { Bytes.put32(&bytes, stco.payload + 4, 0x3FFF_FFFF) }
        return ["zero", "past-end", "huge", "reversed", "count-huge"][choice]
    }

    static let brokenEditList = Mutation("elst") { bytes, random in
        guard let (elst, ancestors) = boxes("elst", bytes).randomElement(using: &random) else { return nil }
        let entry = elst.payload + 8  // version 0: duration(4) media_time(4) rate(4)
        switch Int.random(in: 0..<7, using: &random) {
        case 0: Bytes.put32(&bytes, entry + 4, 0x7FFF_FFF0); return "media-time-huge"
        case 1: Bytes.put32(&bytes, entry + 4, 0xFFFF_FFFE); return "media-time-minus2"
        case 2: Bytes.put32(&bytes, entry, 0); return "duration0"
        case 3: Bytes.put32(&bytes, entry, 0xFFFF_FFFF); return "duration-huge"
        case 4: Bytes.put32(&bytes, entry + 8, 0); return "rate0"
        case 5: Bytes.put32(&bytes, elst.payload + 4, 0xFFFF_FFFF); return "count-huge"
        default:
            // 500 entries, each a sliver of the track: a list that takes long to walk.
            var payload: [UInt8] = [0, 0, 0, 0] + [0, 0, 0x01, 0xF4]
            for index in 0..<500 { payload += [0, 0, 0, 1] + [0, 0, UInt8(index >> 8), UInt8(index & 0xFF)] + [0, 1, 0, 0] }
            ISOBoxes.replace(elst, ancestors: ancestors, with: ISOBoxes.box("elst", payload), in: &bytes)
            return "500-slivers"
        }
    }

    static let brokenTimeToSample = Mutation("stts") { bytes, random in
        guard let (stts, _) = boxes("stts", bytes).randomElement(using: &random) else { return nil }
        let count = entries(stts, at: 4, size: 8, bytes)
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            for index in 0..<count { Bytes.put32(&bytes, stts.payload + 12 + 8 * index, 0) }
            return "delta0"
        case 1:
            for index in 0..<count { Bytes.put32(&bytes, stts.payload + 12 + 8 * index, 0x7FFF_FFFF) }
            return "delta-huge"
        case 2: Bytes.put32(&bytes, stts.payload + 8, 0xFFFF_FFFF); return "sample-count-huge"
        default: Bytes.put32(&bytes, stts.payload + 4, 0x1FFF_FFFF); return "count-huge"
        }
    }

    static let brokenSampleSizes = Mutation("stsz") { bytes, random in
        guard let (stsz, _) = boxes("stsz", bytes).randomElement(using: &random) else { return nil }
        let count = entries(stsz, at: 8, size: 4, bytes)
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            for index in 0..<count where Bool.random(using: &random) { Bytes.put32(&bytes, stsz.payload + 12 + 4 * index, 0xFFFF_FFF0) }
            return "sizes-huge"
        case 1:
            for index in 0..<count { Bytes.put32(&bytes, stsz.payload + 12 + 4 * index, 0) }
            return "sizes0"
        case 2: Bytes.put32(&bytes, stsz.payload + 8, 0x3FFF_FFFF); return "count-huge"
        default: Bytes.put32(&bytes, stsz.payload + 4, 0x7FFF_FFFF); return "constant-huge"
        }
    }

    static let brokenSampleToChunk = Mutation("stsc") { bytes, random in
        guard let (stsc, _) = boxes("stsc", bytes).randomElement(using: &random) else { return nil }
        let entry = stsc.payload + 8
        switch Int.random(in: 0..<3, using: &random) {
        case 0: Bytes.put32(&bytes, entry, 0); return "first-chunk0"
        case 1: Bytes.put32(&bytes, entry + 4, 0); return "samples-per-chunk0"
        default: Bytes.put32(&bytes, entry + 4, 0x7FFF_FFFF); return "samples-per-chunk-huge"
        }
    }

    static let brokenCompositionOffsets = Mutation("ctts") { bytes, random in
        guard let (ctts, _) = boxes("ctts", bytes).first else { return nil }
        let count = entries(ctts, at: 4, size: 8, bytes)
        let value: UInt32 = [0x8000_0000, 0x7FFF_FFFF, 0xFFFF_0000].randomElement(using: &random)!
        for index in 0..<count where Bool.random(using: &random) { Bytes.put32(&bytes, ctts.payload + 12 + 8 * index, value) }
        return "offsets\(value)"
    }

    static let brokenSyncSamples = Mutation("stss") { bytes, random in
        guard let (stss, _) = boxes("stss", bytes).first else { return nil }
        let count = entries(stss, at: 4, size: 4, bytes)
        let value: UInt32 = [0, 0xFFFF_FFFF, 1_000_000].randomElement(using: &random)!
        for index in 0..<count { Bytes.put32(&bytes, stss.payload + 8 + 4 * index, value) }
        return "samples\(value)"
    }

    /// Two sibling boxes change places (moov before mdat, stsz before stts, the tracks…).
    static let swappedBoxes = Mutation("swap") { bytes, random in
        let parsed = ISOBoxes.parse(bytes)
        var families: [(parent: ISOBox?, ancestors: [ISOBox], children: [ISOBox])] = [(nil, [], parsed)]
        for (box, ancestors) in ISOBoxes.all(in: parsed) where box.children.count >= 2 {
            families.append((box, ancestors, box.children))
        }
        guard let family = families.randomElement(using: &random), family.children.count >= 2 else { return nil }
        var order = Array(family.children.indices)
        let a = Int.random(in: 0..<order.count, using: &random)
        var b = Int.random(in: 0..<order.count, using: &random)
        if a == b { b = (a + 1) % order.count }
        order.swapAt(a, b)
        let start = family.children[0].offset, end = family.children[family.children.count - 1].end
        let reordered = order.flatMap { Array(bytes[family.children[$0].offset..<family.children[$0].end]) }
        bytes.replaceSubrange(start..<end, with: reordered)
        return "\(family.children[a].type)-\(family.children[b].type)"
    }

    static let duplicatedBox = Mutation("dup") { bytes, random in
        let all = ISOBoxes.all(in: ISOBoxes.parse(bytes)).filter { $0.box.type != "mdat" }
        guard let (box, ancestors) = all.randomElement(using: &random) else { return nil }
        let copy = Array(bytes[box.offset..<box.end])
        var doubled = box
        doubled.size = 0
        ISOBoxes.replace(doubled, ancestors: ancestors, with: copy, in: &bytes)  // inserts before the original
        return box.type
    }

    static let removedBox = Mutation("rm") { bytes, random in
        let all = ISOBoxes.all(in: ISOBoxes.parse(bytes)).filter { !["mdat", "moov"].contains($0.box.type) }
        guard let (box, ancestors) = all.randomElement(using: &random) else { return nil }
        ISOBoxes.replace(box, ancestors: ancestors, with: [], in: &bytes)
        return box.type
    }

    /// A box's size field lies (nothing moves): 0 (to the end), 1 (a 64-bit size follows), too small, too big.
    static let lyingBoxSize = Mutation("size") { bytes, random in
        guard let (box, _) = ISOBoxes.all(in: ISOBoxes.parse(bytes)).randomElement(using: &random) else { return nil }
        let value: UInt32 = [0, 1, 7, 8, UInt32(box.size) - 1, UInt32(box.size) + 1, 0x7FFF_FFFF, 0xFFFF_FFFF].randomElement(using: &random)!
        Bytes.put32(&bytes, box.offset, value)
        return "\(box.type)\(value)"
    }
}
