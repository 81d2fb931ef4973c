"""Rendering of AntipoliX boards and replays (PyVista). Imports ``antipolix``, never the reverse.

The renderers arrive with the replay issue; this package holds their place in the layout.
"""
