"""The pure-Python engine and built-in agents as they stood before the compiled core: kept only
here, as the oracle the compiled code is checked against game by game, event by event
(STYLE: proof by difference). Not part of the package."""
