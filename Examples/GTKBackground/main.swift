// A looping video as the background of a GTK 4 window, with ordinary GTK widgets over it: a panel
// with a label the player's events go to, and a button that pauses and resumes.
// The player runs frames-only on a thread of its own (`runScenes`: the picture with its overlays,
// subtitles and error text); GTK's frame clock takes the newest picture at each tick into a
// GdkMemoryTexture shown by a GtkPicture. Nothing of GTK is touched off the main thread.
// Run: swift run GTKBackground [source] [seconds] [WxH]     (GSK_RENDERER=cairo without a GPU;
// the window 640x360 by default)
// It prints `picture N` as pictures reach the window, `tick N` every 30 frame-clock ticks and the
// player's state changes, one a line, for a test to follow.
import CGtk
import Foundation
import LoopPlayer
import Synchronization

gtk_init()

/// One line on stdout at once (print's buffer would hold it back from a test reading a pipe).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
let arguments = Array(CommandLine.arguments.dropFirst())
/// A bad argument: one line, exit 64, as loopplay does.
func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("GTKBackground: \(problem) (usage: GTKBackground [source] [seconds] [WxH])\n".utf8))
    exit(64)
}
let source = arguments.first ?? "swipe"
let seconds: Double? = arguments.count > 1 ? Double(arguments[1]) ?? .nan : nil
if let seconds, !(seconds > 0 && seconds <= 86_400) { usage("seconds must be a number from 0 to 86400, not '\(arguments[1])'") }
let size: [Int32] = arguments.count > 2 ? arguments[2].split(separator: "x", omittingEmptySubsequences: false).map { Int32($0) ?? 0 } : [640, 360]
if size.count != 2 || !size.allSatisfy({ (1...16_384).contains($0) }) { usage("the window is WxH, sides 1…16384, not '\(arguments[2])'") }
let player = ExtVideoPlayer { VideoSettings { SourceName(source); Loop(); Events() } }

/// What the player's thread hands to GTK's: the newest picture (older ones are dropped: the window
/// shows what is due at its tick) and the events since the last tick.
final class Mailbox: Sendable {
    private struct Content {
        var picture: RGBImage?
        var events: [String] = []
        var outcome: RunOutcome?
    }
    private let content = Mutex(Content())

    func post(_ picture: RGBImage) { content.withLock { $0.picture = picture } }
    /// Kept to the last 20: with the window hidden GTK stops ticking, and nothing takes them.
    func post(event: String) { content.withLock { $0.events = $0.events.suffix(19) + [event] } }
    /// The run is over; GTK's loop is woken, as its frame clock may not be ticking (a minimised window).
    func end(_ outcome: RunOutcome) {
        content.withLock { $0.outcome = outcome }
        g_main_context_wakeup(nil)
    }
    var outcome: RunOutcome? { content.withLock { $0.outcome } }
    func take() -> (picture: RGBImage?, events: [String]) {
        content.withLock { content in
            defer { (content.picture, content.events) = (nil, []) }
            return (content.picture, content.events)
        }
    }
}

let mailbox = Mailbox()
player.onEachEvent { event in mailbox.post(event: "\(event)") }
let runner = Thread {
    // Laid out at the window's size, so that GTK shows the picture as it comes, without scaling it again.
    let outcome = player.runScenes(area: PixelSize(width: Int(size[0]), height: Int(size[1])),
                                   until: StopCondition(duration: seconds)) { frame in
        if let picture = try? frame.image() { mailbox.post(picture) }
    }
    mailbox.end(outcome)
}

/// The window and its widgets, on the main thread only: GTK's callbacks reach it through the
/// pointer they were given, which stays valid because `window` below lives until the program ends.
final class BackgroundWindow {
    let window = gtk_window_new()
    let picture = gtk_picture_new()
    let label = gtk_label_new("starting…")
    let button = gtk_button_new_with_label("Pause")
    var pictures = 0, ticks = 0
    var closed = false
    private var shownState: PlayerState?

