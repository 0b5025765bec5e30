// The vocabulary a caller of Subweave needs comes with `import Subweave`: language tags and media
// time (Timebase), cues and text encodings (TimedText), playlists and validation findings (HLS),
// the media timeline and its errors (Containers), caption services (Captions). Everything else in
// those modules is `package`: shared by Subweave's own targets, not part of the public API.
@_exported import Captions
@_exported import Containers
@_exported import HLS
@_exported import Timebase
@_exported import TimedText
