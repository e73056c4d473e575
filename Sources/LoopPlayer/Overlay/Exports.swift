// The overlay vocabulary (colours, vector layers, rasterised images) is part of the player's API:
// `import LoopPlayer` brings it along, as `Filters` values come through the settings.
@_exported import Overlay
