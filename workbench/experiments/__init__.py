"""Experiments on TREC runs: correlation, significance, discriminative power, pool downsampling, Twist on real runs.

``correlation`` (Kendall tau), ``significance`` (ANOVA, Kruskal-Wallis,
Tukey HSD), ``baseline`` (runs against a baseline, paired tests), ``discrimination`` (Sakai's bootstrap), ``downsampling``
(seed 000 pools) and ``twist_runs`` (seed 002 on runs).  It may import the
layers below it: errors, core, space, order, measure, scale, data and ipso.
"""
