"""Experiments on TREC runs: correlation, significance, discriminative power, pool downsampling, Twist on real runs.

``correlation`` (Kendall tau), ``significance`` (ANOVA, Kruskal-Wallis,
Tukey HSD), ``baseline`` (runs against a baseline, paired tests), ``discrimination`` (Sakai's bootstrap), ``downsampling``
(Ferrante, Ferro and Losiouk 2020 pools) and ``twist_runs`` (Ferro, Silvello, Keskustalo, Pirkola and Järvelin 2016 on runs).  It may import the
layers below it: errors, core, space, order, measure, scale, data and ipso.
"""
