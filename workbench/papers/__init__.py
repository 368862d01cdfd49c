"""The papers' work and the workbench's reports: reproductions, the atlas, the Robust 2003 study, the tour.

``reproduce`` and the ``repro_*`` builders check each source paper claim by
claim, ``atlas`` and ``atlas_report`` classify every built-in measure,
``study`` and ``study_report`` run the Robust 2003 experiments,
``twist_scale`` and ``tour`` write their reports.  It may import every layer
below it, never the CLI.
"""
