// Embedding: an application that owns its SDL window, renderer and loop draws the player into a
// rectangle of its own layout. Run: swift run EmbedInSDL [source] [seconds]
import CSDL
import LoopPlayer

let arguments = Array(CommandLine.arguments.dropFirst())
let source = arguments.first ?? "swipe"
let seconds = arguments.count > 1 ? Double(arguments[1]) ?? 10 : 10

guard SDL_Init(SDL_INIT_VIDEO) == 0,
      let window = SDL_CreateWindow("LoopPlayer embedded", 0, 0, 800, 500, SDL_WINDOW_RESIZABLE.rawValue),
      let renderer = SDL_CreateRenderer(window, -1, 0) else {
    print("no display: \(String(cString: SDL_GetError()))")
    exit(1)
}

let player = ExtVideoPlayer { VideoSettings { SourceName(source); Loop(); Gravity(.resizeAspectFill) } }
let video: EmbeddedPlayback
do {
    video = try EmbeddedPlayback(player: player, renderer: renderer)
} catch {
    print("error: \(error)")
    exit(1)
}

var running = true
let end = Double(SDL_GetTicks64()) / 1000 + seconds
while running && Double(SDL_GetTicks64()) / 1000 < end {
    // Sleep until the player wants to draw (or any event: decoded frames wake this wait).
    let next = video.update()
    var event = SDL_Event()
    if SDL_WaitEventTimeout(&event, Int32(((next ?? 0.1) * 1000).rounded(.up))) != 0 {
        if event.type == SDL_QUIT.rawValue { running = false }
        if event.type == SDL_KEYDOWN.rawValue && event.key.keysym.sym == Int32(SDLK_SPACE.rawValue) {
            player.send(player.state == .paused ? .play : .pause)
        }
    }
    // The application's own layout: a side bar, and the video in the rest.
    var width: Int32 = 0, height: Int32 = 0
    SDL_GetRendererOutputSize(renderer, &width, &height)
    SDL_SetRenderDrawColor(renderer, 30, 30, 40, 255)
    SDL_RenderClear(renderer)
    video.draw(in: Rect(x: 200, y: 20, width: Double(width) - 220, height: Double(height) - 40))
    SDL_RenderPresent(renderer)
}
print("\(player.statistics.framesPresented) frames shown, \(player.statistics.loopsCompleted) loops")
SDL_DestroyRenderer(renderer)
SDL_DestroyWindow(window)
SDL_Quit()