    init() {
        let css = gtk_css_provider_new()
        let style = ".panel { background: #ff00ff; color: white; padding: 8px; } .panel label { font-weight: bold; }"
        gtk_css_provider_load_from_data(css, style, -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), css, UInt32(LP_GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        gtk_window_set_title(window, "LoopPlayer in GTK")
        gtk_window_set_default_size(window, size[0], size[1])
        gtk_picture_set_content_fit(picture, Int32(LP_GTK_CONTENT_FIT_COVER))
        gtk_picture_set_can_shrink(picture, 1)
        let overlay = gtk_overlay_new()
        gtk_overlay_set_child(overlay, picture)
        // The panel: top left, 16 px in, at least 240x60 (the test finds its colour there).
        let panel = gtk_box_new(Int32(LP_GTK_ORIENTATION_VERTICAL), 4)
        gtk_widget_add_css_class(panel, "panel")
        gtk_widget_set_size_request(panel, 240, 60)
        place(panel, horizontal: LP_GTK_ALIGN_START, vertical: LP_GTK_ALIGN_START)
        gtk_box_append(panel, gtk_label_new("A GTK panel over the video"))
        gtk_box_append(panel, label)
        gtk_overlay_add_overlay(overlay, panel)
        // The button: bottom right, 16 px in, 120x40.
        gtk_widget_set_size_request(button, 120, 40)
        place(button, horizontal: LP_GTK_ALIGN_END, vertical: LP_GTK_ALIGN_END)
        gtk_overlay_add_overlay(overlay, button)
        gtk_window_set_child(window, overlay)
    }

    private func place(_ widget: OpaquePointer?, horizontal: Int, vertical: Int) {
        gtk_widget_set_halign(widget, Int32(horizontal))
        gtk_widget_set_valign(widget, Int32(vertical))
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_top, gtk_widget_set_margin_end, gtk_widget_set_margin_bottom] {
            margin(widget, 16)
        }
    }

    /// One frame-clock tick: the newest picture becomes the picture's texture (one copy, into the
    /// GBytes GTK keeps), the events go to the label, the state to the button.
    func tick() {
        let news = mailbox.take()
        if let image = news.picture {
            let bytes = image.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, UInt($0.count)) }
            let texture = gdk_memory_texture_new(Int32(image.width), Int32(image.height), Int32(LP_GDK_MEMORY_R8G8B8),
                                                 bytes, image.width * 3)
            g_bytes_unref(bytes)
            gtk_picture_set_paintable(picture, texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
            pictures += 1
            say("picture \(pictures)")
        }
        if let last = news.events.last { gtk_label_set_text(label, String(last.prefix(80))) }
        let state = player.state
        if state != shownState {
            shownState = state
            gtk_button_set_label(button, state == .paused ? "Play" : "Pause")
            say("state \(state)")
        }
        ticks += 1
        if ticks % 30 == 0 { say("tick \(ticks)") }
    }
}

let shown = BackgroundWindow()
let context = Unmanaged.passUnretained(shown).toOpaque()
_ = gtk_widget_add_tick_callback(shown.picture, { _, _, data in
    guard let data else { return 0 }
    Unmanaged<BackgroundWindow>.fromOpaque(data).takeUnretainedValue().tick()
    return 1  // G_SOURCE_CONTINUE
}, context, nil)
let clicked: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    player.send(PlaybackCommand.togglePause)
}
_ = g_signal_connect_data(UnsafeMutableRawPointer(shown.button), "clicked", unsafeBitCast(clicked, to: (@convention(c) () -> Void).self),
                          nil, nil, 0)
let closeRequested: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { _, data in
    if let data { Unmanaged<BackgroundWindow>.fromOpaque(data).takeUnretainedValue().closed = true }
    return 0  // let GTK close it
}
_ = g_signal_connect_data(UnsafeMutableRawPointer(shown.window), "close-request",
                          unsafeBitCast(closeRequested, to: (@convention(c) () -> Void).self), context, nil, 0)
gtk_window_present(shown.window)
runner.start()
// Until the window is closed, or the run ends by itself; a failed source's error stays on screen
// (in the picture and the label) until the window is closed, and the exit status says it failed.
while !shown.closed {
    if let outcome = mailbox.outcome {
        guard case let .failed(error) = outcome else { break }
        gtk_label_set_text(shown.label, "\(error)")
    }
    _ = g_main_context_iteration(nil, 1)
}
player.stop()
while mailbox.outcome == nil { usleep(10_000) }  // the player's thread lets go of its output: a few ms
say("\(player.statistics.framesPresented) frames presented, \(shown.pictures) shown by GTK")
if case let .failed(error) = mailbox.outcome {
    FileHandle.standardError.write(Data("GTKBackground: \(error)\n".utf8))
    exit(1)
}
