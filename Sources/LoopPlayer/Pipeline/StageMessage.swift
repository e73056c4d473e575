import FFmpegSupport

/// What the demuxer sends a decode stage. Control travels in line with the data, so a stage learns
/// about a seek, a wrap or the end exactly between the packets it concerns, and needs no lookups
/// in shared state.
enum StageMessage: ~Copyable, Sendable {
    /// A packet, its timestamps already on the loop's timeline.
    case packet(OwnedPacket, PacketContext)
    /// Packets from here on belong to a seek: flush, and skip what lies before its floor.
    case seek(SeekMarker)
    /// The demuxer finished a pass and rewound: the loop's length is known from here on.
    case passEnded(PassBoundary)
    /// No more packets of this generation (non-looping media, or looping stopped). `resumable`: the
    /// end came because looping was off, and switching it on goes on with the next pass.
    case endOfStream(generation: Int, resumable: Bool = false)
}

/// Where a packet sits on the loop's timeline.
struct PacketContext: Sendable {
    /// The seek generation it was read for (stale ones are dropped).
    var generation: Int
    /// The pass of the file it was read in.
    var pass: Int
    /// Audio read in pass 0 only: how far (timeline seconds) the picture's packets reach so far, so
    /// sound past the picture can wait until the loop's length says where the pass ends.
    var pictureExtent: Double?
    /// The HLS variant it came from (nil for other sources).
    var variant: StreamVariant?
    /// A sound packet: the stream's first (a wrap or a seek came back to it). Its decoded start is
    /// trimmed by the codec's delay (Opus's pre-skip) unless the container says what to skip, and
    /// its first frame tells how far the sound starts before the picture.
    var startsSound = false

    init(generation: Int, pass: Int, pictureExtent: Double? = nil, variant: StreamVariant? = nil) {
        self.generation = generation
        self.pass = pass
        self.pictureExtent = pictureExtent
        self.variant = variant
    }
}

/// A seek, as the stages see it.
struct SeekMarker: Sendable {
    var generation: Int
    /// Frames ending before this timeline timestamp (timeline stream's time base) are skipped.
    var floor: Int64
    /// The same floor in timeline seconds.
    var floorSeconds: Double
    /// The pass the target is in; frames of a later pass are never skipped (the target was past the end).
    var pass: Int
    /// A newly chosen audio track's decoder (audio stage only); nil keeps the current one.
    var audioDecoder: StreamDecoder?
}

/// The end of a pass: the demuxer rewound for the next one.
struct PassBoundary: Sendable {
    var generation: Int
    /// The pass that was completely read.
    var pass: Int
    /// One pass, in the timeline stream's ticks and in seconds.
    var loopDuration: Int64
    var loopSeconds: Double
}

extension StageMessage {
    /// The generation the message belongs to.
    var generation: Int {
        switch self {
        case let .packet(_, context): context.generation
        case let .seek(marker): marker.generation
        case let .passEnded(boundary): boundary.generation
        case let .endOfStream(generation, _): generation
        }
    }
}
