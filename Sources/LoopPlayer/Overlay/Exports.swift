// `import LoopPlayer` is all a user writes: the layers below bring the errors, events, options and
// the overlay vocabulary (colours, vector layers, rasterised images) of the player's API.
@_exported import LoopPlayerCore
@_exported import LoopPlayerMedia
@_exported import LoopPlayerOutput
@_exported import Overlay
