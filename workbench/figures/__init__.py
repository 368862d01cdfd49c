"""Figures: Hasse diagrams for papers (DOT, TikZ, SVG, PDF, PNG, JSON) and the Twist figures.

``hasse_marks`` computes highlights and a measure's weak order,
``render`` lays a diagram out and writes DOT, TikZ and JSON,
``hasse_figure`` writes any format through Graphviz or matplotlib, and
``twist_plots`` draws Ferro et al.'s (2016) figures.  It may import every layer below
it (errors up to experiments), never the papers or the CLI.
"""
